/* Calls of the monitor's own C API are no call statements, and vcmon_ functions are no
 * procedures; work() is both. */
void vcmon_snapshot(void);
void vcmon_helper(void) {}
void work(void) {}

int main(void) {
  vcmon_snapshot();
  vcmon_helper();
  work();
  return 0;
}

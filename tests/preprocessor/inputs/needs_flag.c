/* Parses only with -DVCMON_TEST_FLAG=2, as its compile command gives. */
#if VCMON_TEST_FLAG != 2
#error compile me with -DVCMON_TEST_FLAG=2
#endif
void work(void) {}
int main(void) {
  work();
  return 0;
}

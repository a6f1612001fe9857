/* Calls a procedure defined in another file (callee.c) and one defined nowhere given. */
void callee(int n);
void elsewhere(void);

int main(void) {
  for (int i = 0; i < 2; i++)
    callee(i);
  elsewhere();
  return 0;
}

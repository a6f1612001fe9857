/* Defines the procedure caller.c calls. */
static int sum;

void callee(int n) {
  sum += n;
}

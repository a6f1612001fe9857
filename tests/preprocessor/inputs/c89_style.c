/* C89: declarations first in every block; the probes must keep it so (and be quiet under
 * -pedantic-errors). */
int halve(int x);

int sum_to(int n) {
  int s = 0;
  int i;
  for (i = 0; i < n; i++) {
    int square = i * i;
    s += square + halve(i);
  }
  while (s > 100)
    s = halve(s);
  return s;
}

int halve(int x) {
  return x / 2;
}

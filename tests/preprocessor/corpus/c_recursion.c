/* Direct and mutual recursion, function pointers (also in a table of operations), variadic
 * functions, static and inline functions. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

static long factorial(int n) {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

static int is_odd(unsigned n);
static int is_even(unsigned n) {
  if (n == 0)
    return 1;
  return is_odd(n - 1);
}
static int is_odd(unsigned n) {
  if (n == 0)
    return 0;
  return is_even(n - 1);
}

static inline int square(int x) {
  return x * x;
}

static int twice(int x) {
  return 2 * x;
}

static int sum_of(int count, ...) {
  va_list args;
  va_start(args, count);
  int sum = 0;
  for (int i = 0; i < count; i++)
    sum += va_arg(args, int);
  va_end(args);
  return sum;
}

struct operations {
  const char* name;
  int (*apply)(int);
};

static int apply_all(const struct operations* ops, int n, int value) {
  for (int i = 0; i < n; i++)
    value = ops[i].apply(value);
  return value;
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int (*chosen)(int) = rank == 0 ? square : twice;
  const struct operations ops[] = {{"square", square}, {"twice", twice}, {"square", square}};
  long local[5] = {factorial(10 + rank), is_even(10 + (unsigned)rank), chosen(7),
                   sum_of(4, 1, 2, 3, rank), apply_all(ops, 3, 2 + rank)};
  long everyone[10];
  MPI_Gather(local, 5, MPI_LONG, everyone, 5, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int i = 0; i < 10; i++)
      printf("%s value %d: %ld\n", ops[i % 3].name, i, everyone[i]);
  }
  MPI_Finalize();
  return 0;
}

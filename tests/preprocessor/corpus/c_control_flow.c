/* Control flow the probes must survive: early returns with side effects, goto out of nested
 * loops, loops and calls without braces, loops inside switch, calls in conditions and inside
 * other expressions, do-while with continue, struct results. */
#include <mpi.h>
#include <stdio.h>

struct pair {
  int low, high;
};

static int calls;

static int bump(int by) {
  calls += by;
  return calls;
}

/* The returned expression has a side effect and must run before the exit probe. */
static int early_return(int x) {
  if (x < 0)
    return bump(-x);
  if (x == 0) {
    return bump(100) + bump(1);
  }
  for (int i = 0; i < 10; i++)
    if (i == x)
      return bump(i) * 2;
  return -1;
}

static int find_in_grid(int target) {
  int found = -1;
  for (int i = 0; i < 5; i++) {
    for (int j = 0; j < 5; j++) {
      int k = 0;
      while (1) {
        if (i * 25 + j * 5 + k == target) {
          found = i * 100 + j * 10 + k;
          goto done;
        }
        if (++k == 5)
          break;
      }
    }
  }
done:
  return found;
}

static struct pair order(int a, int b) {
  struct pair p = {a < b ? a : b, a < b ? b : a};
  return p;
}

static int classify(int n) {
  int sum = 0;
  switch (n % 3) {
  case 0:
    for (int i = 0; i < n; i++)
      sum += bump(1);
    break;
  case 1: {
    int i = 0;
    do {
      i++;
      if (i % 2)
        continue;
      sum += i;
    } while (i < n);
    break;
  }
  default:
    while (sum < n)
      sum += order(n, sum).low + 1;
  }
  return sum;
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int results[6];
  results[0] = early_return(-3);
  results[1] = early_return(0);
  results[2] = early_return(4 + rank);
  results[3] = find_in_grid(37 + rank);
  results[4] = classify(7) + classify(8) + classify(9);
  results[5] = order(bump(2), early_return(2)).high;
  int total[6];
  if (bump(0) > 0 && early_return(1) > 0)
    MPI_Reduce(results, total, 6, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int i = 0; i < 6; i++)
      printf("result %d: %d\n", i, total[i]);
  }
  printf("rank %d of %d made %d calls\n", rank, size, calls);
  MPI_Finalize();
  return 0;
}

// C++ exceptions leaving instrumented procedures, loops and calls; a function-try-block;
// recursion unwound by a throw.
#include <mpi.h>

#include <cstdio>
#include <stdexcept>
#include <string>

static int depth_reached = 0;

int descend(int depth, int limit) {
  depth_reached = depth;
  if (depth == limit)
    throw std::runtime_error("limit " + std::to_string(limit));
  return descend(depth + 1, limit) + 1;
}

int checked_sum(const int* values, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    if (values[i] < 0)
      throw std::invalid_argument("negative at " + std::to_string(i));
    sum += values[i];
  }
  return sum;
}

struct Resource {
  explicit Resource(int id) try : id_(id) {
    if (id < 0)
      throw std::out_of_range("bad id");
  } catch (const std::out_of_range&) {
    ++failures;
  }
  int id_;
  static int failures;
};
int Resource::failures = 0;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int caught = 0;
  try {
    descend(0, 5 + rank);
  } catch (const std::runtime_error& e) {
    caught += depth_reached;
  }
  const int values[] = {3, 4, -1, 5};
  for (int n = 2; n <= 4; ++n) {
    try {
      caught += checked_sum(values, n);
    } catch (const std::invalid_argument&) {
      caught += 100;
    }
  }
  try {
    Resource bad(-1);
  } catch (const std::out_of_range&) {
    caught += 1000;
  }
  int all = 0;
  MPI_Allreduce(&caught, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("caught %d all %d failures %d\n", caught, all, Resource::failures);
  MPI_Finalize();
  return 0;
}

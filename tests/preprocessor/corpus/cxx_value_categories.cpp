// Calls whose results the probes must not disturb: references (assigned through), temporaries
// bound to references (lifetime extension), non-movable results, results used in conditions,
// nested calls, member calls on temporaries, void results returned, calls in unevaluated
// operands, ranges that are temporaries.
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <vector>

static int destroyed = 0;

struct Tracked {
  explicit Tracked(int v) : value(v) {}
  ~Tracked() { ++destroyed; }
  Tracked(const Tracked&) = delete;
  Tracked& operator=(const Tracked&) = delete;
  int get() const { return value; }
  int value;
};

Tracked make_tracked(int v) {
  return Tracked(v);
}

std::atomic<int> make_atomic(int v) {
  return std::atomic<int>(v);
}

int& element(std::vector<int>& v, int i) {
  return v[static_cast<std::size_t>(i)];
}

std::vector<int> numbers(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i)
    v.push_back(i * i);
  return v;
}

int twice(int x) {
  return 2 * x;
}

bool positive(int x) {
  return x > 0;
}

void note(int* log, int x) {
  *log += x;
}

void forward_note(int* log, int x) {
  return note(log, twice(x));
}

struct Counter {
  int n = 0;
  Counter& add(int x) {
    n += x;
    return *this;
  }
  int operator()(int x) const { return n * x; }
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int log = 0;
  const Tracked& kept = make_tracked(7 + rank);
  const int destroyed_while_bound = destroyed;
  const int kept_value = kept.get();
  std::atomic<int> a = make_atomic(3);
  std::vector<int> v = numbers(4);
  element(v, 2) = 100;
  ++element(v, 3);
  int sum = 0;
  for (int x : numbers(5))
    sum += x;
  if (positive(twice(rank + 1)) && twice(twice(1)) == 4)
    forward_note(&log, 5);
  switch (twice(rank)) {
  case 0:
    note(&log, 1);
    break;
  default:
    note(&log, 2);
  }
  Counter c;
  const int chained = c.add(twice(2)).add(1)(3);
  const std::size_t unevaluated = sizeof(twice(1)) + sizeof(decltype(make_tracked(1)));
  const int chosen = positive(rank) ? twice(10) : twice(20);
  const int from_temporary = make_tracked(11).get();
  int all = 0;
  const int mine = kept_value + a.load() + v[2] + v[3] + sum + log + chained + chosen +
                   from_temporary + static_cast<int>(unevaluated);
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: kept %d destroyed-while-bound %d mine %d all %d\n", rank, kept_value,
              destroyed_while_bound, mine, all);
  MPI_Finalize();
  return 0;
}

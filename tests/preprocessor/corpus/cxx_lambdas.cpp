// Lambdas in loops (named after where they stand), generic lambdas, lambdas calling MPI,
// range-for over structured bindings, constexpr lambdas used at compile time.
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  constexpr auto halve = [](int x) { return x / 2; };
  static_assert(halve(8) == 4);

  std::map<std::string, int> counts{{"alpha", 1}, {"beta", 2}, {"gamma", 3}};
  int total = 0;
  for (const auto& [name, count] : counts) {
    auto weigh = [&total, rank](const std::string& n, int c) {
      total += c * static_cast<int>(n.size()) + rank;
      return total;
    };
    weigh(name, count);
  }
  std::vector<std::function<int(int)>> steps;
  for (int i = 1; i <= 3; ++i)
    steps.push_back([i](int x) { return x * i + 1; });
  int value = rank;
  for (auto& step : steps)
    value = step(value);

  auto sum_over = [](auto first, auto last) {
    decltype(*first + 0) sum{};
    for (; first != last; ++first)
      sum += *first;
    return sum;
  };
  std::vector<double> ds{0.5, 1.5, 2.0};
  const double dsum = sum_over(ds.begin(), ds.end());

  auto reduce_to_root = [](int mine) {
    int result = 0;
    MPI_Reduce(&mine, &result, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    return result;
  };
  const int all_totals = reduce_to_root(total);
  const int all_values = reduce_to_root(value);
  if (rank == 0)
    std::printf("totals %d values %d dsum %.1f halve %d\n", all_totals, all_values, dsum, halve(9));
  MPI_Finalize();
  return 0;
}

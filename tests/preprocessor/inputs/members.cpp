// C++ members: folded when tiny; a member kernel with loops stays a procedure even though
// defined in its class (ProbeScheme tests name them by line).
#include <mpi.h>
#include <vector>
struct Grid {
  std::vector<double> cells;
  double at(std::size_t i) const { return cells[i]; }
  void smooth() {
    for (std::size_t i = 1; i + 1 < cells.size(); ++i)
      cells[i] = 0.5 * (cells[i - 1] + cells[i + 1]);
  }
};
inline double twice(double x) {
  double s = 0;
  for (int i = 0; i < 2; ++i)
    s += x;
  return s;
}
const auto scale = [](std::vector<double>& cells, double factor) {
  for (double& cell : cells)
    cell *= factor; // a lambda kernel: its call operator is inline only for Clang
};
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Grid g{std::vector<double>(16, 1.0)};
  g.smooth();
  const double v = twice(g.at(3));
  scale(g.cells, 2.0);
  const auto reset = [&] { // no parameter list: once taken for constexpr and left unprobed
    for (double& cell : g.cells)
      cell = v;
  };
  reset();
  MPI_Finalize();
  return v > 0 ? 0 : 1;
}

// Classes (constructors, destructors, virtual calls, operators, calls returning references
// and non-copyable objects), templates (one site per definition), constexpr and consteval
// functions used at compile time.
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

constexpr int cube(int x) {
  return x * x * x;
}
consteval int twice(int x) {
  return 2 * x;
}
static_assert(cube(3) == 27, "constexpr functions stay usable at compile time");
static_assert(twice(cube(2)) == 16);

class Shape {
public:
  explicit Shape(std::string name) : name_(std::move(name)) { ++alive; }
  virtual ~Shape() { --alive; }
  virtual double area() const = 0;
  const std::string& name() const { return name_; }
  static int alive;

private:
  std::string name_;
};
int Shape::alive = 0;

class Square final : public Shape {
public:
  explicit Square(double side) : Shape("square"), side_(side) {}
  double area() const override { return side_ * side_; }

private:
  double side_;
};

class Circle : public Shape {
public:
  explicit Circle(double r) : Shape("circle"), r_(r) {}
  double area() const override { return 3.0 * r_ * r_; }

private:
  double r_;
};

struct Vec {
  double x, y;
  Vec operator+(const Vec& o) const { return {x + o.x, y + o.y}; }
  double& operator[](int i) { return i == 0 ? x : y; }
};

// Not copyable and not movable: returned by guaranteed copy elision only.
struct Locked {
  explicit Locked(int v) : value(v) {}
  Locked(const Locked&) = delete;
  Locked& operator=(const Locked&) = delete;
  std::mutex m;
  int value;
};

Locked make_locked(int v) {
  return Locked(v);
}

int& slot(std::vector<int>& v, std::size_t i) {
  return v.at(i);
}

template <typename T> T largest(const std::vector<T>& values) {
  T best = values.front();
  for (const T& v : values)
    if (v > best)
      best = v;
  return best;
}

template <typename T> class Accumulator {
public:
  void add(const T& v) { total_ = total_ + v; }
  T total() const { return total_; }

private:
  T total_{};
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(std::make_unique<Square>(2.0 + rank));
  shapes.push_back(std::make_unique<Circle>(1.0));
  double area = 0;
  for (const auto& s : shapes)
    area += s->area();
  Vec v = Vec{1, 2} + Vec{3, 4};
  v[1] = 10;
  std::vector<int> counts{1, 2, 3};
  slot(counts, 1) = 20;
  const Locked& locked = make_locked(5);
  Accumulator<int> ints;
  Accumulator<double> doubles;
  for (int i = 0; i < 4; ++i) {
    ints.add(i);
    doubles.add(i * 0.5);
  }
  constexpr int k = cube(2);
  double sum = 0;
  MPI_Allreduce(&area, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("area %.2f v %.1f %.1f slot %d locked %d largest %d %.1f\n", sum, v.x, v.y,
                counts[1], locked.value, largest(counts), largest(std::vector<double>{0.5, 2.5}));
    std::printf("totals %d %.1f k %d alive %d first %s\n", ints.total(), doubles.total(), k,
                Shape::alive, shapes.front()->name().c_str());
  }
  shapes.clear();
  MPI_Finalize();
  return 0;
}

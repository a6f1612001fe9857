// Times vcmon-instrument on a large generated MPI translation unit against
// `clang -fsyntax-only` on the same unit with the same include path, alternating the two so
// that both see the same machine load, and prints medians and their ratio.
//   instrument_vs_syntax_only [FUNCTIONS=3000] [REPETITIONS=7]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// A unit with `functions` procedures, each with a loop, a call statement and a communication
// statement, and a main calling them all.
std::string generate_unit(int functions) {
  std::string text = "#include <mpi.h>\n#include <stdio.h>\n\nstatic double sink;\n\n";
  for (int f = 0; f < functions; ++f) {
    const std::string name = "work_" + std::to_string(f);
    const std::string previous = f == 0 ? "" : "work_" + std::to_string(f - 1);
    text += "static double " + name + "(int n, MPI_Comm comm) {\n";
    text += "  double acc = 0.0;\n";
    text += "  for (int i = 0; i < n; ++i) {\n";
    text += "    acc += i * 0." + std::to_string(f % 9 + 1) + ";\n";
    text += "    if (i % 7 == 3)\n";
    text += f == 0 ? "      acc -= 1.0;\n" : "      acc += " + previous + "(n / 2, comm);\n";
    text += "  }\n";
    text += "  MPI_Allreduce(MPI_IN_PLACE, &acc, 1, MPI_DOUBLE, MPI_SUM, comm);\n";
    text += "  return acc;\n}\n\n";
  }
  text += "int main(int argc, char** argv) {\n  MPI_Init(&argc, &argv);\n";
  for (int f = 0; f < functions; f += 97) {
    text += "  sink += work_" + std::to_string(f) + "(4, MPI_COMM_WORLD);\n";
  }
  text += "  printf(\"%f\\n\", sink);\n  MPI_Finalize();\n  return 0;\n}\n";
  return text;
}

double seconds_to_run(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const auto stop = std::chrono::steady_clock::now();
  if (status != 0) {
    std::fprintf(stderr, "failed: %s\n", command.c_str());
    std::exit(1);
  }
  return std::chrono::duration<double>(stop - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The -I directories of `mpicc -show`, as the instrumenter adds them.
std::string mpi_include_flags() {
  std::string flags;
  FILE* pipe = popen("mpicc -show", "r");
  if (pipe == nullptr) {
    return flags;
  }
  char word[4096];
  while (std::fscanf(pipe, "%4095s", word) == 1) {
    const std::string w = word;
    if (w.rfind("-I", 0) == 0) {
      flags += " -isystem '" + w.substr(2) + "'";
    }
  }
  pclose(pipe);
  return flags;
}

} // namespace

int main(int argc, char** argv) {
  const int functions = argc > 1 ? std::atoi(argv[1]) : 3000;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 7;
  if (functions <= 0 || repetitions <= 0) {
    std::fprintf(stderr, "usage: %s [FUNCTIONS>0] [REPETITIONS>0]\n", argv[0]);
    return 1;
  }
  char pattern[] = "/tmp/vcmon-bench-XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  const fs::path dir = pattern;
  const fs::path unit = dir / "large_unit.c";
  const std::string text = generate_unit(functions);
  std::ofstream(unit) << text;
  std::size_t lines = std::count(text.begin(), text.end(), '\n');

  const std::string quiet = " >/dev/null 2>&1";
  const std::string syntax_only = std::string("'") + VCMON_BENCH_CLANG + "' -fsyntax-only" +
                                  mpi_include_flags() + " '" + unit.string() + "'" + quiet;
  const std::string instrument = std::string("'") + VCMON_INSTRUMENT + "' -o '" +
                                 (dir / "out").string() + "' '" + unit.string() + "'" + quiet;
  const std::string list_tables =
      std::string("'") + VCMON_INSTRUMENT + "' --list-tables '" + unit.string() + "'" + quiet;

  seconds_to_run(syntax_only); // warm the file cache and check that both commands work
  seconds_to_run(instrument);
  std::vector<double> t_syntax, t_instrument, t_list;
  for (int r = 0; r < repetitions; ++r) {
    t_syntax.push_back(seconds_to_run(syntax_only));
    t_instrument.push_back(seconds_to_run(instrument));
    t_list.push_back(seconds_to_run(list_tables));
  }
  const double base = median(t_syntax);
  std::printf("unit: %d procedures, %zu lines; %d repetitions, medians\n", functions, lines,
              repetitions);
  std::printf("%-34s %10s %8s\n", "command", "seconds", "ratio");
  std::printf("%-34s %10.3f %8.2f\n", "clang-16 -fsyntax-only", base, 1.0);
  std::printf("%-34s %10.3f %8.2f\n", "vcmon-instrument -o DIR", median(t_instrument),
              median(t_instrument) / base);
  std::printf("%-34s %10.3f %8.2f\n", "vcmon-instrument --list-tables", median(t_list),
              median(t_list) / base);
  fs::remove_all(dir);
  return 0;
}

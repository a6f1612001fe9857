// Checks the wildcard traces (VCMON_TRACE_WILDCARD) random_program wrote against the programs
// random_generator.h re-generates from the seeds. A GoogleTest program (CheckerArguments.hpp):
//   wildcard_trace_check --gtest_filter=WildcardTrace.Ranks DIR FIRST_SEED LAST_SEED
//                        [--no-cycle-breaks] [--tolerance-ns N]
// For each rank r, DIR/wildcard.<r>.txt must hold exactly one line per wildcard receive of the
// programs, in program order: "<MPI function> <source> <tag> <arrival_ns> <broke_cycle>".
// Per line: the function is the one the program used (MPI_Recv, MPI_Probe or MPI_Iprobe), the
// tag is RG_TAG_W and broke_cycle is 0 or 1 (0 with --no-cycle-breaks: the null-message
// strategy breaks no cycle). Per phase: the sources are exactly the senders of the phase's
// RG_TAG_W messages to the rank. Per program: (arrival_ns, source) never decreases, since a
// message with an earlier virtual send time would have had to be taken first (arrivals within
// N ns of the previous one are let pass with --tolerance-ns; default 0). Each rank's trace is
// one expectation, its message the first 20 lines that break it.
//   wildcard_trace_check --gtest_filter=WildcardTrace.SelfTest DIR FIRST_SEED LAST_SEED
// The checker's own test (see write_traces), writing into DIR.
#include "CheckerArguments.hpp"
#include "random_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace vcmon::checkers;

namespace {

struct Line {
  std::string function;
  int source = -1;
  int tag = -1;
  std::uint64_t arrival_ns = 0;
  int broke_cycle = -1;
  std::string text;
};

struct Options {
  std::string dir;
  unsigned first = 1;
  unsigned last = 0;
  bool no_cycle_breaks = false;
  std::uint64_t tolerance_ns = 0;
};

// What check_rank found wrong with one rank's trace: the number of failures, the first 20
// described (at most a screenful).
struct Verdict {
  int failures = 0;
  std::string first;
};

const char* function_of(int method) {
  switch (method) {
  case RG_RECV:
    return "MPI_Recv";
  case RG_PROBE:
    return "MPI_Probe";
  default:
    return "MPI_Iprobe";
  }
}

// Reads the trace at `path` into `lines`; empty, or what is wrong with the file.
std::string read_trace(const std::string& path, std::vector<Line>& lines) {
  std::ifstream in(path);
  if (!in) {
    return "expected a readable trace " + path;
  }
  std::string text;
  while (std::getline(in, text)) {
    Line line;
    line.text = text;
    std::istringstream fields(text);
    std::string rest;
    if (!(fields >> line.function >> line.source >> line.tag >> line.arrival_ns >>
          line.broke_cycle) ||
        (fields >> rest)) {
      return path + " line " + std::to_string(lines.size() + 1) +
             ": expected '<function> <source> <tag> <arrival_ns> <broke_cycle>', got '" + text +
             "'";
    }
    lines.push_back(line);
  }
  return "";
}

// Checks one rank's trace: every failure counted, the first 20 described.
Verdict check_rank(const Options& options, int rank, const std::vector<Line>& lines) {
  Verdict verdict;
  int& failures = verdict.failures;
  auto fail = [&](unsigned seed, int phase, std::size_t index, const std::string& what) {
    if (++failures <= 20) {
      verdict.first += "  seed " + std::to_string(seed) + " phase " + std::to_string(phase) +
                       " rank " + std::to_string(rank) + " line " + std::to_string(index + 1) +
                       ": " + what + (index < lines.size() ? ": " + lines[index].text : "") + "\n";
    }
  };
  std::size_t next = 0;
  std::size_t expected_total = 0;
  for (unsigned seed = options.first; seed <= options.last; ++seed) {
    rg_program program;
    rg_generate(&program, seed);
    const Line* previous = nullptr;
    int previous_phase = -1;
    for (int p = 0; p < program.phase_count; ++p) {
      const rg_phase& phase = program.phases[p];
      const rg_rank_phase& mine = phase.ranks[rank];
      int expected_from[RG_RANKS];
      for (int s = 0; s < RG_RANKS; ++s) {
        expected_from[s] = rg_messages(&phase, s, rank, RG_TAG_W);
      }
      int seen_from[RG_RANKS] = {0};
      for (int i = 0; i < mine.recv_count; ++i) {
        if (mine.recvs[i].from != RG_WILDCARD) {
          continue;
        }
        ++expected_total;
        if (next >= lines.size()) {
          fail(seed, p, next, "the trace ends early");
          continue;
        }
        const std::size_t index = next++;
        const Line& line = lines[index];
        const char* function = function_of(mine.recvs[i].method);
        if (line.function != function) {
          fail(seed, p, index, std::string("expected ") + function);
        }
        if (line.tag != RG_TAG_W) {
          fail(seed, p, index, "tag is not " + std::to_string(RG_TAG_W));
        }
        if (line.broke_cycle != 0 && line.broke_cycle != 1) {
          fail(seed, p, index, "broke_cycle is not 0 or 1");
        } else if (options.no_cycle_breaks && line.broke_cycle != 0) {
          fail(seed, p, index, "a cycle break where none may happen");
        }
        if (line.source < 0 || line.source >= RG_RANKS) {
          fail(seed, p, index, "source is not a rank");
          continue;
        }
        if (++seen_from[line.source] > expected_from[line.source]) {
          fail(seed, p, index,
               "more messages from rank " + std::to_string(line.source) + " than its " +
                   std::to_string(expected_from[line.source]));
        }
        if (previous != nullptr) {
          const bool earlier = line.arrival_ns + options.tolerance_ns < previous->arrival_ns;
          const bool tie_lower_rank =
              line.arrival_ns == previous->arrival_ns && line.source < previous->source;
          if (earlier || tie_lower_rank) {
            fail(seed, p, index,
                 "taken after (" + std::to_string(previous->arrival_ns) + ", " +
                     std::to_string(previous->source) + ") of phase " +
                     std::to_string(previous_phase) + " but its (arrival_ns, source) is earlier");
          }
        }
        previous = &line;
        previous_phase = p;
      }
    }
  }
  if (next < lines.size()) {
    fail(options.last, -1, next,
         std::to_string(lines.size() - next) + " lines more than the " +
             std::to_string(expected_total) + " wildcard receives");
  }
  std::printf("rank %d: %zu trace lines, %zu wildcard receives expected, %d failures\n", rank,
              lines.size(), expected_total, failures);
  return verdict;
}

// Reads and checks rank `rank`'s trace in options.dir: empty, or what is wrong with it.
std::string rank_trace_failures(const Options& options, int rank) {
  const std::string path = options.dir + "/wildcard." + std::to_string(rank) + ".txt";
  std::vector<Line> lines;
  std::string unreadable = read_trace(path, lines);
  if (!unreadable.empty()) {
    return unreadable;
  }
  const Verdict verdict = check_rank(options, rank, lines);
  if (verdict.failures == 0) {
    return "";
  }
  return path + ": " + std::to_string(verdict.failures) + " lines break the rules, the first:\n" +
         verdict.first;
}

// DIR FIRST_SEED LAST_SEED, from the positional arguments.
Options seeds_and_dir() {
  Options options;
  options.dir = checker_argument(0);
  options.first = static_cast<unsigned>(checker_argument_u64(1));
  options.last = static_cast<unsigned>(checker_argument_u64(2));
  return options;
}

// WildcardTrace.SelfTest DIR FIRST LAST: writes traces a correct layer could have written (each
// phase's messages all sent at one time, so taken by rank; times rising with the phase), checks
// that they pass, and that corrupt ones fail: 1 two sources of a phase swapped (a tie taken by the
// higher rank), 2 a line missing, 3 a wrong tag, 4 a send time earlier than the line before,
// 5 the wrong MPI function.
constexpr int kCorruptions = 5;

void write_traces(const Options& options, int corruption) {
  for (int rank = 0; rank < RG_RANKS; ++rank) {
    std::ofstream out(options.dir + "/wildcard." + std::to_string(rank) + ".txt");
    std::uint64_t time_ns = 1000000;
    bool corrupted = false;
    for (unsigned seed = options.first; seed <= options.last; ++seed) {
      rg_program program;
      rg_generate(&program, seed);
      bool program_has_lines = false;
      for (int p = 0; p < program.phase_count; ++p) {
        const rg_phase& phase = program.phases[p];
        std::vector<Line> lines;
        for (int s = 0; s < RG_RANKS; ++s) {
          for (int n = rg_messages(&phase, s, rank, RG_TAG_W); n > 0; --n) {
            lines.push_back(Line{"", s, RG_TAG_W, time_ns, 0, ""});
          }
        }
        std::size_t k = 0;
        for (int i = 0; i < phase.ranks[rank].recv_count; ++i) {
          if (phase.ranks[rank].recvs[i].from == RG_WILDCARD) {
            lines[k++].function = function_of(phase.ranks[rank].recvs[i].method);
          }
        }
        if (!corrupted && !lines.empty()) {
          corrupted = true;
          if (corruption == 1 && lines.front().source != lines.back().source) {
            std::swap(lines.front().source, lines.back().source);
          } else if (corruption == 2) {
            lines.pop_back();
          } else if (corruption == 3) {
            lines.front().tag = RG_TAG_X;
          } else if (corruption == 4 && program_has_lines) {
            lines.front().arrival_ns -= 1000 * RG_MAX_PHASES;
          } else if (corruption == 5) {
            lines.front().function =
                lines.front().function == "MPI_Recv" ? "MPI_Probe" : "MPI_Recv";
          } else {
            corrupted = corruption == 0;
          }
        }
        program_has_lines = program_has_lines || !lines.empty();
        for (const Line& line : lines) {
          out << line.function << ' ' << line.source << ' ' << line.tag << ' ' << line.arrival_ns
              << ' ' << line.broke_cycle << '\n';
        }
        time_ns += 1000;
      }
    }
  }
}

// The checker accepts the trace a correct layer could have written and rejects each corrupt
// one: DIR FIRST_SEED LAST_SEED.
TEST(WildcardTrace, SelfTest) {
  const Options options = seeds_and_dir();
  for (int corruption = 0; corruption <= kCorruptions; ++corruption) {
    write_traces(options, corruption);
    std::string failures;
    for (int rank = 0; rank < RG_RANKS; ++rank) {
      failures += rank_trace_failures(options, rank);
    }
    std::printf("self-test: corruption %d %s\n", corruption, failures.empty() ? "passes" : "fails");
    if (corruption == 0) {
      EXPECT_TRUE(failures.empty()) << "expected the checker to accept the valid trace:\n"
                                    << failures;
    } else {
      EXPECT_FALSE(failures.empty())
          << "expected the checker to reject corruption " << corruption << " (see write_traces)";
    }
  }
}

// The traces random_program wrote: DIR FIRST_SEED LAST_SEED [--no-cycle-breaks]
// [--tolerance-ns N].
TEST(WildcardTrace, Ranks) {
  Options options = seeds_and_dir();
  for (std::size_t i = 3; i < checker_argument_count(); ++i) {
    const std::string& arg = checker_argument(i);
    if (arg == "--no-cycle-breaks") {
      options.no_cycle_breaks = true;
    } else if (arg == "--tolerance-ns" && i + 1 < checker_argument_count()) {
      options.tolerance_ns = checker_argument_u64(++i);
    } else {
      FAIL() << "unknown argument " << arg
             << "; expected --no-cycle-breaks or --tolerance-ns N after DIR FIRST_SEED LAST_SEED";
    }
  }
  for (int rank = 0; rank < RG_RANKS; ++rank) {
    const std::string failures = rank_trace_failures(options, rank);
    EXPECT_TRUE(failures.empty()) << "expected rank " << rank
                                  << "'s trace to hold every wildcard receive, in order:\n"
                                  << failures;
  }
}

} // namespace

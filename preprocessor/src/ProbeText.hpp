// The text vcmon-instrument inserts around sites (macros of vcmon/preprocessor/instrumented.h).
// Nothing inserted contains a newline, so line numbers of the original stay valid.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::preprocessor {

// A counted loop a timed loop declares the counters of. `each_iteration_of`: the loop it is
// nested in, when it runs exactly once in every iteration of that loop (OncePerIteration): its
// executions are then that loop's iterations, not counted apart.
struct CountedLoop {
  std::uint32_t index = 0;
  std::optional<std::uint32_t> each_iteration_of;
};

class ProbeText {
public:
  explicit ProbeText(std::string base) : base_(std::move(base)) {}

  // Right after the `{` of a procedure body.
  std::string procedure_entry(std::uint32_t index) const;
  // Around a timed loop statement: `{` + its scope and the counters of the counted loops it
  // encloses, `}` after it.
  std::string loop_open(std::uint32_t index, const std::vector<CountedLoop>& counted) const;
  // Around a counted loop statement: `{` + the count of its execution, unless its enclosing
  // loop's iterations are that count.
  std::string counted_loop_open(const CountedLoop& loop) const;
  static std::string loop_close() { return " }"; }
  // At the start of each iteration: after the `{` of a braced body, or wrapping an unbraced
  // body between iteration_open and iteration_close.
  std::string iteration(std::uint32_t index, bool counted) const;
  std::string iteration_open(std::uint32_t index, bool counted) const {
    return "{" + iteration(index, counted) + " ";
  }
  static std::string iteration_close() { return " }"; }

  // A call or communication statement as a GNU statement expression: the scope covers just
  // the call, and the value is the call's (for void, scalar and, in C, struct results).
  std::string call_open(std::uint32_t index, bool communication) const;
  static std::string call_close() { return ";})"; }
  // C++ calls whose value is an object or a reference: a guard temporary that closes at the
  // end of the full-expression (instrumented.h says why).
  std::string guard_open(std::uint32_t index, bool communication) const;
  static std::string guard_close() { return ")"; }

private:
  std::string args(std::uint32_t index) const;
  std::string base_;
};

} // namespace vcmon::preprocessor

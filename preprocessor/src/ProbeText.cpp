#include "ProbeText.hpp"

namespace vcmon::preprocessor {

std::string ProbeText::args(std::uint32_t index) const {
  return "(" + base_ + ", " + std::to_string(index) + ")";
}

std::string ProbeText::procedure_entry(std::uint32_t index) const {
  return " VCMON_PROC_SCOPE" + args(index) + ";";
}

std::string ProbeText::loop_open(std::uint32_t index,
                                 const std::vector<CountedLoop>& counted) const {
  std::string text = "{ VCMON_LOOP_SCOPE" + args(index) + "; ";
  for (const CountedLoop& inner : counted) {
    if (!inner.each_iteration_of) {
      text += "VCMON_COUNTED_LOOP" + args(inner.index) + "; ";
      continue;
    }
    // Its enclosing loop is this timed loop, or a counted loop declared before it here.
    const std::uint32_t outer = *inner.each_iteration_of;
    text += std::string(outer == index ? "VCMON_COUNTED_LOOP_EACH_TIMED("
                                       : "VCMON_COUNTED_LOOP_EACH_COUNTED(") +
            base_ + ", " + std::to_string(inner.index) + ", " + std::to_string(outer) + "); ";
  }
  return text;
}

std::string ProbeText::counted_loop_open(const CountedLoop& loop) const {
  return loop.each_iteration_of ? "{ " : "{ VCMON_COUNTED_RUN" + args(loop.index) + "; ";
}

std::string ProbeText::iteration(std::uint32_t index, bool counted) const {
  return std::string(counted ? " VCMON_COUNTED_ITER" : " VCMON_LOOP_ITER") + args(index) + ";";
}

std::string ProbeText::call_open(std::uint32_t index, bool communication) const {
  // __extension__ keeps -Wpedantic quiet about the statement expression.
  return std::string(communication ? "__extension__({VCMON_COMM_SCOPE"
                                   : "__extension__({VCMON_CALL_SCOPE") +
         args(index) + "; ";
}

std::string ProbeText::guard_open(std::uint32_t index, bool communication) const {
  return std::string(communication ? "(VCMON_COMM_GUARD" : "(VCMON_CALL_GUARD") + args(index) + " ";
}

} // namespace vcmon::preprocessor

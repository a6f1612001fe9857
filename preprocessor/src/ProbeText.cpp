#include "ProbeText.hpp"

namespace vcmon::preprocessor {

std::string ProbeText::args(std::uint32_t index) const {
  return "(" + base_ + ", " + std::to_string(index) + ")";
}

std::string ProbeText::procedure_entry(std::uint32_t index) const {
  return " VCMON_PROC_SCOPE" + args(index) + ";";
}

std::string ProbeText::loop_open(std::uint32_t index,
                                 const std::vector<std::uint32_t>& counted) const {
  std::string text = "{ VCMON_LOOP_SCOPE" + args(index) + "; ";
  for (const std::uint32_t inner : counted) {
    text += "VCMON_COUNTED_LOOP" + args(inner) + "; ";
  }
  return text;
}

std::string ProbeText::counted_loop_open(std::uint32_t index) const {
  return "{ VCMON_COUNTED_RUN" + args(index) + "; ";
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

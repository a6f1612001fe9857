// Every problem building a report: records that contradict the static tables, options that
// name ranks or sites the profile does not have.
#pragma once

#include <stdexcept>

namespace vcmon::report {

class ReportError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace vcmon::report

// Writing a rendered view where -o says: standard output, or a file written whole beside its
// name and then renamed into place (tables::write_file_replacing), so a failed run never leaves
// half a report behind, nor writes through a link someone put in the way.
#pragma once

#include "vcmon/report/Report.hpp"

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace vcmon::report::cli {

// Renders `report` in `format` (one of report_formats()).
void render_report(const Report& report, std::string_view format, std::ostream& out);

// Calls `render` on standard output, or on a buffer then written to `output` when it is not
// empty (`what` names the file in messages). Throws std::system_error when the file cannot be
// written (the message names it).
void write_view(const std::function<void(std::ostream&)>& render, const std::string& output,
                std::string_view what = "report");

} // namespace vcmon::report::cli

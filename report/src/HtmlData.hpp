// Writes an HTML page with JSON data spliced in at its marker, the way both pages (report and
// diff) carry their data: '<' escaped, so the data cannot close the <script> that holds it.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

namespace vcmon::report {

template <typename Json>
void write_page_with_data(std::string_view page, std::string_view marker, const Json& data,
                          std::ostream& out);

} // namespace vcmon::report

#include "HtmlData.hpp"

namespace vcmon::report {

template <typename Json>
void write_page_with_data(std::string_view page, std::string_view marker, const Json& data,
                          std::ostream& out) {
  const std::string json = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // '<' only occurs inside JSON strings, where \u003c means the same and cannot close the
  // <script> element that holds the data.
  std::string escaped;
  escaped.reserve(json.size());
  for (const char c : json) {
    if (c == '<') {
      escaped += "\\u003c";
    } else {
      escaped += c;
    }
  }
  const auto at = page.find(marker);
  out << page.substr(0, at) << escaped << page.substr(at + marker.size());
}

template void write_page_with_data(std::string_view, std::string_view, const nlohmann::json&,
                                   std::ostream&);
template void write_page_with_data(std::string_view, std::string_view,
                                   const nlohmann::ordered_json&, std::ostream&);

} // namespace vcmon::report

#include "vcmon/report/HtmlRenderer.hpp"

#include "HtmlPage.hpp"

#include "vcmon/report/JsonRenderer.hpp"

namespace vcmon::report {

void HtmlRenderer::render(const Report& report, std::ostream& out) const {
  std::string json =
      JsonRenderer().to_json(report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
  const auto marker = html::kPage.find(html::kDataMarker);
  out << html::kPage.substr(0, marker) << escaped
      << html::kPage.substr(marker + html::kDataMarker.size());
}

} // namespace vcmon::report

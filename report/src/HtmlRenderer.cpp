#include "vcmon/report/HtmlRenderer.hpp"

#include "HtmlData.hpp"
#include "HtmlPage.hpp"

#include "vcmon/report/JsonRenderer.hpp"

namespace vcmon::report {

void HtmlRenderer::render(const Report& report, std::ostream& out) const {
  write_page_with_data(html::kPage, html::kDataMarker, JsonRenderer().to_json(report), out);
}

} // namespace vcmon::report

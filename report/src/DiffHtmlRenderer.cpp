#include "vcmon/report/DiffHtmlRenderer.hpp"

#include "DiffHtmlPage.hpp"
#include "HtmlData.hpp"

#include "vcmon/report/DiffJsonRenderer.hpp"

namespace vcmon::report {

void DiffHtmlRenderer::render(const ReportDiff& diff, std::ostream& out) const {
  // The page reads the diff's JSON (docs/report.md, "Comparing two runs"), so both formats
  // always carry the same numbers.
  write_page_with_data(diff_html::kPage, diff_html::kDataMarker, DiffJsonRenderer().to_json(diff),
                       out);
}

} // namespace vcmon::report

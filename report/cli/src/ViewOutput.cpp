#include "vcmon/report/cli/ViewOutput.hpp"

#include "vcmon/report/FoldedStacksRenderer.hpp"
#include "vcmon/report/HatchetRenderer.hpp"
#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/SpeedscopeRenderer.hpp"
#include "vcmon/report/TextRenderer.hpp"
#include "vcmon/tables/WholeFile.hpp"

#include <iostream>
#include <span>
#include <sstream>

namespace vcmon::report::cli {

void render_report(const Report& report, std::string_view format, std::ostream& out) {
  if (format == "json") {
    JsonRenderer().render(report, out);
  } else if (format == "html") {
    HtmlRenderer().render(report, out);
  } else if (format == "hatchet") {
    HatchetRenderer().render(report, out);
  } else if (format == "speedscope") {
    SpeedscopeRenderer().render(report, out);
  } else if (format == "folded") {
    FoldedStacksRenderer().render(report, out);
  } else {
    TextRenderer().render(report, out);
  }
}

void write_view(const std::function<void(std::ostream&)>& render, const std::string& output,
                std::string_view what) {
  if (output.empty()) {
    std::ios::sync_with_stdio(false);
    render(std::cout);
    std::cout.flush();
    return;
  }
  std::ostringstream text;
  render(text);
  const std::string bytes = std::move(text).str();
  tables::write_file_replacing(output, std::as_bytes(std::span(bytes)), what);
}

} // namespace vcmon::report::cli

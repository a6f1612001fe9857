// libFuzzer target for the report path: whatever the profile reader accepts, building the
// report and rendering it as text, JSON and HTML must succeed or fail with ReportError.
#include "ProfileHeader.hpp"
#include "ResealedProfile.hpp"

#include "vcmon/report/HtmlRenderer.hpp"
#include "vcmon/report/JsonRenderer.hpp"
#include "vcmon/report/Report.hpp"
#include "vcmon/report/ReportError.hpp"
#include "vcmon/report/TextRenderer.hpp"
#include "vcmon/tables/Profile.hpp"

#include <cstdint>
#include <span>
#include <sstream>

namespace {

using namespace vcmon;

template <typename Source> void render_everything(const Source& profile) {
  try {
    const report::Report built = report::build_report(profile);
    std::ostringstream sink;
    report::TextRenderer{}.render(built, sink);
    report::JsonRenderer{}.render(built, sink);
    report::HtmlRenderer{}.render(built, sink);
  } catch (const report::ReportError&) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  // Framing the input as a checksummed payload, or recomputing a version-6 or 7 file's
  // checksums, lets mutations reach the report builder.
  namespace tables = vcmon::tables;
  for (const auto& candidate :
       {std::vector<std::byte>(bytes.begin(), bytes.end()),
        tables::detail::frame_profile_payload(bytes, tables::detail::kLastWholePayloadVersion),
        tables::fuzzing::with_checksums_recomputed(bytes)}) {
    try {
      render_everything(vcmon::tables::decode_profile(candidate));
      // Through the reader, as vcmon-report reads a file: from its summary when it has one.
      render_everything(vcmon::tables::ProfileReader(candidate));
    } catch (const vcmon::tables::ProfileError&) {
    }
  }
  return 0;
}

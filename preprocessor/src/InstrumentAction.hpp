// The Clang front-end action run on each input: parses it, collects its sites and, when asked,
// builds its instrumented copy and tables source. Nothing is produced for a file with errors.
#pragma once

#include "SiteCollector.hpp"

#include "vcmon/tables/ProgramGraph.hpp"

#include <clang/Tooling/Tooling.h>

#include <memory>
#include <optional>
#include <string>

namespace vcmon::preprocessor {

struct InstrumentedUnit {
  tables::ProgramGraph graph;
  std::string instrumented; // the instrumented copy (empty unless text was asked for)
  std::string tables;       // the generated tables source (empty unless asked, or embedded)
};

struct InstrumentRequest {
  std::string file;          // as given on the command line
  std::string absolute_path; // what makes the unit's names unique in a program
  bool produce_text = true;  // false for --list-tables
  bool embed_tables = false; // tables appended to the instrumented copy
};

// A factory for one input; `result` is filled when the input parses without errors.
std::unique_ptr<clang::tooling::FrontendActionFactory>
make_instrument_action(const InstrumentRequest& request, const CollectorOptions& options,
                       std::optional<InstrumentedUnit>& result);

} // namespace vcmon::preprocessor

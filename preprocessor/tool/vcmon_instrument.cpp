// vcmon-instrument [options] FILE... [-- COMPILER-FLAGS]
// vcmon-instrument [options] -p BUILD-DIR [FILE...]   (no FILE: every file of the build)
// Writes an instrumented copy and a tables source per file, or lists the static tables.
#include "InstrumentAction.hpp"
#include "OutputFiles.hpp"
#include "ParseFlags.hpp"
#include "Selection.hpp"
#include "TablesListing.hpp"
#include "TablesSource.hpp"

#include "vcmon/Version.h"
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <map>
#include <stdexcept>

namespace cl = llvm::cl;
namespace pre = vcmon::preprocessor;

namespace {

cl::OptionCategory category("vcmon-instrument options");
cl::list<std::string> files(cl::Positional, cl::desc("FILE..."), cl::cat(category));
cl::opt<std::string> build_dir("p",
                               cl::desc("Read compile flags from BUILD-DIR/compile_commands.json"),
                               cl::value_desc("BUILD-DIR"), cl::cat(category));
cl::opt<std::string> output_dir("output-dir",
                                cl::desc("Write the instrumented copies and tables sources here"),
                                cl::value_desc("DIR"), cl::cat(category));
cl::alias output_dir_short("o", cl::desc("Alias for --output-dir"), cl::aliasopt(output_dir));
cl::opt<bool> list_tables("list-tables", cl::desc("Print the static tables of the files"),
                          cl::cat(category));
cl::opt<std::string> selection_file("selection",
                                    cl::desc("Include/exclude files and procedures (see docs)"),
                                    cl::value_desc("FILE"), cl::cat(category));
cl::opt<bool> no_loops("no-loops", cl::desc("Loops are not sites"), cl::cat(category));
cl::opt<bool> mpi_only("mpi-only",
                       cl::desc("Only procedures and communication statements are sites"),
                       cl::cat(category));
cl::opt<unsigned> min_lines("min-lines",
                            cl::desc("Leave alone procedures whose body spans fewer lines"),
                            cl::value_desc("N"), cl::init(0), cl::cat(category));
cl::opt<bool> probe_all("probe-all",
                        cl::desc("Probe every site: no folded leaf procedures, no counted inner "
                                 "loops (slower; see docs/instrument.md)"),
                        cl::cat(category));
cl::opt<bool> embed_tables("embed-tables",
                           cl::desc("Append the tables to the instrumented copy instead of "
                                    "writing a separate tables source"),
                           cl::cat(category));

// Exit statuses as vcmon-report and vcmon-query have them: 2 for a usage error (options, no
// input), 1 for input that cannot be instrumented or output that cannot be written.
constexpr int kBadUsage = 2;
constexpr int kFailed = 1;

int fail(const std::string& message, int status = kFailed) {
  llvm::errs() << "vcmon-instrument: error: " << message << "\n";
  return status;
}

std::string first_line(std::string text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

std::string absolute(const std::string& path) {
  llvm::SmallString<256> result(path);
  llvm::sys::fs::make_absolute(result);
  llvm::sys::path::remove_dots(result, /*remove_dot_dot=*/true);
  return std::string(result);
}

// A message when `path` cannot be instrumented before it is even parsed.
std::optional<std::string> check_input(const std::string& path) {
  if (!llvm::sys::fs::exists(path)) {
    return "no such file: '" + path + "'";
  }
  if (!llvm::sys::fs::is_regular_file(path)) {
    return "not a regular file: '" + path + "'";
  }
  auto text = llvm::MemoryBuffer::getFile(path);
  if (!text) {
    return "cannot read '" + path + "': " + text.getError().message();
  }
  if ((*text)->getBuffer().startswith(pre::kGeneratedMarker)) {
    return "'" + path + "' was written by vcmon-instrument; instrument the original source";
  }
  return std::nullopt;
}

} // namespace

int main(int argc, char** argv) {
  // Everything after "--" is compiler flags, as for clang-tidy.
  int own_argc = argc;
  std::vector<std::string> compiler_flags;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) {
      own_argc = i;
      compiler_flags.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](llvm::raw_ostream& out) {
    out << "vcmon-instrument: " VCMON_VERSION_LINE ", Clang " LLVM_VERSION_STRING "\n";
  });
  std::string parse_errors;
  llvm::raw_string_ostream parse_error_stream(parse_errors);
  if (!cl::ParseCommandLineOptions(own_argc, argv,
                                   "Instruments C and C++ MPI sources for vcmon.\n\n"
                                   "  vcmon-instrument [options] FILE... [-- COMPILER-FLAGS]\n",
                                   &parse_error_stream)) {
    // Some option errors go straight to stderr, the rest to parse_errors: one line either way.
    parse_error_stream.flush();
    if (!parse_errors.empty()) {
      llvm::errs() << first_line(parse_errors) << "\n";
    }
    return kBadUsage;
  }
  if (files.empty() && build_dir.empty()) {
    return fail("no input files (usage: vcmon-instrument [options] FILE... [-- FLAGS])", kBadUsage);
  }
  if (!list_tables && output_dir.empty()) {
    return fail("give --output-dir=DIR to write instrumented copies, or --list-tables", kBadUsage);
  }
  if (!build_dir.empty() && own_argc != argc) {
    return fail("give either -p BUILD-DIR or -- COMPILER-FLAGS, not both", kBadUsage);
  }

  pre::CollectorOptions options;
  options.loops = !no_loops;
  options.call_statements = !mpi_only;
  options.min_lines = min_lines;
  options.fold_leaves = !probe_all;
  options.count_inner_loops = !probe_all;
  if (!selection_file.empty()) {
    try {
      options.selection = pre::Selection::read(selection_file);
    } catch (const std::invalid_argument& error) {
      return fail(error.what());
    }
  }

  std::unique_ptr<clang::tooling::CompilationDatabase> database;
  std::vector<std::string> inputs(files.begin(), files.end());
  if (!build_dir.empty()) {
    llvm::SmallString<256> json(build_dir.getValue());
    llvm::sys::path::append(json, "compile_commands.json");
    if (!llvm::sys::fs::exists(json)) {
      return fail("no compile_commands.json in '" + build_dir + "'");
    }
    std::string error;
    database = clang::tooling::JSONCompilationDatabase::loadFromFile(
        json, error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!database) {
      return fail("cannot read the compilation database '" + std::string(json) +
                  "': " + first_line(error));
    }
    if (inputs.empty()) {
      inputs = database->getAllFiles(); // -p alone: every file of the build
    }
  } else {
    database = std::make_unique<clang::tooling::FixedCompilationDatabase>(".", compiler_flags);
  }

  std::map<std::string, std::string> seen_names; // output name -> input
  for (const std::string& input : inputs) {
    if (auto problem = check_input(input)) {
      return fail(*problem);
    }
    if (!build_dir.empty() && database->getCompileCommands(absolute(input)).empty()) {
      return fail("'" + input + "' has no entry in " + build_dir + "/compile_commands.json");
    }
    const std::string name = llvm::sys::path::filename(input).str();
    if (auto [it, fresh] = seen_names.emplace(name, input); !fresh && !list_tables) {
      return fail("'" + it->second + "' and '" + input + "' would both be written as '" + name +
                  "'; instrument them into different output directories");
    }
  }
  if (inputs.empty()) {
    return fail("no input files: " + build_dir + "/compile_commands.json lists none");
  }

  std::vector<pre::InstrumentedUnit> units;
  bool all_parsed = true;
  for (const std::string& input : inputs) {
    const pre::InstrumentRequest request{input, absolute(input), !list_tables, embed_tables};
    std::optional<pre::InstrumentedUnit> unit;
    clang::tooling::ClangTool tool(*database, {input});
    tool.appendArgumentsAdjuster(pre::parse_flags_adjuster());
    const auto action = pre::make_instrument_action(request, options, unit);
    if (tool.run(action.get()) != 0 || !unit) {
      all_parsed = false; // Clang has printed the diagnostics; go on to report the rest
      continue;
    }
    units.push_back(std::move(*unit));
  }
  if (!all_parsed) {
    return fail("nothing written: the inputs above have errors");
  }
  // Only now, with every file of the run seen, is a rule known to match nothing.
  for (const std::string& warning : options.selection.warnings()) {
    llvm::errs() << "vcmon-instrument: warning: " << warning << "\n";
  }

  if (list_tables) {
    std::vector<vcmon::tables::ProgramGraph> graphs;
    for (pre::InstrumentedUnit& unit : units) {
      graphs.push_back(std::move(unit.graph));
    }
    llvm::outs() << pre::list_tables(vcmon::tables::ProgramGraph::merge(graphs));
    return 0;
  }

  if (auto problem = pre::prepare_output_dir(output_dir)) {
    return fail(*problem);
  }
  std::vector<pre::OutputFile> outputs;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    llvm::SmallString<256> copy(output_dir.getValue());
    llvm::sys::path::append(copy, llvm::sys::path::filename(inputs[i]));
    outputs.push_back({std::string(copy), std::move(units[i].instrumented)});
    if (!units[i].tables.empty()) {
      outputs.push_back({std::string(copy) + ".vcmon-tables.c", std::move(units[i].tables)});
    }
  }
  for (const pre::OutputFile& output : outputs) {
    if (auto problem = pre::check_output_path(output.path, inputs)) {
      return fail(*problem);
    }
  }
  for (const pre::OutputFile& output : outputs) {
    if (auto problem = pre::write_output(output)) {
      return fail(*problem);
    }
  }
  return 0;
}

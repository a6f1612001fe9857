#include "InstrumentAction.hpp"

#include "InstrumentedCopy.hpp"
#include "TablesSource.hpp"
#include "UnitNames.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PreprocessorOptions.h>

namespace vcmon::preprocessor {
namespace {

class InstrumentConsumer : public clang::ASTConsumer {
public:
  InstrumentConsumer(const InstrumentRequest& request, const CollectorOptions& options,
                     std::string macros, std::optional<InstrumentedUnit>& result)
      : request_(request), options_(options), macros_(std::move(macros)), result_(result) {}

  // Filled while the unit is parsed, before HandleTranslationUnit reads it.
  PreprocessorFacts& preprocessor_facts() { return preprocessor_facts_; }

  void HandleTranslationUnit(clang::ASTContext& context) override {
    if (context.getDiagnostics().hasErrorOccurred()) {
      return;
    }
    const UnitNames names(request_.file, request_.absolute_path, macros_);
    SiteCollector collector(context, request_.file, options_, ProbeText(names.base),
                            preprocessor_facts_);
    collector.collect();
    InstrumentedUnit unit{collector.graph(), {}, {}};
    if (request_.produce_text) {
      const clang::SourceManager& sources = context.getSourceManager();
      std::string tables = tables_source(unit.graph, request_.file, names);
      unit.instrumented =
          instrumented_copy(sources.getBufferData(sources.getMainFileID()), collector.edits(),
                            request_.file, names, request_.embed_tables ? tables : "");
      if (!request_.embed_tables) {
        unit.tables = std::move(tables);
      }
    }
    result_.emplace(std::move(unit));
  }

private:
  const InstrumentRequest& request_;
  const CollectorOptions& options_;
  const std::string macros_;
  std::optional<InstrumentedUnit>& result_;
  PreprocessorFacts preprocessor_facts_;
};

// The command line's macro definitions (-D, -U), in order: "-DNAME=VALUE\n-UNAME\n".
std::string command_line_macros(const clang::CompilerInstance& compiler) {
  std::string macros;
  for (const auto& [definition, undefined] : compiler.getPreprocessorOpts().Macros) {
    macros += undefined ? "-U" : "-D";
    macros += definition;
    macros += '\n';
  }
  return macros;
}

class InstrumentFrontendAction : public clang::ASTFrontendAction {
public:
  InstrumentFrontendAction(const InstrumentRequest& request, const CollectorOptions& options,
                           std::optional<InstrumentedUnit>& result)
      : request_(request), options_(options), result_(result) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& compiler,
                                                        llvm::StringRef) override {
    auto consumer = std::make_unique<InstrumentConsumer>(request_, options_,
                                                         command_line_macros(compiler), result_);
    // A statement under a directive from a macro (`PFOR for (...)`) must stay as written too,
    // and the macro's text does not say so.
    record_preprocessor_facts(compiler.getPreprocessor(), consumer->preprocessor_facts());
    return consumer;
  }

private:
  const InstrumentRequest& request_;
  const CollectorOptions& options_;
  std::optional<InstrumentedUnit>& result_;
};

class InstrumentActionFactory : public clang::tooling::FrontendActionFactory {
public:
  InstrumentActionFactory(const InstrumentRequest& request, const CollectorOptions& options,
                          std::optional<InstrumentedUnit>& result)
      : request_(request), options_(options), result_(result) {}

  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<InstrumentFrontendAction>(request_, options_, result_);
  }

private:
  const InstrumentRequest& request_;
  const CollectorOptions& options_;
  std::optional<InstrumentedUnit>& result_;
};

} // namespace

std::unique_ptr<clang::tooling::FrontendActionFactory>
make_instrument_action(const InstrumentRequest& request, const CollectorOptions& options,
                       std::optional<InstrumentedUnit>& result) {
  return std::make_unique<InstrumentActionFactory>(request, options, result);
}

} // namespace vcmon::preprocessor

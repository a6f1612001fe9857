#include "core/SiteRegistry.hpp"
#include "core/Log.hpp"

#include <cstdio>

namespace vcmon::runtime {
namespace {

// Why the unit cannot be registered, or nullptr when it can.
const char* problem_with(const vcmon_unit_desc& unit) {
  if (unit.abi_version != VCMON_PROBE_ABI_VERSION) {
    return "it was instrumented for another probe ABI version";
  }
  if (unit.site_count > 0 && unit.sites == nullptr) {
    return "its site table is missing";
  }
  for (unsigned i = 0; i < unit.site_count; ++i) {
    const vcmon_site_desc& site = unit.sites[i];
    if (site.kind > VCMON_SITE_COMM) {
      return "a site has an unknown kind";
    }
    if (site.probing > VCMON_PROBING_FOLDED ||
        !tables::probing_fits(static_cast<tables::SiteKind>(site.kind),
                              static_cast<tables::SiteProbing>(site.probing))) {
      return "a site's probing does not fit its kind";
    }
    if (site.parent >= 0) {
      if (static_cast<unsigned>(site.parent) >= i) {
        return "a site's parent does not precede it";
      }
      const unsigned parent_kind = unit.sites[site.parent].kind;
      if (parent_kind != VCMON_SITE_PROCEDURE && parent_kind != VCMON_SITE_LOOP) {
        return "a site's parent is neither a procedure nor a loop";
      }
    } else if (site.parent != -1) {
      return "a site's parent is negative";
    }
  }
  return nullptr;
}

} // namespace

unsigned SiteRegistry::register_unit(const vcmon_unit_desc& unit) {
  std::lock_guard lock(mutex_);
  const std::uint32_t base = site_count_.load(std::memory_order_relaxed);
  const char* problem = problem_with(unit);
  if (problem == nullptr && std::uint64_t{base} + unit.site_count > decltype(entries_)::kCapacity) {
    problem = "the program has too many sites";
  }
  if (problem != nullptr) {
    log_line(LogLevel::Warning, "ignoring the probes of %s: %s",
             unit.file != nullptr ? unit.file : "(unnamed unit)", problem);
    return kRejectedBase;
  }
  tables::ProgramGraph& graph = units_.emplace_back();
  const std::string file = unit.file != nullptr ? unit.file : "";
  for (unsigned i = 0; i < unit.site_count; ++i) {
    const vcmon_site_desc& site = unit.sites[i];
    graph.add_site(
        static_cast<tables::SiteKind>(site.kind), tables::SourcePos{file, site.line, site.column},
        site.name != nullptr ? site.name : "",
        site.parent < 0 ? tables::kNoSite : static_cast<tables::SiteId>(site.parent),
        site.symbol != nullptr ? site.symbol : "", static_cast<tables::SiteProbing>(site.probing));
    SiteEntry* entry = entries_.get(base + i);
    entry->kind = static_cast<tables::SiteKind>(site.kind);
    entry->kind_index = kind_counts_[site.kind]++;
  }
  site_count_.store(base + unit.site_count, std::memory_order_release);
  return base;
}

std::uint32_t SiteRegistry::kind_count(tables::SiteKind kind) const {
  std::lock_guard lock(mutex_);
  return kind_counts_[static_cast<unsigned>(kind)];
}

tables::ProgramGraph
SiteRegistry::program_graph(const std::vector<std::string>& synthetic_comm_names) const {
  std::vector<tables::ProgramGraph> units;
  {
    std::lock_guard lock(mutex_);
    units = units_;
  }
  tables::ProgramGraph& synthetic = units.emplace_back();
  for (const std::string& name : synthetic_comm_names) {
    synthetic.add_site(tables::SiteKind::Comm, tables::SourcePos{}, name, tables::kNoSite);
  }
  return tables::ProgramGraph::merge(units);
}

} // namespace vcmon::runtime

// The sites of every registered translation unit, numbered densely in registration order
// (global id = unit base + local index), so probes index and never hash.
#pragma once

#include "core/PagedArray.hpp"
#include "vcmon/probes.h"
#include "vcmon/tables/ProgramGraph.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace vcmon::runtime {

// What a probe needs to know about a site: its kind and its index among sites of that kind
// (the index into the per-kind record arrays).
struct SiteEntry {
  tables::SiteKind kind = tables::SiteKind::Procedure;
  std::uint32_t kind_index = 0;
};

class __attribute__((visibility("hidden"))) SiteRegistry {
public:
  // Base handed to a unit that was rejected: its ids are never below site_count(), so its
  // probes are ignored.
  static constexpr unsigned kRejectedBase = 0x4000'0000u;

  // Checks, copies and numbers the unit's sites. A unit with another ABI version or malformed
  // sites is rejected with one message on stderr.
  unsigned register_unit(const vcmon_unit_desc& unit);

  // The site's entry, or nullptr when `site` was never registered. O(1), lock-free.
  const SiteEntry* find(std::uint32_t site) const {
    if (site >= site_count_.load(std::memory_order_acquire)) {
      return nullptr;
    }
    return entries_.find(site);
  }

  std::uint32_t site_count() const { return site_count_.load(std::memory_order_acquire); }
  // Registered sites of one kind (the bound of their kind_index).
  std::uint32_t kind_count(tables::SiteKind kind) const;

  // The merged graph of all registered units, ids equal to the global ids, followed by
  // `synthetic_comm_names.size()` synthetic communication sites (no file, no parent).
  tables::ProgramGraph program_graph(const std::vector<std::string>& synthetic_comm_names) const;

private:
  mutable std::mutex mutex_; // registration and graph building only, never probes
  // Copies of the registered tables: a unit's descriptor need not outlive its registration
  // (a library unloaded before exit, a table built at run time).
  std::vector<tables::ProgramGraph> units_;
  PagedArray<SiteEntry, 10, 4096> entries_;
  std::uint32_t kind_counts_[4] = {0, 0, 0, 0};
  std::atomic<std::uint32_t> site_count_{0};
};

} // namespace vcmon::runtime

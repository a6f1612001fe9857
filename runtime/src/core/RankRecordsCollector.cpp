#include "core/RankRecordsCollector.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <type_traits>
#include <utility>
#include <vector>

namespace vcmon::runtime {
namespace {

using tables::SiteId;
using tables::SiteKind;

struct Sums {
  std::uint64_t count = 0;
  std::uint64_t time_ns = 0;
  std::uint64_t sync_delay_ns = 0;
  std::uint64_t bytes = 0;
  std::uint64_t iterations = 0;
  std::uint64_t untimed = 0;                   // proc records: throttled activations
  std::uint64_t min_bytes = ~std::uint64_t{0}; // com records: message sizes
  std::uint64_t max_bytes = 0;
  std::array<std::uint64_t, tables::kSizeClasses> size_classes{};

  void add(const MessageSizeCounters& sizes) {
    min_bytes = std::min(min_bytes, sizes.min_bytes.load(std::memory_order_relaxed));
    max_bytes = std::max(max_bytes, sizes.max_bytes.load(std::memory_order_relaxed));
    for (std::size_t c = 0; c < tables::kSizeClasses; ++c) {
      size_classes[c] += sizes.classes[c].load(std::memory_order_relaxed);
    }
  }
};

using Key = std::pair<SiteId, std::uint32_t>; // (site in the profile, call site or partner)

template <typename Record>
void add_slots(std::map<Key, Sums>& sums, SiteId site, const KeyedSlotsOf<Record>& slots) {
  for (const Record& slot : slots.slots) {
    const std::uint32_t key = slot.key.load(std::memory_order_acquire);
    if (key == KeyedRecord::kEmptyKey) {
      continue;
    }
    Sums& s = sums[{site, key}];
    s.count += slot.count.load(std::memory_order_relaxed);
    s.time_ns += slot.time_ns.load(std::memory_order_relaxed);
    s.sync_delay_ns += slot.sync_delay_ns.load(std::memory_order_relaxed);
    s.bytes += slot.bytes.load(std::memory_order_relaxed);
    s.untimed += slot.untimed.load(std::memory_order_relaxed);
    if constexpr (std::is_same_v<Record, ComKeyedRecord>) {
      s.add(slot.sizes);
    }
  }
}

// The threads' calling-context trees merged by path: a context is (parent context, site), and
// the first thread to have it numbers it, after its parent.
class ContextMerge {
public:
  ContextMerge(std::uint32_t site_count, std::vector<tables::ContextRecord>& out)
      : site_count_(site_count), out_(out) {}

  // Adds every node of `tree` but the root (whose folded activations go to `folded_at_top`).
  void add(const ContextTree& tree, std::uint64_t& folded_at_top) {
    const std::uint32_t size = tree.size();
    if (size == 0) {
      return; // never reserved: a set no thread has used
    }
    std::vector<std::uint32_t> merged(size, 0); // node index -> parent field of its children
    folded_at_top += tree.at(ContextTree::kRoot).folded.load(std::memory_order_relaxed);
    for (std::uint32_t i = 1; i < size; ++i) {
      const ContextNode& node = tree.at(i);
      const SiteId site = node.site >= kSyntheticCommBase
                              ? site_count_ + (node.site - kSyntheticCommBase)
                              : node.site;
      const std::uint32_t parent = merged[node.parent];
      auto [found, added] = numbers_.try_emplace({parent, site}, 0);
      if (added) {
        out_.push_back({.parent = parent, .site = site});
        found->second = static_cast<std::uint32_t>(out_.size());
      }
      merged[i] = found->second;
      tables::ContextRecord& c = out_[found->second - 1];
      c.count += node.count.load(std::memory_order_relaxed);
      c.time_ns += node.time_ns.load(std::memory_order_relaxed);
      c.untimed += node.untimed.load(std::memory_order_relaxed);
      c.iterations += node.iterations.load(std::memory_order_relaxed);
      c.sync_delay_ns += node.sync_delay_ns.load(std::memory_order_relaxed);
      c.bytes += node.bytes.load(std::memory_order_relaxed);
      c.folded += node.folded.load(std::memory_order_relaxed);
    }
  }

private:
  std::uint32_t site_count_;
  std::vector<tables::ContextRecord>& out_;
  std::map<std::pair<std::uint32_t, SiteId>, std::uint32_t> numbers_; // -> position + 1
};

} // namespace

CollectedRecords collect_records(const SiteRegistry& registry, const ThreadRecordsList& threads,
                                 const OverflowRecords& overflow, std::uint32_t synthetic_count) {
  const std::uint32_t site_count = registry.site_count();
  std::map<Key, Sums> procs;
  std::map<SiteId, Sums> loops;
  std::map<Key, Sums> coms;
  CollectedRecords out;
  ContextMerge contexts(site_count, out.records.contexts);

  threads.for_each([&](const ThreadRecords& thread) {
    out.probe_events += thread.probe_events.load(std::memory_order_relaxed);
    out.folded_activations += thread.folded_activations.load(std::memory_order_relaxed);
    out.unmatched_exits += thread.unmatched_exits.load(std::memory_order_relaxed);
    contexts.add(thread.contexts, out.folded_contexts);
    for (SiteId site = 0; site < site_count; ++site) {
      const SiteEntry* entry = registry.find(site);
      if (entry->kind == SiteKind::Procedure) {
        if (const ProcSlots* proc = thread.procs.find(entry->kind_index)) {
          add_slots(procs, site, proc->by_call_site);
        }
      } else if (entry->kind == SiteKind::Loop) {
        if (const LoopCounters* loop = thread.loops.find(entry->kind_index)) {
          Sums& s = loops[site];
          s.count += loop->count.load(std::memory_order_relaxed);
          s.time_ns += loop->time_ns.load(std::memory_order_relaxed);
          s.iterations += loop->iterations.load(std::memory_order_relaxed);
        }
      } else if (entry->kind == SiteKind::Comm) {
        if (const ComSlots* com = thread.coms.find(entry->kind_index)) {
          add_slots(coms, site, *com);
        }
      }
    }
    for (std::uint32_t index = 0; index < synthetic_count; ++index) {
      if (const ComSlots* com = thread.synthetic_coms.find(index)) {
        add_slots(coms, site_count + index, *com);
      }
    }
  });

  for (std::size_t i = 0; i < overflow.capacity(); ++i) {
    const OverflowRecords::Entry& entry = overflow.entry(i);
    const std::uint64_t full_key = entry.key.load(std::memory_order_acquire);
    if (full_key == OverflowRecords::Entry::kEmpty) {
      continue;
    }
    const auto running_site = static_cast<std::uint32_t>(full_key >> 32);
    const auto key = static_cast<std::uint32_t>(full_key);
    SiteId site = running_site;
    bool is_com = running_site >= kSyntheticCommBase;
    if (is_com) {
      site = site_count + (running_site - kSyntheticCommBase);
    } else if (const SiteEntry* e = registry.find(running_site)) {
      is_com = e->kind == SiteKind::Comm;
    }
    Sums& s = (is_com ? coms : procs)[{site, key}];
    s.count += entry.count.load(std::memory_order_relaxed);
    s.time_ns += entry.time_ns.load(std::memory_order_relaxed);
    s.sync_delay_ns += entry.sync_delay_ns.load(std::memory_order_relaxed);
    s.bytes += entry.bytes.load(std::memory_order_relaxed);
    s.untimed += entry.untimed.load(std::memory_order_relaxed);
    if (is_com) {
      s.add(entry.sizes);
    }
  }
  out.dropped_records = overflow.dropped();
  for (const tables::ContextRecord& c : out.records.contexts) {
    out.folded_contexts += c.folded;
  }

  for (const auto& [key, s] : procs) {
    out.records.procs.push_back({key.first, key.second, s.time_ns, s.count, s.untimed});
  }
  for (const auto& [site, s] : loops) {
    if (s.count > 0) {
      out.records.loops.push_back({site, s.time_ns, s.count, s.iterations});
    }
  }
  // A com record is claimed before its first communication is added (a receive claims it
  // while the data arrives, and may then fail): without a count it records nothing.
  for (const auto& [key, s] : coms) {
    if (s.count > 0) {
      tables::ComRecord& com = out.records.coms.emplace_back();
      com.comm = key.first;
      com.partner = static_cast<std::int32_t>(key.second);
      com.transmission_ns = s.time_ns;
      com.sync_delay_ns = s.sync_delay_ns;
      com.count = s.count;
      com.bytes = s.bytes;
      com.size_classes = s.size_classes;
      if (com.messages() > 0) {
        com.min_bytes = s.min_bytes;
        com.max_bytes = s.max_bytes;
      }
    }
  }
  return out;
}

} // namespace vcmon::runtime

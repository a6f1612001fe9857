#include "core/RankRecordsCollector.hpp"

#include <atomic>
#include <map>
#include <utility>
#include <vector>

namespace vcmon::runtime {
namespace {

using tables::SiteId;
using tables::SiteKind;

using Key = std::pair<SiteId, std::uint32_t>; // (site in the profile, call site or partner)

std::uint64_t load(const std::atomic<std::uint64_t>& counter) {
  return counter.load(std::memory_order_relaxed);
}

// A keyed slot's or an overflow entry's counters added to the record they count for.
template <typename Counters> void add_counters(tables::ProcRecord& r, const Counters& counters) {
  r.count += load(counters.count);
  r.time_ns += load(counters.time_ns);
  r.untimed += load(counters.untimed);
}
template <typename Counters> void add_counters(tables::ComRecord& r, const Counters& counters) {
  r.count += load(counters.count);
  r.transmission_ns += load(counters.time_ns);
  r.sync_delay_ns += load(counters.sync_delay_ns);
  r.bytes += load(counters.bytes);
  r.sizes.absorb(counters.sizes.snapshot());
}

template <typename Record, typename Slot>
void add_slots(std::map<Key, Record>& records, SiteId site, const KeyedSlotsOf<Slot>& slots) {
  for (const Slot& slot : slots.slots) {
    const std::uint32_t key = slot.key.load(std::memory_order_acquire);
    if (key != KeyedRecord::kEmptyKey) {
      add_counters(records[{site, key}], slot);
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
    folded_at_top += load(tree.at(ContextTree::kRoot).folded);
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
      c.count += load(node.count);
      c.time_ns += load(node.time_ns);
      c.untimed += load(node.untimed);
      c.iterations += load(node.iterations);
      c.sync_delay_ns += load(node.sync_delay_ns);
      c.bytes += load(node.bytes);
      c.folded += load(node.folded);
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
  std::map<Key, tables::ProcRecord> procs;
  std::map<SiteId, tables::LoopRecord> loops;
  std::map<Key, tables::ComRecord> coms;
  CollectedRecords out;
  ContextMerge contexts(site_count, out.records.contexts);

  threads.for_each([&](const ThreadRecords& thread) {
    out.probe_events += load(thread.probe_events);
    out.folded_activations += load(thread.folded_activations);
    out.unmatched_exits += load(thread.unmatched_exits);
    contexts.add(thread.contexts, out.folded_contexts);
    for (SiteId site = 0; site < site_count; ++site) {
      const SiteEntry* entry = registry.find(site);
      if (entry->kind == SiteKind::Procedure) {
        if (const ProcSlots* proc = thread.procs.find(entry->kind_index)) {
          add_slots(procs, site, proc->by_call_site);
        }
      } else if (entry->kind == SiteKind::Loop) {
        if (const LoopCounters* loop = thread.loops.find(entry->kind_index)) {
          tables::LoopRecord& r = loops[site];
          r.count += load(loop->count);
          r.time_ns += load(loop->time_ns);
          r.iterations += load(loop->iterations);
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
    if (is_com) {
      add_counters(coms[{site, key}], entry);
    } else {
      add_counters(procs[{site, key}], entry);
    }
  }
  out.dropped_records = overflow.dropped();
  for (const tables::ContextRecord& c : out.records.contexts) {
    out.folded_contexts += c.folded;
  }

  for (auto [key, r] : procs) {
    r.proc = key.first;
    r.call_site = key.second;
    out.records.procs.push_back(r);
  }
  for (auto [site, r] : loops) {
    if (r.count > 0) {
      r.loop = site;
      out.records.loops.push_back(r);
    }
  }
  // A com record is claimed before its first communication is added (a receive claims it
  // while the data arrives, and may then fail): without a count it records nothing.
  for (auto [key, r] : coms) {
    if (r.count > 0) {
      r.comm = key.first;
      r.partner = static_cast<std::int32_t>(key.second);
      out.records.coms.push_back(r);
    }
  }
  return out;
}

} // namespace vcmon::runtime

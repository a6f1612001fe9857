#include "query/RecordsExclusion.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <type_traits>
#include <unordered_map>

namespace vcmon::runtime::query {
namespace {

using tables::ComRecord;
using tables::ContextRecord;
using tables::LoopRecord;
using tables::ProcRecord;
using tables::RankRecords;

std::uint64_t minus(std::uint64_t a, std::uint64_t b) {
  return a > b ? a - b : 0;
}

auto key_of(const ProcRecord& r) {
  return std::tuple(r.proc, r.call_site);
}
auto key_of(const LoopRecord& r) {
  return std::tuple(r.loop);
}
auto key_of(const ComRecord& r) {
  return std::tuple(r.comm, r.partner);
}

// Message sizes: a sum is exact (MessageSizes::absorb). A difference's classes are exact and its
// extremes stay unless their class emptied, then they move to that side's class boundary (the
// excluded messages may have held them).
void subtract_sizes(tables::MessageSizes& a, const tables::MessageSizes& b) {
  for (std::size_t c = 0; c < tables::kSizeClasses; ++c) {
    a.classes[c] = minus(a.classes[c], b.classes[c]);
  }
  if (a.messages() == 0) {
    a.min_bytes = a.max_bytes = 0;
    return;
  }
  const std::size_t first = a.first_class();
  const std::size_t last = a.last_class();
  if (tables::size_class(a.min_bytes) != first) {
    a.min_bytes = tables::size_class_floor(first);
  }
  if (tables::size_class(a.max_bytes) != last) {
    a.max_bytes = last + 1 < tables::kSizeClasses ? tables::size_class_floor(last + 1) - 1
                                                  : ~std::uint64_t{0};
  }
}

// Each sum a + b, or a − b saturating at zero; a com record's message sizes as subtract_sizes
// says.
template <typename Record> void combine(Record& a, const Record& b, bool add) {
  tables::for_each_sum_field<Record>(
      [&](auto field) { a.*field = add ? a.*field + b.*field : minus(a.*field, b.*field); });
  if constexpr (std::is_same_v<Record, ComRecord>) {
    if (add) {
      a.sizes.absorb(b.sizes);
    } else {
      subtract_sizes(a.sizes, b.sizes);
    }
  }
}

// `a` with `b` added or subtracted record by record, sorted by key, without empty records.
template <typename Record>
std::vector<Record> combined(const std::vector<Record>& a, const std::vector<Record>& b, bool add) {
  std::map<decltype(key_of(a.front())), Record> by_key;
  for (const Record& r : a) {
    by_key.emplace(key_of(r), r);
  }
  for (const Record& r : b) {
    auto [it, inserted] = by_key.try_emplace(key_of(r), r);
    if (!inserted) {
      combine(it->second, r, add);
    } else if (!add) {
      by_key.erase(it); // nothing of it to subtract from
    }
  }
  std::vector<Record> out;
  for (const auto& [key, r] : by_key) {
    if (!tables::sums_are_zero(r)) {
      out.push_back(r);
    }
  }
  return out;
}

// Contexts are matched by path, not by position: each collection numbers them afresh (a thread
// that started since lists its contexts among the others'). The result lists `a`'s contexts
// first, then `b`'s new paths, parents first; subtracting drops the contexts left empty with
// everything under them, as the per-site records drop empty records.
std::vector<ContextRecord> combined(const std::vector<ContextRecord>& a,
                                    const std::vector<ContextRecord>& b, bool add) {
  if (b.empty()) {
    return a;
  }
  std::vector<ContextRecord> sum = a;
  // (parent, site) -> index + 1, made at the first context not found at its own position:
  // readings mostly list the same paths in the same order (a thread's contexts in the order it
  // made them), so most contexts are found without hashing.
  std::unordered_map<std::uint64_t, std::uint32_t> position;
  bool indexed = false;
  const auto find = [&](std::size_t i, std::uint32_t parent, tables::SiteId site) {
    if (i < sum.size() && sum[i].parent == parent && sum[i].site == site) {
      return static_cast<std::uint32_t>(i + 1);
    }
    if (!indexed) {
      indexed = true;
      for (std::uint32_t k = 0; k < sum.size(); ++k) {
        position.emplace(tables::context_path_key(sum[k].parent, sum[k].site), k + 1);
      }
    }
    const auto found = position.find(tables::context_path_key(parent, site));
    return found != position.end() ? found->second : 0;
  };
  constexpr std::uint32_t kNoPath = ~std::uint32_t{0};  // under a path `a` lacks
  std::vector<std::uint32_t> in_sum(b.size(), kNoPath); // b's index -> sum's index + 1
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::uint32_t parent = b[i].parent == 0 ? 0 : in_sum[b[i].parent - 1];
    if (parent == kNoPath) {
      continue;
    }
    if (const std::uint32_t found = find(i, parent, b[i].site); found != 0) {
      combine(sum[found - 1], b[i], add);
      in_sum[i] = found;
    } else if (add) {
      sum.push_back(b[i]);
      sum.back().parent = parent;
      in_sum[i] = static_cast<std::uint32_t>(sum.size());
      if (indexed) {
        position.emplace(tables::context_path_key(parent, b[i].site), in_sum[i]);
      }
    }
  }
  if (add) {
    return sum;
  }
  // Children come after their parents: from the end, a context is kept when it or anything
  // under it is not empty.
  std::vector<bool> kept(sum.size(), false);
  for (std::size_t i = sum.size(); i-- > 0;) {
    kept[i] = kept[i] || !tables::sums_are_zero(sum[i]);
    if (kept[i] && sum[i].parent != 0) {
      kept[sum[i].parent - 1] = true;
    }
  }
  std::vector<ContextRecord> out;
  out.reserve(sum.size());
  std::vector<std::uint32_t> renumbered(sum.size(), 0); // sum's index -> out's index + 1
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (kept[i]) {
      out.push_back(sum[i]);
      out.back().parent = sum[i].parent == 0 ? 0 : renumbered[sum[i].parent - 1];
      renumbered[i] = static_cast<std::uint32_t>(out.size());
    }
  }
  return out;
}

void combine_records(RankRecords& a, const RankRecords& b, bool add) {
  a.procs = combined(a.procs, b.procs, add);
  a.loops = combined(a.loops, b.loops, add);
  a.coms = combined(a.coms, b.coms, add);
  a.contexts = combined(a.contexts, b.contexts, add);
}

} // namespace

RecordsExclusion& RecordsExclusion::instance() {
  // Never destroyed: exit handlers may still read records.
  static RecordsExclusion* const exclusion = new RecordsExclusion();
  return *exclusion;
}

void RecordsExclusion::pause(const RankRecords& raw) {
  const std::lock_guard lock(mutex_);
  if (!paused_at_) {
    paused_at_ = raw;
  }
}

void RecordsExclusion::resume(const RankRecords& raw) {
  const std::lock_guard lock(mutex_);
  if (paused_at_) {
    RankRecords while_paused = raw;
    combine_records(while_paused, *paused_at_, false);
    combine_records(excluded_, while_paused, true);
    paused_at_.reset();
  }
}

void RecordsExclusion::reset(const RankRecords& raw) {
  const std::lock_guard lock(mutex_);
  excluded_ = raw;
  if (paused_at_) {
    paused_at_ = raw;
  }
}

bool RecordsExclusion::paused() const {
  const std::lock_guard lock(mutex_);
  return paused_at_.has_value();
}

void RecordsExclusion::apply(RankRecords& records) const {
  const std::lock_guard lock(mutex_);
  if (paused_at_) {
    // Nothing since the pause counts: the records stand as they were then.
    records.procs = paused_at_->procs;
    records.loops = paused_at_->loops;
    records.coms = paused_at_->coms;
    records.contexts = paused_at_->contexts;
  }
  combine_records(records, excluded_, false);
}

} // namespace vcmon::runtime::query

#include "query/RecordsExclusion.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace vcmon::runtime::query {
namespace {

using tables::ComRecord;
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

// Message sizes: the classes add and subtract exactly. The extremes of a sum are exact; after
// a subtraction they stay unless their class emptied, then they move to that side's class
// boundary (the excluded messages may have held them).
void combine_sizes(ComRecord& a, const ComRecord& b, bool add) {
  const std::uint64_t had = a.messages();
  for (std::size_t c = 0; c < tables::kSizeClasses; ++c) {
    a.size_classes[c] =
        add ? a.size_classes[c] + b.size_classes[c] : minus(a.size_classes[c], b.size_classes[c]);
  }
  if (a.messages() == 0) {
    a.min_bytes = a.max_bytes = 0;
    return;
  }
  if (add) {
    if (b.messages() > 0) {
      a.min_bytes = had > 0 ? std::min(a.min_bytes, b.min_bytes) : b.min_bytes;
      a.max_bytes = had > 0 ? std::max(a.max_bytes, b.max_bytes) : b.max_bytes;
    }
    return;
  }
  const std::size_t first = a.first_size_class();
  const std::size_t last = a.last_size_class();
  if (tables::size_class(a.min_bytes) != first) {
    a.min_bytes = tables::size_class_floor(first);
  }
  if (tables::size_class(a.max_bytes) != last) {
    a.max_bytes = last + 1 < tables::kSizeClasses ? tables::size_class_floor(last + 1) - 1
                                                  : ~std::uint64_t{0};
  }
}

// Each field a + sign × b (saturating at zero).
void combine(ProcRecord& a, const ProcRecord& b, bool add) {
  a.time_ns = add ? a.time_ns + b.time_ns : minus(a.time_ns, b.time_ns);
  a.count = add ? a.count + b.count : minus(a.count, b.count);
}
void combine(LoopRecord& a, const LoopRecord& b, bool add) {
  a.time_ns = add ? a.time_ns + b.time_ns : minus(a.time_ns, b.time_ns);
  a.count = add ? a.count + b.count : minus(a.count, b.count);
  a.iterations = add ? a.iterations + b.iterations : minus(a.iterations, b.iterations);
}
void combine(ComRecord& a, const ComRecord& b, bool add) {
  a.transmission_ns =
      add ? a.transmission_ns + b.transmission_ns : minus(a.transmission_ns, b.transmission_ns);
  a.sync_delay_ns =
      add ? a.sync_delay_ns + b.sync_delay_ns : minus(a.sync_delay_ns, b.sync_delay_ns);
  a.count = add ? a.count + b.count : minus(a.count, b.count);
  a.bytes = add ? a.bytes + b.bytes : minus(a.bytes, b.bytes);
  combine_sizes(a, b, add);
}

bool is_empty(const ProcRecord& r) {
  return r.count == 0 && r.time_ns == 0;
}
bool is_empty(const LoopRecord& r) {
  return r.count == 0 && r.time_ns == 0 && r.iterations == 0;
}
bool is_empty(const ComRecord& r) {
  return r.count == 0 && r.transmission_ns == 0 && r.sync_delay_ns == 0 && r.bytes == 0;
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
    if (!is_empty(r)) {
      out.push_back(r);
    }
  }
  return out;
}

void combine_records(RankRecords& a, const RankRecords& b, bool add) {
  a.procs = combined(a.procs, b.procs, add);
  a.loops = combined(a.loops, b.loops, add);
  a.coms = combined(a.coms, b.coms, add);
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
  }
  combine_records(records, excluded_, false);
}

} // namespace vcmon::runtime::query

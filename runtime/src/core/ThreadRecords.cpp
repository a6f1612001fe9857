#include "core/ThreadRecords.hpp"

namespace vcmon::runtime {

ThreadRecords* ThreadRecordsList::acquire(std::uint32_t max_contexts) {
  for (ThreadRecords* r = head_.load(std::memory_order_acquire); r != nullptr; r = r->next) {
    bool expected_free = false;
    if (!r->in_use.load(std::memory_order_relaxed) &&
        r->in_use.compare_exchange_strong(expected_free, true, std::memory_order_acq_rel)) {
      return r;
    }
  }
  auto* records = new ThreadRecords();
  records->contexts.reserve(max_contexts);
  records->next = head_.load(std::memory_order_relaxed);
  while (!head_.compare_exchange_weak(records->next, records, std::memory_order_release,
                                      std::memory_order_relaxed)) {
  }
  return records;
}

} // namespace vcmon::runtime

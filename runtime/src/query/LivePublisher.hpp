// Live publication (docs/query.md, "Live publication"): a background thread copies this rank's
// records into its node-local segment every period, for vcmon-query. The thread's CPU time is
// charged to the rank's intrusion, so publishing does not show in virtual time.
#pragma once

#include "core/Monitor.hpp"
#include "vcmon/tables/LiveSegment.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace vcmon::runtime::query {

class __attribute__((visibility("hidden"))) LivePublisher {
public:
  // Creates the segment and publishes once before returning; throws tables::LiveSegmentError
  // when the segment cannot be created.
  LivePublisher(Monitor& monitor, const tables::LiveSegmentIdentity& identity,
                std::chrono::milliseconds period);
  // Stops the thread and removes the segment.
  ~LivePublisher();
  LivePublisher(const LivePublisher&) = delete;
  LivePublisher& operator=(const LivePublisher&) = delete;

  std::uint64_t publications() const { return publications_.load(std::memory_order_relaxed); }
  // CPU time the publishing thread spent, all of it charged to intrusion.
  std::uint64_t cpu_ns() const { return cpu_ns_.load(std::memory_order_relaxed); }

private:
  void run();
  void publish_once();

  Monitor& monitor_;
  tables::LiveSegmentWriter segment_;
  std::chrono::milliseconds period_;
  std::uint32_t tables_site_count_ = ~0u;
  std::vector<std::byte> tables_; // the encoded metadata and graph, rebuilt when sites appear
  std::atomic<std::uint64_t> publications_{0};
  std::atomic<std::uint64_t> cpu_ns_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace vcmon::runtime::query

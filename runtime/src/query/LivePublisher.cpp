#include "query/LivePublisher.hpp"

#include "core/Log.hpp"
#include "core/MonitorThread.hpp"
#include "core/ProfileOutput.hpp"
#include "query/LiveJob.hpp"
#include "query/RecordsExclusion.hpp"
#include "vcmon/tables/Profile.hpp"

#include <cstdio>
#include <ctime>

namespace vcmon::runtime::query {
namespace {

std::uint64_t thread_cpu_ns() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(now.tv_nsec);
}

} // namespace

LivePublisher::LivePublisher(Monitor& monitor, const tables::LiveSegmentIdentity& identity,
                             std::chrono::milliseconds period)
    : monitor_(monitor), segment_(identity), period_(period) {
  publish_once();
  thread_ = start_monitor_thread("vcmon-publish", [this] { run(); });
}

LivePublisher::~LivePublisher() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void LivePublisher::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stop_; })) {
    lock.unlock();
    const std::uint64_t start = thread_cpu_ns();
    try {
      publish_once();
    } catch (const std::exception& error) {
      log_line(LogLevel::Warning, "rank %d: live publication stopped: %s", monitor_.world_rank(),
               error.what());
      lock.lock();
      return;
    }
    const std::uint64_t spent = thread_cpu_ns() - start;
    monitor_.clock().charge_beside(spent);
    cpu_ns_.fetch_add(spent, std::memory_order_relaxed);
    lock.lock();
  }
}

void LivePublisher::publish_once() {
  const std::uint32_t site_count = monitor_.registry().site_count();
  if (site_count != tables_site_count_) {
    // The graph names every site the records may refer to (units register before main;
    // one loaded later adds sites).
    tables_ = tables::encode_profile(monitor_.profile_of({}, monitor_.world_size()));
    tables_site_count_ = site_count;
  }
  tables::RankRecords records = monitor_.local_rank_records(false);
  if (monitor_.registry().site_count() != site_count) {
    return; // the records may name sites the graph lacks: next period
  }
  RecordsExclusion::instance().apply(records);
  segment_.publish(tables_, tables::encode_rank_records(records), unix_time_ns());
  publications_.fetch_add(1, std::memory_order_relaxed);
  note_publication();
}

} // namespace vcmon::runtime::query

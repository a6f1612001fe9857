#include "core/MonitorEvents.hpp"
#include "core/Log.hpp"

#include <array>
#include <cstdio>

namespace vcmon::runtime {
namespace {

// Zero-initialised before any static initialiser runs, so subscribing from one is safe
// whatever the order of initialisation.
std::array<MonitorEvents, MonitorEvents::kMaxSubscribers> subscribers;
int subscriber_count = 0;

template <typename Raise> void for_each_subscriber(Raise&& raise) {
  for (int i = 0; i < subscriber_count; ++i) {
    raise(subscribers[static_cast<std::size_t>(i)]);
  }
}

} // namespace

void MonitorEvents::subscribe(const MonitorEvents& events) {
  if (subscriber_count == kMaxSubscribers) {
    log_line(LogLevel::Error, "more than %d monitor event subscribers", kMaxSubscribers);
    return;
  }
  subscribers[static_cast<std::size_t>(subscriber_count++)] = events;
}

void MonitorEvents::raise_mpi_started(Monitor& monitor) {
  for_each_subscriber([&](const MonitorEvents& s) {
    if (s.mpi_started != nullptr) {
      s.mpi_started(monitor);
    }
  });
}

void MonitorEvents::raise_mpi_ending() {
  for_each_subscriber([](const MonitorEvents& s) {
    if (s.mpi_ending != nullptr) {
      s.mpi_ending();
    }
  });
}

void MonitorEvents::raise_records_collected(tables::RankRecords& records) {
  for_each_subscriber([&](const MonitorEvents& s) {
    if (s.records_collected != nullptr) {
      s.records_collected(records);
    }
  });
}

} // namespace vcmon::runtime

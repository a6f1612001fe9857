// The monitor's own counters while the program runs (tables::MonitorCounters in the profile):
// any thread in the PMPI layer adds to them, and the live publisher reads them while it does,
// so each is an atomic on its own (they are touched per wildcard decision and control message,
// never on a probe's path).
#pragma once

#include "vcmon/tables/Records.hpp"

#include <atomic>
#include <cstdint>

namespace vcmon::runtime {

struct LayerCounters {
  std::atomic<std::uint64_t> wildcard_decisions{0};
  std::atomic<std::uint64_t> cycle_breaks{0};
  std::atomic<std::uint64_t> control_messages{0};
  std::atomic<std::uint64_t> safety_wait_ns{0};
  std::atomic<std::uint64_t> forced_decisions{0};

  // What they count now, as the profile keeps them (the probe counts come from the threads).
  tables::MonitorCounters snapshot() const {
    tables::MonitorCounters counters;
    counters.wildcard_decisions = wildcard_decisions.load(std::memory_order_relaxed);
    counters.cycle_breaks = cycle_breaks.load(std::memory_order_relaxed);
    counters.control_messages = control_messages.load(std::memory_order_relaxed);
    counters.safety_wait_ns = safety_wait_ns.load(std::memory_order_relaxed);
    counters.forced_decisions = forced_decisions.load(std::memory_order_relaxed);
    return counters;
  }
};

} // namespace vcmon::runtime

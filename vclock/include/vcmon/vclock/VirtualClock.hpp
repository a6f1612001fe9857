// A process's virtual clock (DESIGN.md §5): VT = RT − I, where I is the monitor's intrusion.
#pragma once

#include "vcmon/vclock/ClockSource.hpp"

#include <atomic>
#include <cstdint>

namespace vcmon::vclock {

class VirtualClock {
public:
  explicit VirtualClock(const ClockSource& source);

  std::uint64_t real_ns() const;      // RT since the clock was started
  std::uint64_t intrusion_ns() const; // I
  std::uint64_t virtual_ns() const;   // RT − I

  // Adds monitoring cost to I. Thread-safe (several threads of one process may probe).
  void charge(std::uint64_t ns);
  // Continues the clock from virtual time `vt` (e.g. after a receive): I becomes RT − vt,
  // so that real waiting caused by other processes' intrusion is not counted as the
  // program's. `vt` is never moved backwards past the current virtual time.
  void continue_from(std::uint64_t vt);

  const ClockSource& source() const { return source_; }

private:
  const ClockSource& source_;
  std::uint64_t origin_ns_;
  std::atomic<std::uint64_t> intrusion_ns_{0};
};

// Measures the monitor's own work from construction to destruction and charges it, plus a
// calibrated constant for what cannot be measured from inside (reading the clock itself).
class IntrusionScope {
public:
  IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns);
  ~IntrusionScope();
  IntrusionScope(const IntrusionScope&) = delete;
  IntrusionScope& operator=(const IntrusionScope&) = delete;

private:
  VirtualClock& clock_;
  std::uint64_t constant_ns_;
  std::uint64_t start_ns_;
};

} // namespace vcmon::vclock

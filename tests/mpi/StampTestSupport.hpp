// What the stamp transport's tests share: ring memory on the heap, and stamps whose contents
// follow from a number, so that a test can check each stamp it is handed.
#pragma once

#include "mpi/stamps/StampRing.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace vcmon::runtime::mpi::testing {

// Zeroed, line-aligned memory for a ring of `slots`.
struct RingMemory {
  explicit RingMemory(std::uint32_t slots)
      : memory(static_cast<char*>(std::aligned_alloc(StampRing::kLine, StampRing::bytes(slots))),
               &std::free) {
    std::fill(memory.get(), memory.get() + StampRing::bytes(slots), 0);
  }
  std::unique_ptr<char, decltype(&std::free)> memory;
};

// A stamp whose tag and stamp fields are derived from `n` (sequence, communicator and source
// are the caller's).
inline StampMessage numbered_stamp(std::uint64_t n) {
  StampMessage m;
  m.tag = static_cast<std::int32_t>(n % 11);
  m.stamp.send_vt_ns = n * 3;
  m.stamp.send_rt_ns = n * 3 + 1;
  m.stamp.bytes = n * 8;
  m.stamp.flags = static_cast<std::uint32_t>(n % 2);
  return m;
}

// Whether `m` holds the fields numbered_stamp(n) set.
inline bool numbered_as(const StampMessage& m, std::uint64_t n) {
  const StampMessage expected = numbered_stamp(n);
  return m.tag == expected.tag && m.stamp.send_vt_ns == expected.stamp.send_vt_ns &&
         m.stamp.send_rt_ns == expected.stamp.send_rt_ns && m.stamp.bytes == expected.stamp.bytes &&
         m.stamp.flags == expected.stamp.flags;
}

} // namespace vcmon::runtime::mpi::testing

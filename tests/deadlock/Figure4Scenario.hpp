// The paper's figure 4 (docs/design.md, "Waiting cycles"), in microseconds of virtual time: P1
// waits for a message from P0 or P3; P0's is there at 30 µs; P3 is at 20 µs, below 30, but blocked
// receiving from P2, and P2 is blocked receiving from P1. Unmonitored, P1 takes P0's message.
#pragma once

#include "StateBuilders.hpp"

#include "vcmon/deadlock/UndecidedReceive.hpp"

namespace vcmon::deadlock::testing {

struct Figure4Scenario {
  // Everyone but the decider, as they would answer.
  std::vector<ProcessState> others{running(0, 32'000), blocked_any(2, 15'000, {1}),
                                   blocked_any(3, 20'000, {2})};
  UndecidedReceive receive{
      blocked_any(1, 10'000, {0, 3}), {{0, 30'000, 0}}, {{0, 28'000}, {2, 12'000}, {3, 18'000}}};

  std::vector<ProcessState> everyone() const {
    std::vector<ProcessState> all = others;
    all.push_back(receive.self);
    return all;
  }
};

} // namespace vcmon::deadlock::testing

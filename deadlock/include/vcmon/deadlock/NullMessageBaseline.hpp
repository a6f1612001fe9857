// The Chandy–Misra null-message alternative to cycle breaking, kept to measure against
// (docs/deadlock.md, "Null-message baseline"). Every blocked process, the decider included,
// announces in synchronous rounds to every process it could send to (in MPI, every other rank of
// the communicator) the bound it can guarantee (clock + lookahead);
// the decider takes its earliest candidate once every other sender's channel bound has
// passed it. Running processes announce nothing: their real messages carry their clocks.
#pragma once

#include "vcmon/deadlock/Decision.hpp"
#include "vcmon/deadlock/UndecidedReceive.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vcmon::deadlock {

class NullMessageBaseline {
public:
  NullMessageBaseline(std::uint64_t lookahead_ns, std::size_t max_rounds)
      : lookahead_ns_(lookahead_ns), max_rounds_(max_rounds) {}

  // `others`: the state of every other process, each of which knows its own and starts
  // from the clocks its inputs last stamped (kNever for a finished input). A process
  // announces again only when its bound changed, which favours the baseline. Returns Take,
  // or Wait when the rounds ran out or nothing changed any more; never Deadlock: null
  // messages cannot tell a real deadlock from slow progress.
  Decision decide(const UndecidedReceive& receive, const std::vector<ProcessState>& others) const;

private:
  std::uint64_t lookahead_ns_;
  std::size_t max_rounds_;
};

} // namespace vcmon::deadlock

// A StateExchange answered in-process from one consistent snapshot of every rank's state: the
// simulation that the tests, the benchmarks and a single-process model of a run decide over.
#pragma once

#include "vcmon/deadlock/StateExchange.hpp"

#include <cstddef>
#include <map>

namespace vcmon::deadlock {

class SnapshotStateExchange : public StateExchange {
public:
  // Throws std::invalid_argument when a rank appears twice.
  explicit SnapshotStateExchange(const std::vector<ProcessState>& states);

  // Throws std::out_of_range for a rank the snapshot does not hold.
  std::vector<ProcessState> request_states(std::span<const Rank> ranks) override;

  // How many rank states were requested so far, over all calls.
  std::size_t ranks_queried() const { return ranks_queried_; }

private:
  std::map<Rank, ProcessState> states_;
  std::size_t ranks_queried_ = 0;
};

} // namespace vcmon::deadlock

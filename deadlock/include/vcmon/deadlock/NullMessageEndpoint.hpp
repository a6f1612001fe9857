// One blocked process's side of the Chandy–Misra null-message protocol: what it has heard on
// each input channel, how far its clock may therefore advance, and the bound it announces.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"

#include <cstdint>
#include <map>

namespace vcmon::deadlock {

class NullMessageEndpoint {
public:
  // `channel_bounds`: for each rank it waits on, the time before which nothing comes from
  // it (the stamp of its last message; kNever once it has finished). Missing ranks count 0.
  // `lookahead_ns`: the least virtual time between resuming and the next send.
  NullMessageEndpoint(ProcessState own, std::map<Rank, std::uint64_t> channel_bounds,
                      std::uint64_t lookahead_ns);

  // A null message: `from` sends nothing before `bound`. Bounds on a channel never go back.
  void receive_null(Rank from, std::uint64_t bound);

  std::uint64_t channel_bound(Rank from) const;
  // How far the clock may advance while blocked: OR-wait, the earliest of a present message
  // and the channel bounds; AND-wait, the latest channel bound; never below its clock.
  std::uint64_t safe_until() const;
  // What it tells the processes it could send to: safe_until() plus the lookahead.
  std::uint64_t announcement() const;

private:
  ProcessState own_;
  std::map<Rank, std::uint64_t> channel_bounds_;
  std::uint64_t lookahead_ns_;
};

} // namespace vcmon::deadlock

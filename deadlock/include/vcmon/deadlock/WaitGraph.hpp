// The global waiting dependency (docs/deadlock.md, "The model"): one vertex per process with its
// reported state, an edge p -> q when blocked p waits for q's next send.
#pragma once

#include "vcmon/deadlock/ProcessState.hpp"

#include <boost/graph/adjacency_list.hpp>

#include <functional>
#include <map>
#include <vector>

namespace vcmon::deadlock {

class WaitGraph {
public:
  // Bidirectional so that a process's waiters (in-edges) are at hand for the fixpoint.
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, ProcessState>;
  using Vertex = Graph::vertex_descriptor;

  // Throws std::invalid_argument on a duplicate rank, or when a blocked state waits on a rank
  // that has no state. Only blocked states get out-edges, and none between members of the
  // same collective instance.
  explicit WaitGraph(const std::vector<ProcessState>& states);

  const Graph& graph() const { return graph_; }
  bool contains(Rank rank) const { return vertex_of_.contains(rank); }
  Vertex vertex(Rank rank) const; // throws std::out_of_range
  const ProcessState& state(Rank rank) const { return graph_[vertex(rank)]; }

  // The sorted ranks reachable from `start` (itself included) along waits-for edges between
  // processes for which `keep` holds; empty when `keep(start)` does not hold.
  std::vector<Rank> reachable_through(Rank start, const std::function<bool(Rank)>& keep) const;

  // A cycle of waits-for edges among the processes for which `stuck` holds, reachable from
  // `start` through such processes: the ranks in wait order (each waits for the next, the
  // last for the first), beginning with `start` when it lies on the cycle, else with the
  // lowest rank. Empty when there is none (the chain ends at finished processes).
  std::vector<Rank> find_cycle(Rank start, const std::function<bool(Rank)>& stuck) const;

private:
  Graph graph_;
  std::map<Rank, Vertex> vertex_of_;
};

} // namespace vcmon::deadlock

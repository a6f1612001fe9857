#include "vcmon/deadlock/LowerBoundSolver.hpp"

#include <algorithm>
#include <deque>
#include <vector>

namespace vcmon::deadlock {

namespace {

using Vertex = WaitGraph::Vertex;

// The bound a blocked process's wait gives, from the current bounds of what it waits for. It
// resumes at the later of its clock and what ends the wait, and sends strictly after that, as
// the decider does once pinned: the runtime continues the clock from the wait's completion
// (at least both), and a send shows a time after the one continued from. Without the +1, two
// deciders whose candidates arrived at the same time each saw the other resume, and send, at
// that time, won the tie by rank, and waited for each other forever.
std::uint64_t bound_of_wait(const WaitGraph::Graph& g, Vertex v,
                            const std::vector<std::uint64_t>& bounds) {
  const ProcessState& state = g[v];
  std::uint64_t resume = kNever;
  if (state.activity == Activity::BlockedAny) {
    resume = state.present_arrival_ns.value_or(kNever);
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      resume = std::min(resume, bounds[boost::target(*e, g)]);
    }
  } else {
    resume = 0; // an AND-wait with every part done resumes at its clock
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      resume = std::max(resume, bounds[boost::target(*e, g)]);
    }
  }
  return resume == kNever ? kNever : std::max(state.clock_ns, resume) + 1;
}

} // namespace

LowerBounds LowerBoundSolver::solve(std::optional<PinnedBound> pinned) const {
  const WaitGraph::Graph& g = graph_.graph();
  const std::size_t n = boost::num_vertices(g);
  const Vertex pinned_vertex = pinned ? graph_.vertex(pinned->rank) : n; // n: none pinned

  std::vector<std::uint64_t> bounds(n, kNever);
  std::deque<Vertex> work;
  std::vector<bool> queued(n, false);
  for (Vertex v = 0; v < n; ++v) {
    if (v == pinned_vertex) {
      bounds[v] = pinned->earliest_send_ns;
    } else if (g[v].activity == Activity::Running) {
      bounds[v] = g[v].clock_ns;
    } else if (g[v].blocked()) {
      work.push_back(v);
      queued[v] = true;
    }
  }
  while (!work.empty()) {
    const Vertex v = work.front();
    work.pop_front();
    queued[v] = false;
    const std::uint64_t lowered = bound_of_wait(g, v, bounds);
    if (lowered >= bounds[v]) {
      continue;
    }
    bounds[v] = lowered;
    for (auto [e, end] = boost::in_edges(v, g); e != end; ++e) {
      const Vertex waiter = boost::source(*e, g);
      if (waiter != pinned_vertex && !queued[waiter]) {
        work.push_back(waiter);
        queued[waiter] = true;
      }
    }
  }

  LowerBounds result;
  for (Vertex v = 0; v < n; ++v) {
    result.emplace(g[v].rank, bounds[v]);
  }
  return result;
}

} // namespace vcmon::deadlock

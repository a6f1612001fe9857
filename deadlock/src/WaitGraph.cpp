#include "vcmon/deadlock/WaitGraph.hpp"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/property_map/function_property_map.hpp>

#include <algorithm>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace vcmon::deadlock {

namespace {

using Graph = WaitGraph::Graph;
using Vertex = WaitGraph::Vertex;

// Records the DFS tree and the first back edge, which closes a cycle.
class CycleRecorder : public boost::default_dfs_visitor {
public:
  CycleRecorder(std::vector<Vertex>& parent, std::optional<std::pair<Vertex, Vertex>>& back)
      : parent_(&parent), back_(&back) {}

  template <class Edge, class G> void tree_edge(Edge e, const G& g) {
    (*parent_)[boost::target(e, g)] = boost::source(e, g);
  }
  template <class Edge, class G> void back_edge(Edge e, const G& g) {
    if (!*back_) {
      *back_ = std::pair{boost::source(e, g), boost::target(e, g)};
    }
  }

private:
  std::vector<Vertex>* parent_;
  std::optional<std::pair<Vertex, Vertex>>* back_;
};

} // namespace

WaitGraph::WaitGraph(const std::vector<ProcessState>& states) {
  for (const ProcessState& state : states) {
    if (!vertex_of_.emplace(state.rank, boost::add_vertex(state, graph_)).second) {
      throw std::invalid_argument("WaitGraph: rank " + std::to_string(state.rank) +
                                  " reported twice");
    }
  }
  for (const ProcessState& state : states) {
    if (!state.blocked()) {
      continue;
    }
    std::vector<Rank> waits_on = state.waits_on;
    std::sort(waits_on.begin(), waits_on.end());
    waits_on.erase(std::unique(waits_on.begin(), waits_on.end()), waits_on.end());
    for (Rank target : waits_on) {
      const auto it = vertex_of_.find(target);
      if (it == vertex_of_.end()) {
        throw std::invalid_argument("WaitGraph: rank " + std::to_string(state.rank) +
                                    " waits on rank " + std::to_string(target) +
                                    " which has no state");
      }
      const ProcessState& waited = graph_[it->second];
      if (state.collective && waited.blocked() && waited.collective == state.collective) {
        continue; // both already inside the same collective
      }
      boost::add_edge(vertex_of_.at(state.rank), it->second, graph_);
    }
  }
}

WaitGraph::Vertex WaitGraph::vertex(Rank rank) const {
  const auto it = vertex_of_.find(rank);
  if (it == vertex_of_.end()) {
    throw std::out_of_range("WaitGraph: no state for rank " + std::to_string(rank));
  }
  return it->second;
}

std::vector<Rank> WaitGraph::reachable_through(Rank start,
                                               const std::function<bool(Rank)>& keep) const {
  if (!keep(start)) {
    return {};
  }
  const std::function<bool(Vertex)> keep_vertex = [this, &keep](Vertex v) {
    return keep(graph_[v].rank);
  };
  const boost::filtered_graph<Graph, boost::keep_all, std::function<bool(Vertex)>> sub(
      graph_, boost::keep_all(), keep_vertex);
  std::vector<Rank> reached;
  std::vector<boost::default_color_type> colour(boost::num_vertices(graph_));
  boost::breadth_first_search(
      sub, vertex(start),
      boost::visitor(boost::make_bfs_visitor(boost::write_property(
                         boost::make_function_property_map<Vertex>(
                             [this](Vertex v) { return graph_[v].rank; }),
                         std::back_inserter(reached), boost::on_discover_vertex())))
          .color_map(boost::make_iterator_property_map(colour.begin(),
                                                       boost::get(boost::vertex_index, graph_))));
  std::sort(reached.begin(), reached.end());
  return reached;
}

std::vector<Rank> WaitGraph::find_cycle(Rank start, const std::function<bool(Rank)>& stuck) const {
  if (!stuck(start)) {
    return {};
  }
  const std::function<bool(Vertex)> keep = [this, &stuck](Vertex v) {
    return stuck(graph_[v].rank);
  };
  const boost::filtered_graph<Graph, boost::keep_all, std::function<bool(Vertex)>> sub(
      graph_, boost::keep_all(), keep);

  std::vector<Vertex> parent(boost::num_vertices(graph_));
  std::optional<std::pair<Vertex, Vertex>> back;
  std::vector<boost::default_color_type> colour(boost::num_vertices(graph_), boost::white_color);
  boost::depth_first_visit(
      sub, vertex(start), CycleRecorder(parent, back),
      boost::make_iterator_property_map(colour.begin(), boost::get(boost::vertex_index, graph_)));
  if (!back) {
    return {};
  }
  // The back edge u -> v closes the tree path v -> ... -> u.
  const auto [u, v] = *back;
  std::vector<Rank> cycle;
  for (Vertex x = u; x != v; x = parent[x]) {
    cycle.push_back(graph_[x].rank);
  }
  cycle.push_back(graph_[v].rank);
  std::reverse(cycle.begin(), cycle.end());
  const auto first = std::find(cycle.begin(), cycle.end(), start) != cycle.end()
                         ? std::find(cycle.begin(), cycle.end(), start)
                         : std::min_element(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), first, cycle.end());
  return cycle;
}

} // namespace vcmon::deadlock

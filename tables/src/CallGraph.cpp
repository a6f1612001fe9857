#include "vcmon/tables/CallGraph.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace vcmon::tables {
namespace {

constexpr std::size_t kNoComponent = std::numeric_limits<std::size_t>::max();

using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

} // namespace

CallGraph::CallGraph(const ProgramGraph& graph) : component_(graph.size(), kNoComponent) {
  // Vertices are the procedures only; vertex_of maps a site to its vertex.
  std::vector<SiteId> procedures;
  std::vector<std::size_t> vertex_of(graph.size(), kNoComponent);
  for (const Site& s : graph.sites()) {
    if (s.kind == SiteKind::Procedure) {
      vertex_of[s.id] = procedures.size();
      procedures.push_back(s.id);
    }
  }

  Digraph calls(procedures.size());
  std::vector<bool> calls_itself(procedures.size(), false);
  for (const Site& s : graph.sites()) {
    if (s.kind != SiteKind::Call) {
      continue;
    }
    const SiteId caller = graph.enclosing_procedure(s.id);
    const SiteId callee = graph.callee_of(s.id);
    if (caller == kNoSite || callee == kNoSite) {
      continue;
    }
    boost::add_edge(vertex_of[caller], vertex_of[callee], calls);
    if (caller == callee) {
      calls_itself[vertex_of[caller]] = true;
    }
  }

  std::vector<std::size_t> component_of_vertex(procedures.size());
  const std::size_t components = boost::strong_components(
      calls, boost::make_iterator_property_map(component_of_vertex.begin(),
                                               boost::get(boost::vertex_index, calls)));

  members_.resize(components);
  recursive_component_.assign(components, false);
  for (std::size_t v = 0; v < procedures.size(); ++v) {
    const std::size_t c = component_of_vertex[v];
    component_[procedures[v]] = c;
    members_[c].push_back(procedures[v]); // procedures ascend, so members stay sorted
    if (calls_itself[v]) {
      recursive_component_[c] = true;
    }
  }
  for (std::size_t c = 0; c < components; ++c) {
    if (members_[c].size() > 1) {
      recursive_component_[c] = true;
    }
  }
}

std::size_t CallGraph::component_of(SiteId proc) const {
  if (proc >= component_.size()) {
    throw std::out_of_range("site " + std::to_string(proc) + " does not exist");
  }
  if (component_[proc] == kNoComponent) {
    throw std::invalid_argument("site " + std::to_string(proc) + " is not a procedure");
  }
  return component_[proc];
}

bool CallGraph::is_recursive(SiteId proc) const {
  return recursive_component_[component_of(proc)];
}

std::vector<std::vector<SiteId>> CallGraph::recursive_components() const {
  std::vector<std::vector<SiteId>> result;
  for (std::size_t c = 0; c < members_.size(); ++c) {
    if (recursive_component_[c]) {
      result.push_back(members_[c]);
    }
  }
  std::ranges::sort(result);
  return result;
}

} // namespace vcmon::tables

// The call graph between procedures and its strongly connected components, so that direct
// and mutual recursion are charged once (docs/design.md, "Sites and the program graph").
#pragma once

#include "vcmon/tables/ProgramGraph.hpp"

#include <vector>

namespace vcmon::tables {

class CallGraph {
public:
  explicit CallGraph(const ProgramGraph& graph);

  // Component index of a procedure site; procedures of one mutually recursive group share it.
  std::size_t component_of(SiteId proc) const;
  // True when the procedure calls itself directly or through others.
  bool is_recursive(SiteId proc) const;
  // Procedures of each component with more than one member or a self call, sorted.
  std::vector<std::vector<SiteId>> recursive_components() const;

private:
  std::vector<std::size_t> component_;    // indexed by SiteId; only procedures meaningful
  std::vector<bool> recursive_component_; // indexed by component
  std::vector<std::vector<SiteId>> members_;
};

} // namespace vcmon::tables

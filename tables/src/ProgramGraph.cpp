#include "vcmon/tables/ProgramGraph.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace vcmon::tables {
namespace {

bool can_contain_sites(SiteKind kind) {
  return kind == SiteKind::Procedure || kind == SiteKind::Loop;
}

std::string describe(SiteId id) {
  return "site " + std::to_string(id);
}

void check_probing(SiteId id, SiteKind kind, SiteProbing probing) {
  if (!probing_fits(kind, probing)) {
    throw std::invalid_argument(describe(id) + " is a " + to_string(kind) + " and cannot be " +
                                to_string(probing));
  }
}

} // namespace

SiteId ProgramGraph::add_site(SiteKind kind, SourcePos pos, std::string name, SiteId parent,
                              std::string symbol, SiteProbing probing) {
  if (kind != SiteKind::Procedure && kind != SiteKind::Loop && kind != SiteKind::Call &&
      kind != SiteKind::Comm) {
    throw std::invalid_argument("unknown site kind " + std::to_string(static_cast<unsigned>(kind)));
  }
  if (sites_.size() >= kNoSite) {
    throw std::invalid_argument("too many sites: ids are exhausted");
  }
  const auto id = static_cast<SiteId>(sites_.size());
  if (parent != kNoSite) {
    if (parent >= sites_.size()) {
      throw std::invalid_argument("parent " + describe(parent) + " of " + describe(id) +
                                  " does not exist");
    }
    if (!can_contain_sites(sites_[parent].kind)) {
      throw std::invalid_argument("parent " + describe(parent) + " of " + describe(id) + " is a " +
                                  to_string(sites_[parent].kind) + ", not a procedure or loop");
    }
    if (kind == SiteKind::Procedure) {
      throw std::invalid_argument("procedure " + describe(id) + " must not have a parent site");
    }
  }
  check_probing(id, kind, probing);
  // The first definition of a symbol is the one calls resolve to (an inline function defined
  // in a header appears in every unit that includes it).
  if (kind == SiteKind::Procedure && !symbol.empty()) {
    procedures_by_symbol_.try_emplace(symbol, id);
  }
  sites_.push_back(
      Site{id, kind, std::move(pos), std::move(name), parent, std::move(symbol), probing});
  return id;
}

void ProgramGraph::set_probing(SiteId id, SiteProbing probing) {
  Site& s = sites_.at(id);
  check_probing(id, s.kind, probing);
  s.probing = probing;
}

const Site& ProgramGraph::site(SiteId id) const {
  if (id >= sites_.size()) {
    throw std::out_of_range(describe(id) + " does not exist (the graph has " +
                            std::to_string(sites_.size()) + " sites)");
  }
  return sites_[id];
}

std::optional<SiteId> ProgramGraph::find_procedure(std::string_view symbol) const {
  if (const auto it = procedures_by_symbol_.find(symbol); it != procedures_by_symbol_.end()) {
    return it->second;
  }
  return std::nullopt;
}

std::optional<SiteId> ProgramGraph::find_main() const {
  const auto it = std::ranges::find_if(
      sites_, [](const Site& s) { return s.kind == SiteKind::Procedure && s.name == "main"; });
  return it != sites_.end() ? std::optional<SiteId>(it->id) : std::nullopt;
}

SiteId ProgramGraph::callee_of(SiteId call) const {
  const Site& s = site(call);
  if (s.kind != SiteKind::Call) {
    throw std::invalid_argument(describe(call) + " is a " + to_string(s.kind) +
                                ", not a call statement");
  }
  if (s.symbol.empty()) {
    return kNoSite;
  }
  return find_procedure(s.symbol).value_or(kNoSite);
}

std::vector<SiteId> ProgramGraph::children(SiteId id) const {
  site(id);
  std::vector<SiteId> result;
  for (const Site& s : sites_) {
    if (s.parent == id) {
      result.push_back(s.id);
    }
  }
  return result;
}

SiteId ProgramGraph::enclosing_procedure(SiteId id) const {
  // Parents always precede their children, so this walk ends.
  for (SiteId current = id; current != kNoSite; current = sites_[current].parent) {
    if (site(current).kind == SiteKind::Procedure) {
      return current;
    }
  }
  return kNoSite;
}

StaticTables ProgramGraph::tables() const {
  StaticTables t;
  for (const Site& s : sites_) {
    if (s.parent == kNoSite) {
      continue;
    }
    const bool in_procedure = sites_[s.parent].kind == SiteKind::Procedure;
    switch (s.kind) {
    case SiteKind::Loop:
      if (in_procedure) {
        t.pl.push_back({s.parent, s.id});
      } else {
        t.ll.push_back({s.parent, s.id});
      }
      break;
    case SiteKind::Comm:
      if (in_procedure) {
        t.pcom.push_back({s.parent, s.id});
      } else {
        t.lcom.push_back({s.parent, s.id});
      }
      break;
    case SiteKind::Call:
      if (in_procedure) {
        t.pc.push_back({s.parent, s.id, callee_of(s.id)});
      } else {
        t.lc.push_back({s.parent, s.id, callee_of(s.id)});
      }
      break;
    case SiteKind::Procedure:
      break; // add_site rejects procedures with a parent
    }
  }
  std::ranges::sort(t.pl);
  std::ranges::sort(t.pcom);
  std::ranges::sort(t.pc);
  std::ranges::sort(t.ll);
  std::ranges::sort(t.lcom);
  std::ranges::sort(t.lc);
  return t;
}

ProgramGraph ProgramGraph::merge(std::span<const ProgramGraph> units) {
  ProgramGraph merged;
  std::size_t total = 0;
  for (const ProgramGraph& unit : units) {
    total += unit.size();
  }
  merged.sites_.reserve(total);
  for (const ProgramGraph& unit : units) {
    const auto base = static_cast<SiteId>(merged.size());
    for (const Site& s : unit.sites()) {
      merged.add_site(s.kind, s.pos, s.name, s.parent == kNoSite ? kNoSite : s.parent + base,
                      s.symbol, s.probing);
    }
  }
  return merged;
}

} // namespace vcmon::tables

#include "vcmon/report/ReportDiff.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace vcmon::report {
namespace {

std::string position(const tables::SourcePos& pos) {
  return fmt::format("{}:{}", pos.file, pos.line);
}

// The step of a node's path: what identifies it among its siblings in any build of the same
// source. Procedures by name and the call that activated them, loops and statements by
// position, partners by rank.
std::string step_key(const ReportNode& node) {
  switch (node.kind) {
  case NodeKind::Program:
    return "program";
  case NodeKind::Procedure:
    return node.call_pos ? fmt::format("{}@{}", node.name, position(*node.call_pos)) : node.name;
  case NodeKind::Loop:
    return fmt::format("loop@{}", position(node.pos));
  case NodeKind::Comm:
    return fmt::format("{}@{}", node.name, position(node.pos));
  case NodeKind::Partner:
    return node.partner == ReportNode::kOtherPartners ? std::string("other partners") : node.name;
  }
  return node.name;
}

// One run's side of a node: its values as means over the run's reported ranks.
struct Side {
  NodeKind kind = NodeKind::Program;
  std::string name;
  std::vector<std::string> path;
  double inclusive = 0, self = 0, count = 0, percent = 0;
  std::optional<CommBreakdown> comm;
};

double per_rank(double sum, std::int32_t ranks) {
  return ranks > 0 ? sum / static_cast<double>(ranks) : 0;
}

// Every node of the tree keyed by its path; in preorder.
std::vector<Side> sides(const Report& report) {
  std::vector<Side> out;
  const auto& tree = report.tree;
  if (tree.empty()) {
    return out;
  }
  const std::int32_t ranks = report.header.ranks_reported;
  auto walk = [&](auto&& self_fn, std::uint32_t index, std::vector<std::string> path) -> void {
    const ReportNode& node = tree.node(index);
    Side side;
    side.kind = node.kind;
    side.name = node.name;
    side.path = path;
    side.inclusive = node.time.mean;
    side.self = node.self_mean_ns;
    side.count = per_rank(node.count, ranks);
    side.percent = node.percent;
    if (node.comm) {
      side.comm = node.comm->mean_over(static_cast<std::size_t>(std::max(ranks, 0)));
    }
    out.push_back(std::move(side));
    // Siblings with the same key (two calls of one procedure on one line) are told apart by
    // their order, which is source order.
    std::map<std::string, int> seen;
    for (const auto child : node.children) {
      std::string key = step_key(tree.node(child));
      const int n = ++seen[key];
      if (n > 1) {
        key += fmt::format("#{}", n);
      }
      auto child_path = path;
      child_path.push_back(std::move(key));
      self_fn(self_fn, child, std::move(child_path));
    }
  };
  walk(walk, 0, {});
  return out;
}

std::string joined(const std::vector<std::string>& path) {
  std::string text;
  for (const auto& step : path) {
    text += step;
    text += '\x1f';
  }
  return text;
}

double order_key(const DiffNode& node, DiffOrder order) {
  return std::abs(order == DiffOrder::Self ? node.self_ns.delta() : node.inclusive_ns.delta());
}

std::vector<DiffNode> diff_trees(const Report& a, const Report& b, const DiffOptions& options) {
  const auto in_a = sides(a);
  const auto in_b = sides(b);
  std::map<std::string, std::size_t> b_index;
  for (std::size_t i = 0; i < in_b.size(); ++i) {
    b_index.emplace(joined(in_b[i].path), i);
  }
  std::vector<bool> b_matched(in_b.size(), false);
  std::vector<DiffNode> nodes;
  auto make = [](const Side* sa, const Side* sb) {
    const Side& any = sb ? *sb : *sa;
    DiffNode node;
    node.kind = any.kind;
    node.name = any.name;
    node.path = any.path;
    node.depth = static_cast<std::uint32_t>(any.path.size());
    node.presence = sa && sb ? DiffPresence::Both : sa ? DiffPresence::OnlyA : DiffPresence::OnlyB;
    const Side none;
    const Side& x = sa ? *sa : none;
    const Side& y = sb ? *sb : none;
    node.inclusive_ns = {x.inclusive, y.inclusive};
    node.self_ns = {x.self, y.self};
    node.count = {x.count, y.count};
    node.percent_a = x.percent;
    node.percent_b = y.percent;
    if (x.comm || y.comm) {
      const CommBreakdown cx = x.comm.value_or(CommBreakdown{});
      const CommBreakdown cy = y.comm.value_or(CommBreakdown{});
      node.transmission_ns = DiffValue{cx.transmission_ns, cy.transmission_ns};
      node.sync_delay_ns = DiffValue{cx.sync_delay_ns, cy.sync_delay_ns};
    }
    return node;
  };
  for (const auto& side : in_a) {
    const auto it = b_index.find(joined(side.path));
    const Side* match = nullptr;
    if (it != b_index.end()) {
      match = &in_b[it->second];
      b_matched[it->second] = true;
    }
    nodes.push_back(make(&side, match));
  }
  for (std::size_t i = 0; i < in_b.size(); ++i) {
    if (!b_matched[i]) {
      nodes.push_back(make(nullptr, &in_b[i]));
    }
  }
  std::erase_if(nodes, [&](const DiffNode& node) {
    if (node.depth == 0) {
      return false; // the program stays, as in the report
    }
    if (options.depth && node.depth > *options.depth) {
      return true;
    }
    return std::max(node.percent_a, node.percent_b) < options.threshold_percent;
  });
  std::stable_sort(nodes.begin(), nodes.end(), [&](const DiffNode& x, const DiffNode& y) {
    const double kx = order_key(x, options.order), ky = order_key(y, options.order);
    if (kx != ky) {
      return kx > ky;
    }
    if (kx == 0) {
      return false; // unchanged nodes keep the tree's order
    }
    if (x.depth != y.depth) {
      return x.depth > y.depth;
    }
    return x.path < y.path;
  });
  return nodes;
}

struct StatementSide {
  const CommStatement* statement = nullptr;
  std::int32_t ranks = 0;
};

std::vector<DiffStatement> diff_statements(const Report& a, const Report& b,
                                           const DiffOptions& options) {
  // Key: MPI function and position, with the occurrence among equal keys in column order.
  using Key = std::tuple<std::string, std::string, std::uint32_t, int>;
  auto keyed = [](const Report& report) {
    std::vector<const CommStatement*> sorted;
    for (const auto& s : report.statements) {
      sorted.push_back(&s);
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto* x, const auto* y) {
      return std::tie(x->name, x->pos.file, x->pos.line, x->pos.column) <
             std::tie(y->name, y->pos.file, y->pos.line, y->pos.column);
    });
    std::map<Key, StatementSide> out;
    std::map<std::tuple<std::string, std::string, std::uint32_t>, int> seen;
    for (const auto* s : sorted) {
      const int n = ++seen[{s->name, s->pos.file, s->pos.line}];
      out[{s->name, s->pos.file, s->pos.line, n}] = {s, report.header.ranks_reported};
    }
    return out;
  };
  auto in_a = keyed(a);
  auto in_b = keyed(b);
  std::map<Key, std::pair<StatementSide, StatementSide>> all;
  for (const auto& [key, side] : in_a) {
    all[key].first = side;
  }
  for (const auto& [key, side] : in_b) {
    all[key].second = side;
  }
  std::vector<DiffStatement> out;
  for (const auto& [key, pair] : all) {
    const auto& [x, y] = pair;
    const CommStatement* any = y.statement ? y.statement : x.statement;
    const double pct = std::max(x.statement ? x.statement->percent : 0.0,
                                y.statement ? y.statement->percent : 0.0);
    if (pct < options.threshold_percent) {
      continue;
    }
    DiffStatement d;
    d.name = any->name;
    d.pos = any->pos;
    d.presence = x.statement && y.statement ? DiffPresence::Both
                 : x.statement              ? DiffPresence::OnlyA
                                            : DiffPresence::OnlyB;
    auto value = [](const StatementSide& side, auto field) {
      return side.statement ? per_rank(field(*side.statement), side.ranks) : 0.0;
    };
    auto both = [&](auto field) { return DiffValue{value(x, field), value(y, field)}; };
    d.time_ns = both([](const CommStatement& s) { return s.time.total; });
    d.transmission_ns =
        both([](const CommStatement& s) { return static_cast<double>(s.transmission_ns); });
    d.sync_delay_ns =
        both([](const CommStatement& s) { return static_cast<double>(s.sync_delay_ns); });
    d.count = both([](const CommStatement& s) { return static_cast<double>(s.count); });
    out.push_back(std::move(d));
  }
  std::stable_sort(out.begin(), out.end(), [](const DiffStatement& x, const DiffStatement& y) {
    return std::abs(x.time_ns.delta()) > std::abs(y.time_ns.delta());
  });
  return out;
}

} // namespace

std::optional<double> DiffValue::ratio() const {
  if (a == 0) {
    return b == 0 ? std::optional<double>(1.0) : std::nullopt;
  }
  return b / a;
}

const char* to_string(DiffPresence presence) {
  switch (presence) {
  case DiffPresence::Both:
    return "both";
  case DiffPresence::OnlyA:
    return "only in A";
  case DiffPresence::OnlyB:
    return "only in B";
  }
  return "unknown";
}

std::string DiffNode::path_text() const {
  if (path.empty()) {
    return "program";
  }
  std::string text;
  for (const auto& step : path) {
    if (!text.empty()) {
      text += " > ";
    }
    text += step;
  }
  return text;
}

ReportDiff diff_reports(const Report& a, const Report& b, const DiffOptions& options) {
  ReportDiff diff;
  diff.header_a = a.header;
  diff.header_b = b.header;
  diff.options = options;
  diff.nodes = diff_trees(a, b, options);
  diff.statements = diff_statements(a, b, options);
  return diff;
}

} // namespace vcmon::report

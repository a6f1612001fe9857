#include "TreeFilter.hpp"

#include "vcmon/report/ReportError.hpp"

#include <fmt/format.h>
#include <vector>

namespace vcmon::report {
namespace {

bool at_site(const ReportNode& node, const SiteSelector& site) {
  return site.matches(node.pos.file, node.pos.line) ||
         (node.call_pos && site.matches(node.call_pos->file, node.call_pos->line));
}

class Copier {
public:
  Copier(const ReportTree& tree, const ReportOptions& options)
      : tree_(tree), options_(options), leads_to_site_(tree.size(), !options.site) {
    if (options.site) {
      // Preorder: children come after their parent, so a reverse sweep sees children first.
      for (std::size_t i = tree.size(); i-- > 0;) {
        const auto& node = tree.node(static_cast<std::uint32_t>(i));
        bool hit = at_site(node, *options.site);
        for (const auto child : node.children) {
          hit = hit || leads_to_site_[child];
        }
        leads_to_site_[i] = hit;
      }
      if (!leads_to_site_[0]) {
        throw ReportError(
            fmt::format("no measured site at {}:{}", options.site->file, options.site->line));
      }
    }
  }

  ReportTree copy() {
    ReportNode root = tree_.root();
    const auto children = root.children;
    out_.add(std::move(root), 0);
    copy_children(children, 0, 1, false);
    return std::move(out_);
  }

private:
  void copy_children(const std::vector<std::uint32_t>& children, std::uint32_t parent,
                     std::uint32_t depth, bool below_site) {
    if (options_.depth && depth > *options_.depth) {
      return;
    }
    for (const auto child : children) {
      const ReportNode& node = tree_.node(child);
      if (node.percent < options_.threshold_percent) {
        continue;
      }
      if (!below_site && !leads_to_site_[child]) {
        continue;
      }
      const bool inside = below_site || (options_.site && at_site(node, *options_.site));
      const auto copied = out_.add(node, parent);
      copy_children(node.children, copied, depth + 1, inside);
    }
  }

  const ReportTree& tree_;
  const ReportOptions& options_;
  std::vector<bool> leads_to_site_; // the node or one of its descendants is at --site
  ReportTree out_;
};

} // namespace

ReportTree filter_tree(const ReportTree& tree, const ReportOptions& options) {
  if (tree.empty()) {
    return tree;
  }
  return Copier(tree, options).copy();
}

} // namespace vcmon::report

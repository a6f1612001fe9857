#include "vcmon/report/ProfileMerge.hpp"

#include "vcmon/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace vcmon::report {
namespace {

// The first site that tells the two programs apart, for the message.
std::string first_difference(const tables::ProgramGraph& a, const tables::ProgramGraph& b) {
  const auto& x = a.sites();
  const auto& y = b.sites();
  const std::size_t common = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (!(x[i] == y[i])) {
      return fmt::format("site {} is {} {} at {}:{} in one and {} {} at {}:{} in the other", i,
                         tables::to_string(x[i].kind), x[i].name, x[i].pos.file, x[i].pos.line,
                         tables::to_string(y[i].kind), y[i].name, y[i].pos.file, y[i].pos.line);
    }
  }
  return fmt::format("{} sites against {}", x.size(), y.size());
}

void merge_meta(tables::RunMetadata& into, const tables::RunMetadata& from,
                const std::string& name) {
  if (into.command != from.command) {
    into.command += " | " + from.command;
  }
  for (const auto& host : from.hosts) {
    if (std::find(into.hosts.begin(), into.hosts.end(), host) == into.hosts.end()) {
      into.hosts.push_back(host);
    }
  }
  // 0 is unknown: it neither starts nor ends the span.
  if (from.start_unix_ns != 0 &&
      (into.start_unix_ns == 0 || from.start_unix_ns < into.start_unix_ns)) {
    into.start_unix_ns = from.start_unix_ns;
  }
  into.end_unix_ns = std::max(into.end_unix_ns, from.end_unix_ns);
  if (from.partial) {
    const std::string reason = fmt::format("{}: {}", name, from.partial_reason);
    into.partial_reason = into.partial ? into.partial_reason + "; " + reason : reason;
    into.partial = true;
  }
  // The shallowest stack bounds where folding began in any part.
  if (from.activation_depth != 0 &&
      (into.activation_depth == 0 || from.activation_depth < into.activation_depth)) {
    into.activation_depth = from.activation_depth;
  }
}

} // namespace

void append_profile(MergedProfile& merged, std::string name, tables::Profile&& profile) {
  const std::int32_t offset = merged.profile.meta.ranks;
  if (merged.parts.empty()) {
    merged.profile.meta = profile.meta;
    merged.profile.graph = std::move(profile.graph);
    if (profile.meta.partial) {
      merged.profile.meta.partial_reason = fmt::format("{}: {}", name, profile.meta.partial_reason);
    }
  } else {
    if (!(profile.graph == merged.profile.graph)) {
      throw ReportError(fmt::format(
          "--merge: {} is not of the same program as {} (their static tables differ: {}); "
          "report them one after another, without --merge",
          name, merged.parts.front().name, first_difference(merged.profile.graph, profile.graph)));
    }
    merge_meta(merged.profile.meta, profile.meta, name);
    merged.profile.meta.ranks += profile.meta.ranks;
  }
  for (auto& rank : profile.ranks) {
    rank.rank += offset;
    for (auto& com : rank.coms) {
      if (com.partner != tables::ComRecord::kCollective) {
        com.partner += offset; // a partner is a rank of the same run
      }
    }
    merged.profile.ranks.push_back(std::move(rank));
  }
  merged.parts.push_back({std::move(name), offset, profile.meta.ranks});
}

} // namespace vcmon::report

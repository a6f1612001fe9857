// What a vcmon_snapshot (vcmon/query.h) holds: a profile of one or several ranks, and the C
// views of it the API hands out, built once so that reading a snapshot allocates nothing.
#pragma once

#include "vcmon/query.h"
#include "vcmon/tables/Profile.hpp"

#include <vector>

struct vcmon_snapshot {
  explicit vcmon_snapshot(vcmon::tables::Profile profile);

  struct RankView {
    vcmon_totals totals{};
    std::vector<vcmon_proc_record> procs;
    std::vector<vcmon_loop_record> loops;
    std::vector<vcmon_com_record> coms;
    std::vector<vcmon_context_record> contexts;
    // The contexts under each context, grouped by parent: those under context k are
    // context_children[child_begin[k + 1] .. child_begin[k + 2]), those at the top
    // context_children[child_begin[0] .. child_begin[1]).
    std::vector<std::size_t> context_children;
    std::vector<std::size_t> child_begin;
  };

  // Virtual time at `site` in `rank`'s records (see vcmon_snapshot_site_time).
  std::uint64_t site_time(const RankView& rank, unsigned site) const;
  // Virtual time in `rank`'s context `context` (see vcmon_snapshot_context_time).
  std::uint64_t context_time(const RankView& rank, std::size_t context) const;

  vcmon::tables::Profile profile;
  std::vector<RankView> ranks;                 // parallel to profile.ranks
  std::vector<std::vector<unsigned>> children; // by site
  vcmon_totals job_totals{};
};

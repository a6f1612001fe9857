#include "vcmon/tables/JobSummary.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace vcmon::tables {
namespace {

using std::to_string;

std::uint64_t activation_key(SiteId proc, SiteId call_site) {
  return (std::uint64_t{proc} << 32) | call_site;
}

// What a rank's records say of one site (or one partner of it), summed first: the report's
// minimum and maximum are over each rank's sum, however many records the rank holds for it.
struct RankSums {
  std::uint64_t key = 0;
  double time = 0;
  double count = 0;
  double third = 0;  // untimed, iterations, or a statement's sync delay
  double fourth = 0; // a statement's bytes
};

// Sorts `sums` by key and adds up the entries of one key into the first of them.
void combine(std::vector<RankSums>& sums) {
  std::stable_sort(sums.begin(), sums.end(),
                   [](const RankSums& a, const RankSums& b) { return a.key < b.key; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < sums.size(); ++i) {
    if (kept > 0 && sums[kept - 1].key == sums[i].key) {
      RankSums& into = sums[kept - 1];
      into.time += sums[i].time;
      into.count += sums[i].count;
      into.third += sums[i].third;
      into.fourth += sums[i].fourth;
    } else {
      sums[kept++] = sums[i];
    }
  }
  sums.resize(kept);
}

std::string not_a(std::int32_t rank, const char* record, SiteId site, SiteKind expected) {
  return "rank " + to_string(rank) + ": " + record + " record names site " + to_string(site) +
         ", which is not a " + to_string(expected) + " of the program";
}

double record_time(const ComRecord& record) {
  return static_cast<double>(record.transmission_ns + record.sync_delay_ns);
}

void add_sums(JobSummary::Partner& into, const ComRecord& com) {
  into.transmission += static_cast<double>(com.transmission_ns);
  into.sync_delay += static_cast<double>(com.sync_delay_ns);
  into.bytes += static_cast<double>(com.bytes);
  into.count += static_cast<double>(com.count);
}

// The order the report lists a statement's partners in: costliest first, ties in partner order.
bool costlier(const JobSummary::Partner& a, const JobSummary::Partner& b) {
  return a.time.total != b.time.total ? a.time.total > b.time.total : a.partner < b.partner;
}

} // namespace

bool completes_requests(std::string_view mpi_function) {
  return mpi_function.starts_with("MPI_Wait") || mpi_function.starts_with("MPI_Test");
}

std::vector<std::size_t> JobSummary::partners_by_time(const Statement& statement) {
  std::vector<std::size_t> order(statement.partners.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Ties broken by partner, not by place: while reduced, partners are in the order they came.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return costlier(statement.partners[a], statement.partners[b]);
  });
  return order;
}

std::vector<std::int32_t> JobSummary::listed_partners(const Statement& statement) {
  const std::vector<std::size_t> order = partners_by_time(statement);
  std::vector<std::int32_t> listed;
  for (std::size_t i = 0; i < std::min(order.size(), kListedPartners); ++i) {
    listed.push_back(statement.partners[order[i]].partner);
  }
  std::sort(listed.begin(), listed.end());
  return listed;
}

SummaryReduction::SummaryReduction(const ProgramGraph& graph, std::int32_t world_ranks,
                                   PartnerSums partner_sums)
    : graph_(&graph), world_ranks_(world_ranks), partner_sums_(partner_sums),
      main_(graph.find_main()), completes_requests_(graph.size(), false), loops_(graph.size()),
      statements_(graph.size()) {
  for (const Site& site : graph.sites()) {
    completes_requests_[site.id] = site.kind == SiteKind::Comm && completes_requests(site.name);
  }
}

void SummaryReduction::begin_contexts(std::int32_t rank) {
  contexts_.begin_rank(rank, graph_->size());
}

std::optional<std::string> SummaryReduction::add_rank(const RankRecords& records) {
  begin_contexts(records.rank);
  add_contexts(records.contexts);
  if (auto problem = end_contexts()) {
    return problem;
  }
  return add_records(records);
}

std::optional<std::string> SummaryReduction::add_records(const RankRecords& records) {
  const std::int32_t rank = records.rank;
  auto is = [&](SiteId site, SiteKind kind) {
    return site < graph_->size() && graph_->site(site).kind == kind;
  };
  // Checked first, in the order of the records, as the report always checked them.
  for (const ProcRecord& proc : records.procs) {
    if (!is(proc.proc, SiteKind::Procedure)) {
      return not_a(rank, "proc", proc.proc, SiteKind::Procedure);
    }
    if (proc.call_site != kNoSite && !is(proc.call_site, SiteKind::Call)) {
      return not_a(rank, "proc record's call", proc.call_site, SiteKind::Call);
    }
  }
  for (const LoopRecord& loop : records.loops) {
    if (!is(loop.loop, SiteKind::Loop)) {
      return not_a(rank, "loop", loop.loop, SiteKind::Loop);
    }
  }
  for (const ComRecord& com : records.coms) {
    if (!is(com.comm, SiteKind::Comm)) {
      return not_a(rank, "com", com.comm, SiteKind::Comm);
    }
    if (com.partner != ComRecord::kCollective && (com.partner < 0 || com.partner >= world_ranks_)) {
      return "rank " + to_string(rank) + ": com record of site " + to_string(com.comm) +
             " names partner " + to_string(com.partner) + ", outside the run's " +
             to_string(world_ranks_) + " ranks";
    }
  }

  job_.virtual_ns = std::max(job_.virtual_ns, records.virtual_ns);
  job_.real_ns = std::max(job_.real_ns, records.real_ns);
  job_.intrusion_ns += records.intrusion_ns;
  job_.real_total_ns += records.real_ns;
  add_sums(job_.counters, records.counters);

  std::vector<RankSums> sums;
  double main_time = 0;
  for (const ProcRecord& proc : records.procs) {
    sums.push_back({activation_key(proc.proc, proc.call_site), static_cast<double>(proc.time_ns),
                    static_cast<double>(proc.count), static_cast<double>(proc.untimed), 0});
    if (main_ && proc.proc == *main_ && proc.call_site == kNoSite) {
      main_time += static_cast<double>(proc.time_ns);
    }
  }
  combine(sums);
  for (const RankSums& s : sums) {
    auto [found, added] = activations_.try_emplace(s.key);
    JobSummary::Activation& a = found->second;
    if (added) {
      a.proc = static_cast<SiteId>(s.key >> 32);
      a.call_site = static_cast<SiteId>(s.key);
    }
    a.time.add(rank, s.time);
    a.count += s.count;
    a.untimed += s.third;
  }

  sums.clear();
  for (const LoopRecord& loop : records.loops) {
    sums.push_back({loop.loop, static_cast<double>(loop.time_ns), static_cast<double>(loop.count),
                    static_cast<double>(loop.iterations), 0});
  }
  combine(sums);
  for (const RankSums& s : sums) {
    auto& slot = loops_[s.key];
    if (!slot) {
      slot = JobSummary::Loop{static_cast<SiteId>(s.key), {}, 0, 0};
    }
    slot->time.add(rank, s.time);
    slot->count += s.count;
    slot->iterations += s.third;
  }

  // Per statement: its sums over every partner; per (statement, partner): the partner's time
  // (reduced by owner, of the collective partner only: the others' go to their ranks).
  sums.clear();
  std::vector<RankSums> per_partner;
  double mpi = 0;
  std::vector<JobSummary::Cell> row;
  for (const ComRecord& com : records.coms) {
    mpi += record_time(com);
    sums.push_back({com.comm, static_cast<double>(com.transmission_ns),
                    static_cast<double>(com.count), static_cast<double>(com.sync_delay_ns),
                    static_cast<double>(com.bytes)});
    StatementSums& s = statement_sums(com.comm);
    JobSummary::Statement& statement = s.statement;
    statement.transmission_ns += com.transmission_ns;
    statement.sync_delay_ns += com.sync_delay_ns;
    statement.bytes += com.bytes;
    statement.count += com.count;
    statement.sizes.absorb(com.sizes);
    if (partner_sums_ == PartnerSums::Every || com.partner == ComRecord::kCollective) {
      // Partners from -1 (collective) up, as the key's low half orders them.
      per_partner.push_back(
          {(std::uint64_t{com.comm} << 32) | (static_cast<std::uint32_t>(com.partner) + 1u),
           record_time(com), 0, 0, 0});
      add_sums(partner_sums(s, com.partner), com);
    }
    if (com.partner != ComRecord::kCollective) {
      row.push_back({rank, com.partner, completes_requests_[com.comm] ? 0 : com.count, com.bytes,
                     com.transmission_ns, com.sync_delay_ns});
    }
  }
  combine(sums);
  for (const RankSums& s : sums) {
    // The report's per-rank value: the rank's transmission plus its sync delay.
    statements_[s.key].statement.time.add(rank, s.time + s.third);
  }
  combine(per_partner);
  for (const RankSums& s : per_partner) {
    StatementSums& statement = statements_[s.key >> 32];
    const auto partner = static_cast<std::int32_t>(static_cast<std::uint32_t>(s.key) - 1u);
    partner_sums(statement, partner).time.add(rank, s.time);
  }
  std::stable_sort(row.begin(), row.end(),
                   [](const auto& a, const auto& b) { return a.partner < b.partner; });
  for (const JobSummary::Cell& cell : row) {
    if (job_.cells.empty() || job_.cells.back().rank != cell.rank ||
        job_.cells.back().partner != cell.partner) {
      job_.cells.push_back(cell);
      continue;
    }
    add_sums(job_.cells.back(), cell);
  }

  const double application = main_time > 0 ? main_time : static_cast<double>(records.virtual_ns);
  job_.ranks.push_back({rank, application, mpi});
  return std::nullopt;
}

SummaryReduction::StatementSums& SummaryReduction::statement_sums(SiteId comm) {
  StatementSums& s = statements_.at(comm);
  if (!s.present) {
    s.present = true;
    s.statement.comm = comm;
  }
  return s;
}

JobSummary::Partner& SummaryReduction::partner_sums(StatementSums& s, std::int32_t partner) {
  std::vector<JobSummary::Partner>& partners = s.statement.partners;
  if (s.partner_at.empty()) {
    const auto found = std::find_if(partners.begin(), partners.end(),
                                    [&](const auto& p) { return p.partner == partner; });
    if (found != partners.end()) {
      return *found;
    }
  } else if (const auto at = s.partner_at.find(partner); at != s.partner_at.end()) {
    return partners[at->second];
  }
  partners.push_back({partner, {}, 0, 0, 0, 0});
  if (!s.partner_at.empty()) {
    s.partner_at.emplace(partner, partners.size() - 1);
  } else if (partners.size() > kHashedPartners) {
    for (std::size_t i = 0; i < partners.size(); ++i) {
      s.partner_at.emplace(partners[i].partner, i);
    }
  }
  return partners.back();
}

std::uint32_t SummaryReduction::partner_count(const StatementSums& s) {
  return static_cast<std::uint32_t>(s.statement.partners.size()) + s.dropped_count;
}

std::vector<PartnerShare> SummaryReduction::partner_shares(const RankRecords& records) {
  // Summed by (partner, statement) as a statement's own sums are, keyed partner first.
  std::vector<RankSums> sums;
  for (const ComRecord& com : records.coms) {
    if (com.partner != ComRecord::kCollective) {
      sums.push_back({(std::uint64_t{static_cast<std::uint32_t>(com.partner)} << 32) | com.comm,
                      static_cast<double>(com.transmission_ns), static_cast<double>(com.count),
                      static_cast<double>(com.sync_delay_ns), static_cast<double>(com.bytes)});
    }
  }
  combine(sums);
  std::vector<PartnerShare> shares;
  for (const RankSums& s : sums) {
    shares.push_back({static_cast<SiteId>(s.key), static_cast<std::int32_t>(s.key >> 32),
                      records.rank, s.time, s.third, s.fourth, s.count});
  }
  return shares;
}

std::optional<std::string>
SummaryReduction::add_partner_shares(std::int32_t owner, std::span<const PartnerShare> shares) {
  for (const PartnerShare& share : shares) {
    if (share.comm >= graph_->size() || graph_->site(share.comm).kind != SiteKind::Comm) {
      return not_a(share.rank, "com", share.comm, SiteKind::Comm);
    }
    if (share.partner != owner || share.rank < 0 || share.rank >= world_ranks_) {
      return "rank " + to_string(owner) + " was sent the sums of rank " + to_string(share.rank) +
             " with partner " + to_string(share.partner);
    }
  }
  // Each partner's time is a spread over the ranks holding it: added in rank order.
  std::vector<PartnerShare> ordered(shares.begin(), shares.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return std::pair(a.comm, a.rank) < std::pair(b.comm, b.rank);
  });
  for (const PartnerShare& share : ordered) {
    JobSummary::Partner& partner = partner_sums(statement_sums(share.comm), owner);
    partner.time.add(share.rank, share.transmission + share.sync_delay);
    partner.transmission += share.transmission;
    partner.sync_delay += share.sync_delay;
    partner.bytes += share.bytes;
    partner.count += share.count;
  }
  return std::nullopt;
}

void SummaryReduction::drop_cheap_partners(StatementSums& s) {
  std::vector<JobSummary::Partner>& partners = s.statement.partners;
  const std::size_t individual =
      partners.size() -
      (std::any_of(partners.begin(), partners.end(),
                   [](const auto& p) { return p.partner == ComRecord::kCollective; })
           ? 1
           : 0);
  if (individual <= kListedPartners) {
    return;
  }
  std::stable_partition(partners.begin(), partners.end(), [](const JobSummary::Partner& p) {
    return p.partner == ComRecord::kCollective;
  });
  const auto first = partners.begin() + static_cast<std::ptrdiff_t>(partners.size() - individual);
  std::sort(first, partners.end(), costlier);
  for (auto p = first + kListedPartners; p != partners.end(); ++p) {
    add_sums(s.dropped, *p);
    ++s.dropped_count;
  }
  partners.erase(first + kListedPartners, partners.end());
  // Rank 0 holds every statement's partners: the room the absorbed ones took is given back,
  // and so few are searched, not hashed.
  partners.shrink_to_fit();
  s.partner_at = {};
}

void SummaryReduction::absorb_statement(const JobSummary::Statement& later) {
  StatementSums& s = statement_sums(later.comm);
  JobSummary::Statement& statement = s.statement;
  statement.time.absorb(later.time);
  add_sums(statement, later);
  statement.sizes.absorb(later.sizes);
  for (const JobSummary::Partner& p : later.partners) {
    JobSummary::Partner& partner = partner_sums(s, p.partner);
    partner.time.absorb(p.time);
    add_sums(partner, p);
  }
  // The decoder checked that a statement lists no more partners than it counts.
  s.dropped_count += later.partner_count - static_cast<std::uint32_t>(later.partners.size());
  if (later.other_partners) {
    add_sums(s.dropped, *later.other_partners);
    if (const auto other = others_.find(later.comm); other != others_.end()) {
      other->second.others.absorb(later.other_partners->time);
    }
  }
  if (partner_sums_ == PartnerSums::ByOwner) {
    drop_cheap_partners(s);
  }
}

void SummaryReduction::absorb(const JobSummary& later) {
  job_.virtual_ns = std::max(job_.virtual_ns, later.virtual_ns);
  job_.real_ns = std::max(job_.real_ns, later.real_ns);
  job_.intrusion_ns += later.intrusion_ns;
  job_.real_total_ns += later.real_total_ns;
  add_sums(job_.counters, later.counters);
  job_.ranks.insert(job_.ranks.end(), later.ranks.begin(), later.ranks.end());
  job_.cells.insert(job_.cells.end(), later.cells.begin(), later.cells.end());
  contexts_.absorb(later.contexts);
  for (const JobSummary::Activation& l : later.activations) {
    auto [found, added] = activations_.try_emplace(activation_key(l.proc, l.call_site));
    JobSummary::Activation& a = found->second;
    if (added) {
      a.proc = l.proc;
      a.call_site = l.call_site;
    }
    a.time.absorb(l.time);
    add_sums(a, l);
  }
  for (const JobSummary::Loop& l : later.loops) {
    auto& slot = loops_.at(l.loop);
    if (!slot) {
      slot = JobSummary::Loop{l.loop, {}, 0, 0};
    }
    slot->time.absorb(l.time);
    add_sums(*slot, l);
  }
  for (const JobSummary::Statement& l : later.statements) {
    absorb_statement(l);
  }
}

void SummaryReduction::absorb_encoded(std::span<const std::byte> later) {
  absorb(decode_job_summary(later, 0, *graph_, world_ranks_, SummaryCompleteness::Partial,
                            [this](const JobSummary::Statement& s) { absorb_statement(s); }));
}

void SummaryReduction::absorb(SummaryReduction&& later) {
  // The contexts keep where the later ranks' contexts went, so the next rank added finds its
  // own without hashing; everything else is absorbed as a summary.
  contexts_.absorb(later.contexts_);
  later.contexts_ = {};
  JobSummary rest = later.summary();
  rest.contexts.clear();
  absorb(rest);
}

std::vector<SummaryReduction::OtherPartners> SummaryReduction::other_partners_needed() const {
  std::vector<OtherPartners> needed;
  for (const StatementSums& s : statements_) {
    if (s.present && partner_count(s) > kListedPartners) {
      needed.push_back({s.statement.comm, JobSummary::listed_partners(s.statement)});
    }
  }
  return needed;
}

void SummaryReduction::begin_other_partners(std::span<const OtherPartners> needed) {
  others_.clear();
  for (const OtherPartners& n : needed) {
    others_[n.comm] = {n.listed, {}};
  }
}

void SummaryReduction::add_other_partners(const RankRecords& records) {
  if (others_.empty()) {
    return;
  }
  std::vector<RankSums> sums;
  for (const ComRecord& com : records.coms) {
    const auto found = others_.find(com.comm);
    if (found != others_.end() && !std::binary_search(found->second.listed.begin(),
                                                      found->second.listed.end(), com.partner)) {
      sums.push_back({com.comm, record_time(com), 0, 0, 0});
    }
  }
  combine(sums);
  for (const RankSums& s : sums) {
    others_.at(static_cast<SiteId>(s.key)).others.add(records.rank, s.time);
  }
}

JobSummary SummaryReduction::summary() const& {
  return SummaryReduction(*this).summary();
}

JobSummary SummaryReduction::summary() && {
  JobSummary summary = std::move(job_); // the header sums, ranks and cells; the rest held apart
  summary.contexts.assign(contexts_.nodes().begin(), contexts_.nodes().end());
  for (ContextMerge::Node& node : summary.contexts) {
    node.last_rank = -1;
  }
  for (const auto& [key, activation] : activations_) {
    summary.activations.push_back(activation);
  }
  std::sort(summary.activations.begin(), summary.activations.end(),
            [](const auto& a, const auto& b) {
              return activation_key(a.proc, a.call_site) < activation_key(b.proc, b.call_site);
            });
  for (const auto& loop : loops_) {
    if (loop) {
      summary.loops.push_back(*loop);
    }
  }
  // Destroyed on return, each statement's sums once moved into the summary.
  std::vector<StatementSums> statements = std::move(statements_);
  for (SiteId site = 0; site < statements.size(); ++site) {
    const auto other = others_.find(site);
    if (!statements[site].present && other == others_.end()) {
      continue;
    }
    StatementSums& s = statements[site];
    const std::uint32_t partners = partner_count(s);
    JobSummary::Statement& statement = summary.statements.emplace_back(std::move(s.statement));
    s.partner_at = {};
    statement.comm = site;
    statement.partner_count = partners;
    std::sort(statement.partners.begin(), statement.partners.end(),
              [](const auto& a, const auto& b) { return a.partner < b.partner; });
    if (other != others_.end() || s.dropped_count > 0) {
      statement.other_partners = s.dropped;
      statement.other_partners->time = other != others_.end() ? other->second.others : Spread{};
    }
  }
  return summary;
}

JobSummary SummaryReduction::whole_job() const& {
  return SummaryReduction(*this).whole_job();
}

JobSummary SummaryReduction::whole_job() && {
  JobSummary summary = std::move(*this).summary(); // leaves others_
  for (JobSummary::Statement& statement : summary.statements) {
    if (statement.partner_count <= kListedPartners) {
      continue;
    }
    if (!others_.contains(statement.comm)) {
      throw std::logic_error("the job summary's statement of site " + to_string(statement.comm) +
                             " lacks its second pass");
    }
    const std::vector<std::int32_t> listed = JobSummary::listed_partners(statement);
    JobSummary::Partner& rest = *statement.other_partners;
    std::erase_if(statement.partners, [&](const JobSummary::Partner& p) {
      if (std::binary_search(listed.begin(), listed.end(), p.partner)) {
        return false;
      }
      add_sums(rest, p);
      return true;
    });
    statement.partners.shrink_to_fit();
  }
  return summary;
}

std::vector<JobSummary> job_summary_pieces(JobSummary&& summary, std::size_t partners_a_piece) {
  std::vector<JobSummary::Statement> statements = std::move(summary.statements);
  summary.statements.clear();
  std::vector<JobSummary> pieces{std::move(summary)};
  std::size_t partners = 0;
  for (JobSummary::Statement& statement : statements) {
    if (partners >= partners_a_piece) {
      pieces.emplace_back();
      partners = 0;
    }
    partners += statement.partners.size() + 1;
    pieces.back().statements.push_back(std::move(statement));
  }
  return pieces;
}

} // namespace vcmon::tables

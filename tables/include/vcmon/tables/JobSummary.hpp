// The whole job's view of a profile, reduced over its ranks: everything vcmon-report shows of all
// ranks together (docs/report.md), without any rank's records. The runtime reduces it at
// MPI_Finalize over a binomial tree of ranks and rank 0 stores it as the profile's summary
// section (docs/profile-format.md, "Summary"); vcmon-report reduces it the same way from the
// ranks' sections of a profile without one. Its size grows with sites × partners and, for the
// time per rank and the matrix, with the ranks, never with ranks × sites.
//
// A reduction adds ranks in ascending order and absorbs reductions of later ranks: the result is
// the same whatever the grouping (docs/report.md, "The tree": the sums are of integers held
// exactly as doubles while they stay below 2^53, minima and maxima keep the earliest rank).
#pragma once

#include "vcmon/tables/ContextMerge.hpp"
#include "vcmon/tables/ProgramGraph.hpp"
#include "vcmon/tables/Records.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vcmon::tables {

using Spread = ContextMerge::Spread;

// Partners the report lists one by one under a statement, costliest first; the rest are one
// "other partners" node (docs/report.md, "What each section means").
inline constexpr std::size_t kListedPartners = 16;

// A completion call's records (MPI_Wait*, MPI_Test*) hold time per partner but no messages:
// the calls that posted the requests hold those (docs/runtime.md, "Accounting").
bool completes_requests(std::string_view mpi_function);

struct JobSummary {
  // What the time per rank shows of one rank.
  struct Rank {
    std::int32_t rank = 0;
    // The proc record of main (entered from outside the program), or the rank's virtual time
    // when main has none.
    double application_ns = 0;
    double mpi_ns = 0; // every com record of the rank: transmission + sync delay
    bool operator==(const Rank&) const = default;
  };
  // A procedure activated at a call site (kNoSite: from outside the program).
  struct Activation {
    SiteId proc = kNoSite;
    SiteId call_site = kNoSite;
    Spread time;
    double count = 0;
    double untimed = 0;
    bool operator==(const Activation&) const = default;
  };
  struct Loop {
    SiteId loop = kNoSite;
    Spread time;
    double count = 0;
    double iterations = 0;
    bool operator==(const Loop&) const = default;
  };
  // One partner of a statement over the ranks whose records hold it.
  struct Partner {
    std::int32_t partner = ComRecord::kCollective;
    Spread time; // transmission + sync delay; holders: the ranks holding this partner
    double transmission = 0;
    double sync_delay = 0;
    double bytes = 0;
    double count = 0;
    bool operator==(const Partner&) const = default;
  };
  struct Statement {
    SiteId comm = kNoSite;
    Spread time; // per rank, over all partners: transmission + sync delay
    std::uint64_t transmission_ns = 0;
    std::uint64_t sync_delay_ns = 0;
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    // Of the count, the operations that moved data (ComRecord::sizes).
    MessageSizes sizes{};
    std::uint32_t partner_count = 0; // distinct partners (the collective one counts as one)
    // In partner order. In a whole job's summary only those the report lists, the
    // kListedPartners costliest (partners_by_time), so that a statement talking to every rank
    // costs the summary no more than one talking to a few. While reduced: every partner, or,
    // reduced by owner (PartnerSums::ByOwner), the costliest kListedPartners of the partners
    // whose ranks are in the reduction, and the collective one.
    std::vector<Partner> partners;
    // With more than kListedPartners partners, in a whole job's summary: the other partners
    // together (their sums, and their time per rank, which no sum of the partners' spreads
    // gives: the reduction's second pass, add_other_partners). While reduced: the sums of the
    // partners no longer kept, and the time per rank once in the second pass.
    std::optional<Partner> other_partners;
    bool operator==(const Statement&) const = default;
  };
  // Point-to-point traffic between a rank and a partner, over every statement.
  struct Cell {
    std::int32_t rank = 0;
    std::int32_t partner = 0;
    std::uint64_t messages = 0; // completion calls' records move none
    std::uint64_t bytes = 0;
    std::uint64_t transmission_ns = 0;
    std::uint64_t sync_delay_ns = 0;
    std::uint64_t time_ns() const { return transmission_ns + sync_delay_ns; }
    bool operator==(const Cell&) const = default;
  };

  std::uint64_t virtual_ns = 0;             // the longest rank's
  std::uint64_t real_ns = 0;                // the longest rank's
  std::uint64_t intrusion_ns = 0;           // summed over the ranks
  std::uint64_t real_total_ns = 0;          // summed over the ranks
  MonitorCounters counters;                 // summed over the ranks
  std::vector<Rank> ranks;                  // in rank order
  std::vector<ContextMerge::Node> contexts; // merged by path, parents first (last_rank unused)
  std::vector<Activation> activations;      // by (proc, call site)
  std::vector<Loop> loops;                  // by site
  std::vector<Statement> statements;        // by site
  std::vector<Cell> cells;                  // by (rank, partner)

  // The statement's partners in the order the report lists them, as positions in `partners`:
  // costliest first, ties by partner (whatever the order of `partners`).
  static std::vector<std::size_t> partners_by_time(const Statement& statement);
  // The partners listed one by one: the kListedPartners costliest, in partner order (of every
  // partner, while the statement is reduced).
  static std::vector<std::int32_t> listed_partners(const Statement& statement);

  bool operator==(const JobSummary&) const = default;
};

// The sums of a summary's entries (their spreads of time aside), in the summary's encoding order.
template <> struct SumFields<JobSummary::Activation> {
  using Activation = JobSummary::Activation;
  static constexpr auto kFields = std::tuple{&Activation::count, &Activation::untimed};
};
template <> struct SumFields<JobSummary::Loop> {
  using Loop = JobSummary::Loop;
  static constexpr auto kFields = std::tuple{&Loop::count, &Loop::iterations};
};
// A statement's message sizes and partners are not plain sums: the reduction treats them itself.
template <> struct SumFields<JobSummary::Statement> {
  using Statement = JobSummary::Statement;
  static constexpr auto kFields = std::tuple{&Statement::transmission_ns, &Statement::sync_delay_ns,
                                             &Statement::count, &Statement::bytes};
};
template <> struct SumFields<JobSummary::Partner> {
  using Partner = JobSummary::Partner;
  static constexpr auto kFields =
      std::tuple{&Partner::transmission, &Partner::sync_delay, &Partner::bytes, &Partner::count};
};
template <> struct SumFields<JobSummary::Cell> {
  using Cell = JobSummary::Cell;
  static constexpr auto kFields =
      std::tuple{&Cell::messages, &Cell::bytes, &Cell::transmission_ns, &Cell::sync_delay_ns};
};

// Where a statement's sums per partner are made while reduced. `Every`: each reduction keeps
// every partner its ranks talk to, what one process reading every rank can afford (memory
// grows with sites × partners). `ByOwner`: each rank first sends its sums with each partner to
// that partner's rank (partner_shares, add_partner_shares), so that every partner's sums are
// whole in one place, and a reduction keeps only the kListedPartners costliest of its ranks'
// partners: a statement talking to every rank costs each step of the tree no more than one
// talking to a few, whatever the job's size. Both give the same whole job.
enum class PartnerSums { Every, ByOwner };

// One rank's sums with one partner of one statement, which reduced by owner the rank sends to
// the partner's rank. Trivially copyable: the runtime sends it as bytes.
struct PartnerShare {
  SiteId comm = kNoSite;
  std::int32_t partner = 0;
  std::int32_t rank = 0; // the rank whose records hold it
  double transmission = 0;
  double sync_delay = 0;
  double bytes = 0;
  double count = 0;
  bool operator==(const PartnerShare&) const = default;
};

// Builds a JobSummary a rank at a time, in rank order, and absorbs the summaries of later ranks.
class SummaryReduction {
public:
  // `graph` names main, the sites' kinds and the statements' MPI functions; `world_ranks` is
  // the run's size (partners must be below it). Both must outlive the reduction.
  SummaryReduction(const ProgramGraph& graph, std::int32_t world_ranks,
                   PartnerSums partner_sums = PartnerSums::Every);

  // Reduced by owner: a rank's sums with each partner but the collective one, by partner then
  // statement. `records` must be ones add_records accepted.
  static std::vector<PartnerShare> partner_shares(const RankRecords& records);
  // Reduced by owner, after the rank's own records: the shares of every rank that name this
  // rank, `owner`, as partner, in any order. Returns the first that is not for a statement of
  // the graph, not for `owner`, or from a rank outside the run.
  std::optional<std::string> add_partner_shares(std::int32_t owner,
                                                std::span<const PartnerShare> shares);

  // Adds a rank's calling contexts, as ContextMerge does (a piece at a time: begin_contexts,
  // add_contexts, end_contexts returning the first problem), and its other records. Each rank
  // after the ones before it; contexts and records may be added in separate passes.
  void begin_contexts(std::int32_t rank);
  void add_contexts(std::span<const ContextRecord> contexts) { contexts_.add_contexts(contexts); }
  std::optional<std::string> end_contexts() { return contexts_.end_rank(); }
  // Returns the first record that contradicts the graph, or a partner outside the run.
  std::optional<std::string> add_records(const RankRecords& records);
  // Both, for a rank held whole.
  std::optional<std::string> add_rank(const RankRecords& records);

  // Adds `later`, the reduction of ranks that all come after this one's.
  void absorb(const JobSummary& later);
  void absorb(SummaryReduction&& later);
  // The same for a partial summary as encode_job_summary gave it, absorbed as it is read: the
  // reduction never holds a decoded copy. Throws ProfileError as decode_job_summary does,
  // after which the reduction holds part of `later` and must be dropped.
  void absorb_encoded(std::span<const std::byte> later);

  // The statements that need the second pass (JobSummary::Statement::other_partners), with
  // their listed partners; empty when none does.
  struct OtherPartners {
    SiteId comm = kNoSite;
    std::vector<std::int32_t> listed; // sorted
    bool operator==(const OtherPartners&) const = default;
  };
  std::vector<OtherPartners> other_partners_needed() const;
  // The second pass: each rank's time with the partners not listed, in rank order, for
  // `needed` (what other_partners_needed gave once every rank was added). Ranks whose records
  // the first pass rejected are not added.
  void begin_other_partners(std::span<const OtherPartners> needed);
  void add_other_partners(const RankRecords& records);

  // Whether any rank added so far had calling contexts.
  bool has_contexts() const { return !contexts_.nodes().empty(); }
  // The summary so far, every partner of every statement kept: what a rank sends up the tree.
  // From an rvalue the sums are moved into it, leaving the reduction empty: the summary is then
  // held once, not twice.
  JobSummary summary() const&;
  JobSummary summary() &&;
  // The whole job's summary, once every rank went through both passes: each statement with
  // only the partners the report lists, and the others together. Throws std::logic_error when
  // a statement that needs the second pass did not get it.
  JobSummary whole_job() const&;
  JobSummary whole_job() &&;

private:
  struct StatementSums {
    JobSummary::Statement statement;
    // Partner -> in statement.partners: empty while the statement has few partners, which are
    // searched (rank 0 reducing by owner holds at most 2 × kListedPartners + 1 a statement, and
    // a table each would cost more than they do), every partner from kHashedPartners on.
    std::unordered_map<std::int32_t, std::size_t> partner_at;
    // Reduced by owner: the partners no longer kept, their number and sums (not their time).
    std::uint32_t dropped_count = 0;
    JobSummary::Partner dropped;
    bool present = false;
  };
  static constexpr std::size_t kHashedPartners = 2 * kListedPartners + 2;
  StatementSums& statement_sums(SiteId comm);
  // Distinct partners, those kept and those dropped.
  static std::uint32_t partner_count(const StatementSums& s);
  JobSummary::Partner& partner_sums(StatementSums& s, std::int32_t partner);
  void absorb_statement(const JobSummary::Statement& later);
  // Reduced by owner: keeps the kListedPartners costliest partners but the collective one.
  void drop_cheap_partners(StatementSums& s);

  const ProgramGraph* graph_;
  std::int32_t world_ranks_;
  PartnerSums partner_sums_;
  std::optional<SiteId> main_;
  std::vector<bool> completes_requests_; // per site
  JobSummary job_;                       // header sums, ranks and cells
  ContextMerge contexts_;
  std::unordered_map<std::uint64_t, JobSummary::Activation> activations_;
  std::vector<std::optional<JobSummary::Loop>> loops_;
  std::vector<StatementSums> statements_;
  // The second pass: per statement site, the partners listed and the spread of the others.
  struct OtherPass {
    std::vector<std::int32_t> listed;
    Spread others;
  };
  std::unordered_map<SiteId, OtherPass> others_;
};

// The summary section's bytes (docs/profile-format.md, "Summary"), what the runtime's ranks
// also send each other while reducing.
std::vector<std::byte> encode_job_summary(const JobSummary& summary);
// The same bytes handed to `take` in order, in pieces of `piece_size` (the last one shorter):
// written to a file, they are never held whole.
void encode_job_summary(const JobSummary& summary, std::size_t piece_size,
                        const std::function<void(std::span<const std::byte>)>& take);
// `summary` cut into pieces that, absorbed one after the other, add what it adds: the first
// holds all but the statements past its share, each piece about `partners_a_piece` of the
// statements' partners (a statement is never cut). Sent and absorbed a piece at a time, a
// partial costs its receiver one piece's bytes instead of the whole partial's.
std::vector<JobSummary> job_summary_pieces(JobSummary&& summary, std::size_t partners_a_piece);
// A profile's summary is of the whole job, second pass included (every statement with more
// than kListedPartners partners has the other partners' time); the ranks' partial summaries,
// while they are reduced, may not be.
enum class SummaryCompleteness { WholeJob, Partial };
// Throws ProfileError naming the first problem: `bytes` are at `offset` of the file, whose
// graph and run the summary must fit (sites of the right kinds, ranks and partners in the run,
// contexts' parents before them).
// With `each_statement` the statements are handed to it one at a time, each once read, and
// the summary returned has none: a reader absorbing them need not hold them twice.
using SummaryStatementSink = std::function<void(const JobSummary::Statement&)>;
JobSummary decode_job_summary(std::span<const std::byte> bytes, std::uint64_t offset,
                              const ProgramGraph& graph, std::int32_t world_ranks,
                              SummaryCompleteness completeness = SummaryCompleteness::WholeJob,
                              const SummaryStatementSink& each_statement = {});

} // namespace vcmon::tables

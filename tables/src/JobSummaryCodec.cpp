// The summary section's bytes (docs/profile-format.md, "Summary"). Sums, minima and maxima are
// f64 as the reduction holds them, so that the report from a summary shows exactly the numbers
// of the report from every rank; counts, ranks and sites are varints.
#include "ByteReader.hpp"
#include "ByteWriter.hpp"
#include "ProfileSections.hpp"

#include "vcmon/tables/JobSummary.hpp"

namespace vcmon::tables {
namespace {

using detail::ByteReader;
using detail::ByteWriter;
using std::to_string;

// The smallest encodings, which bound the counts a hostile section may announce.
constexpr std::size_t kSpreadBytes = 3 * 8 + 2;
constexpr std::size_t kRankBytes = 1 + 2 * 8;
constexpr std::size_t kContextBytes = 2 + kSpreadBytes + 7 * 8;
constexpr std::size_t kActivationBytes = 2 + kSpreadBytes + 2 * 8;
constexpr std::size_t kLoopBytes = 1 + kSpreadBytes + 2 * 8;
constexpr std::size_t kStatementBytes = 1 + kSpreadBytes + 7 + kSizeClasses + 3;
constexpr std::size_t kPartnerBytes = 1 + kSpreadBytes + 4 * 8;
constexpr std::size_t kCellBytes = 6;

template <class Writer> void write_spread(Writer& out, const Spread& s) {
  out.f64(s.total);
  out.f64(s.min);
  out.f64(s.max);
  out.zigzag(s.max_rank);
  out.varint(s.holders);
}

Spread read_spread(ByteReader& in) {
  Spread s;
  s.total = in.f64("a summary spread");
  s.min = in.f64("a summary spread");
  s.max = in.f64("a summary spread");
  s.max_rank = in.zigzag_i32("a summary spread's rank");
  s.holders = in.varint_u32("a summary spread's ranks");
  return s;
}

// An entry's spread of time, then its sums (SumFields order): a context, an activation, a loop
// or a partner.
template <class Writer, class Entry> void write_entry_sums(Writer& out, const Entry& entry) {
  write_spread(out, entry.time);
  for_each_sum_field<Entry>([&](auto field) { out.f64(entry.*field); });
}

template <class Entry> void read_entry_sums(ByteReader& in, Entry& entry, const char* what) {
  entry.time = read_spread(in);
  for_each_sum_field<Entry>([&](auto field) { entry.*field = in.f64(what); });
}

template <class Writer> void write_counters(Writer& out, const MonitorCounters& c) {
  for_each_sum_field<MonitorCounters>([&](auto field) { out.varint(c.*field); });
}

MonitorCounters read_counters(ByteReader& in) {
  MonitorCounters c;
  for_each_sum_field<MonitorCounters>(
      [&](auto field) { c.*field = in.varint("the summary's counters"); });
  return c;
}

// Fails at `at` with "summary: PROBLEM".
[[noreturn]] void fail(std::size_t at, const std::string& problem) {
  ByteReader::fail_at(at, "summary: " + problem);
}

template <class Writer> void write_summary(Writer& out, const JobSummary& summary) {
  out.u8(static_cast<std::uint8_t>(detail::Section::Summary));
  out.varint(summary.virtual_ns);
  out.varint(summary.real_ns);
  out.varint(summary.intrusion_ns);
  out.varint(summary.real_total_ns);
  write_counters(out, summary.counters);
  out.varint(summary.ranks.size());
  for (const JobSummary::Rank& r : summary.ranks) {
    out.zigzag(r.rank);
    out.f64(r.application_ns);
    out.f64(r.mpi_ns);
  }
  out.varint(summary.contexts.size());
  for (const ContextMerge::Node& n : summary.contexts) {
    out.varint(n.parent);
    out.varint(n.site);
    write_entry_sums(out, n);
  }
  out.varint(summary.activations.size());
  for (const JobSummary::Activation& a : summary.activations) {
    out.varint(a.proc);
    out.varint(a.call_site == kNoSite ? 0 : std::uint64_t{a.call_site} + 1);
    write_entry_sums(out, a);
  }
  out.varint(summary.loops.size());
  for (const JobSummary::Loop& l : summary.loops) {
    out.varint(l.loop);
    write_entry_sums(out, l);
  }
  out.varint(summary.statements.size());
  for (const JobSummary::Statement& s : summary.statements) {
    out.varint(s.comm);
    write_spread(out, s.time);
    for (const std::uint64_t value : {s.transmission_ns, s.sync_delay_ns, s.count, s.bytes,
                                      s.sizes.messages(), s.sizes.min_bytes, s.sizes.max_bytes}) {
      out.varint(value);
    }
    for (const std::uint64_t messages : s.sizes.classes) {
      out.varint(messages);
    }
    out.varint(s.partner_count);
    out.varint(s.partners.size());
    for (const JobSummary::Partner& p : s.partners) {
      out.zigzag(p.partner);
      write_entry_sums(out, p);
    }
    out.u8(s.other_partners ? 1 : 0);
    if (s.other_partners) {
      write_entry_sums(out, *s.other_partners);
    }
  }
  out.varint(summary.cells.size());
  for (const JobSummary::Cell& c : summary.cells) {
    out.zigzag(c.rank);
    out.zigzag(c.partner);
    out.varint(c.messages);
    out.varint(c.bytes);
    out.varint(c.transmission_ns);
    out.varint(c.sync_delay_ns);
  }
}

} // namespace

void encode_job_summary(const JobSummary& summary, std::size_t piece_size,
                        const std::function<void(std::span<const std::byte>)>& take) {
  detail::PieceWriter out(piece_size, take);
  write_summary(out, summary);
  out.sink().flush();
}

std::vector<std::byte> encode_job_summary(const JobSummary& summary) {
  ByteWriter out;
  write_summary(out, summary);
  return std::move(out.bytes());
}

JobSummary decode_job_summary(std::span<const std::byte> bytes, std::uint64_t offset,
                              const ProgramGraph& graph, std::int32_t world_ranks,
                              SummaryCompleteness completeness,
                              const SummaryStatementSink& each_statement) {
  const bool complete = completeness == SummaryCompleteness::WholeJob;
  ByteReader in(bytes, offset);
  const std::size_t start = in.offset();
  if (const std::uint8_t id = in.u8("the summary");
      id != static_cast<std::uint8_t>(detail::Section::Summary)) {
    ByteReader::fail_at(start, "expected the summary (id " +
                                   to_string(static_cast<int>(detail::Section::Summary)) +
                                   "), found id " + to_string(id));
  }
  auto site_of = [&](const char* what, SiteKind kind) {
    const std::size_t at = in.offset();
    const std::uint64_t site = in.varint(what);
    if (site >= graph.size() || graph.site(static_cast<SiteId>(site)).kind != kind) {
      fail(at, std::string(what) + " names site " + to_string(site) + ", which is not a " +
                   to_string(kind) + " of the program");
    }
    return static_cast<SiteId>(site);
  };
  auto rank_of = [&](const char* what, bool collective_allowed) {
    const std::size_t at = in.offset();
    const std::int32_t rank = in.zigzag_i32(what);
    if (!(collective_allowed && rank == ComRecord::kCollective) &&
        (rank < 0 || rank >= world_ranks)) {
      fail(at, std::string(what) + " " + to_string(rank) + " is outside the run's " +
                   to_string(world_ranks) + " ranks");
    }
    return rank;
  };

  JobSummary summary;
  summary.virtual_ns = in.varint("the summary's virtual time");
  summary.real_ns = in.varint("the summary's real time");
  summary.intrusion_ns = in.varint("the summary's intrusion");
  summary.real_total_ns = in.varint("the summary's real time");
  summary.counters = read_counters(in);

  summary.ranks.resize(in.count(kRankBytes, "summary ranks"));
  for (std::size_t i = 0; i < summary.ranks.size(); ++i) {
    const std::size_t at = in.offset();
    JobSummary::Rank& r = summary.ranks[i];
    r.rank = rank_of("rank", false);
    if (i > 0 && r.rank <= summary.ranks[i - 1].rank) {
      fail(at, "rank " + to_string(r.rank) + " follows rank " +
                   to_string(summary.ranks[i - 1].rank) + ": ranks must be sorted and distinct");
    }
    r.application_ns = in.f64("a rank's application time");
    r.mpi_ns = in.f64("a rank's MPI time");
  }

  summary.contexts.resize(in.count(kContextBytes, "summary contexts"));
  for (std::size_t i = 0; i < summary.contexts.size(); ++i) {
    const std::size_t at = in.offset();
    ContextMerge::Node& n = summary.contexts[i];
    n.parent = in.varint_u32("a context's parent");
    if (n.parent > i) {
      fail(at, "context " + to_string(i) + " names parent context " + to_string(n.parent) +
                   ", which does not come before it");
    }
    const std::uint64_t site = in.varint("a context's site");
    if (site >= graph.size()) {
      fail(at, "context " + to_string(i) + " names site " + to_string(site) +
                   ", which the profile does not have");
    }
    n.site = static_cast<SiteId>(site);
    read_entry_sums(in, n, "a context's sums");
  }

  summary.activations.resize(in.count(kActivationBytes, "summary activations"));
  for (std::size_t i = 0; i < summary.activations.size(); ++i) {
    const std::size_t at = in.offset();
    JobSummary::Activation& a = summary.activations[i];
    a.proc = site_of("an activation", SiteKind::Procedure);
    const std::size_t call_at = in.offset();
    const std::uint64_t call = in.varint("an activation's call site");
    if (call != 0 && (call - 1 >= graph.size() ||
                      graph.site(static_cast<SiteId>(call - 1)).kind != SiteKind::Call)) {
      fail(call_at, "an activation's call names site " + to_string(call - 1) +
                        ", which is not a call of the program");
    }
    a.call_site = call == 0 ? kNoSite : static_cast<SiteId>(call - 1);
    if (i > 0) {
      const auto& before = summary.activations[i - 1];
      if (std::pair(before.proc, before.call_site) >= std::pair(a.proc, a.call_site)) {
        fail(at, "activations must be sorted and distinct");
      }
    }
    read_entry_sums(in, a, "an activation's sums");
  }

  summary.loops.resize(in.count(kLoopBytes, "summary loops"));
  for (std::size_t i = 0; i < summary.loops.size(); ++i) {
    const std::size_t at = in.offset();
    JobSummary::Loop& l = summary.loops[i];
    l.loop = site_of("a loop", SiteKind::Loop);
    if (i > 0 && summary.loops[i - 1].loop >= l.loop) {
      fail(at, "loops must be sorted and distinct");
    }
    read_entry_sums(in, l, "a loop's sums");
  }

  const std::size_t statements = in.count(kStatementBytes, "summary statements");
  if (!each_statement) {
    summary.statements.reserve(statements);
  }
  JobSummary::Statement s;
  for (std::size_t i = 0; i < statements; ++i) {
    const std::size_t at = in.offset();
    const SiteId before = s.comm;
    s.comm = site_of("a statement", SiteKind::Comm);
    if (i > 0 && before >= s.comm) {
      fail(at, "statements must be sorted and distinct");
    }
    s.time = read_spread(in);
    std::uint64_t messages = 0;
    for (std::uint64_t* value : {&s.transmission_ns, &s.sync_delay_ns, &s.count, &s.bytes,
                                 &messages, &s.sizes.min_bytes, &s.sizes.max_bytes}) {
      *value = in.varint("a statement's sums");
    }
    for (std::uint64_t& in_class : s.sizes.classes) {
      in_class = in.varint("a statement's size classes");
    }
    // The message count is the size classes' sum, kept in the encoding for readers that do not
    // add them up.
    if (messages != s.sizes.messages()) {
      fail(at, "the messages of site " + to_string(s.comm) + " (" + to_string(messages) +
                   ") are not the sum of its size classes");
    }
    s.partner_count = in.varint_u32("a statement's partner count");
    const std::size_t partners_at = in.offset();
    s.partners.resize(in.count(kPartnerBytes, "summary partners"));
    for (std::size_t p = 0; p < s.partners.size(); ++p) {
      const std::size_t partner_at = in.offset();
      JobSummary::Partner& partner = s.partners[p];
      partner.partner = rank_of("partner", true);
      if (p > 0 && s.partners[p - 1].partner >= partner.partner) {
        fail(partner_at,
             "the partners of site " + to_string(s.comm) + " must be sorted and distinct");
      }
      read_entry_sums(in, partner, "a partner's sums");
    }
    const std::size_t others_at = in.offset();
    const std::uint8_t others = in.u8("a statement's other partners");
    if (others > 1) {
      fail(others_at, "a statement's other partners are flagged " + to_string(others));
    }
    s.other_partners.reset();
    if (others == 1) {
      // Assigned, not emplaced: Clang takes Partner for not default-constructible there.
      s.other_partners = JobSummary::Partner{};
      read_entry_sums(in, *s.other_partners, "a partner's sums");
    }
    // While reduced a statement keeps every partner or some; a whole job's keeps those the
    // report lists and the others together, which it has exactly when it has more partners.
    const bool many = s.partner_count > kListedPartners;
    const std::size_t kept = many ? kListedPartners : s.partner_count;
    if (complete ? s.partners.size() != kept : s.partners.size() > s.partner_count) {
      fail(partners_at, "the statement of site " + to_string(s.comm) + " has " +
                            to_string(s.partner_count) + " partners and lists " +
                            to_string(s.partners.size()));
    }
    if (complete && s.other_partners.has_value() != many) {
      fail(others_at, "the statement of site " + to_string(s.comm) + " has " +
                          to_string(s.partner_count) + " partners and " +
                          (s.other_partners ? "a" : "no") + " time for partners beyond the " +
                          to_string(kListedPartners) + " listed");
    }
    if (each_statement) {
      each_statement(s);
    } else {
      summary.statements.push_back(s);
    }
  }

  summary.cells.resize(in.count(kCellBytes, "summary matrix cells"));
  for (std::size_t i = 0; i < summary.cells.size(); ++i) {
    const std::size_t at = in.offset();
    JobSummary::Cell& c = summary.cells[i];
    c.rank = rank_of("a matrix cell's rank", false);
    c.partner = rank_of("a matrix cell's partner", false);
    if (i > 0 && std::pair(summary.cells[i - 1].rank, summary.cells[i - 1].partner) >=
                     std::pair(c.rank, c.partner)) {
      fail(at, "matrix cells must be sorted and distinct");
    }
    c.messages = in.varint("a matrix cell");
    c.bytes = in.varint("a matrix cell");
    c.transmission_ns = in.varint("a matrix cell");
    c.sync_delay_ns = in.varint("a matrix cell");
  }
  detail::expect_end(in, "the summary");
  return summary;
}

} // namespace vcmon::tables

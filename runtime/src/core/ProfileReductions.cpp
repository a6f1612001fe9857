#include "core/ProfileReductions.hpp"

#include "core/Log.hpp"
#include "core/ProfileTags.hpp"
#include "core/YieldingCompletion.hpp"

#include "vcmon/tables/JobSummary.hpp"

#include <sched.h>

#include <algorithm>
#include <functional>
#include <set>
#include <span>

namespace vcmon::runtime {
namespace {

// Names separated by NUL bytes: host names never contain one.
std::string join(const std::set<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) {
    joined += name;
    joined += '\0';
  }
  return joined;
}

void add_joined(std::set<std::string>& names, const std::string& joined) {
  std::size_t start = 0;
  for (std::size_t end = joined.find('\0'); end != std::string::npos;
       start = end + 1, end = joined.find('\0', start)) {
    names.insert(joined.substr(start, end - start));
  }
}

// A partial summary goes up the tree in pieces of about this many of its statements' partners
// (72 bytes each decoded, 59 encoded).
constexpr std::size_t kPartnersAPiece = 1024;

// Counts are ints in MPI: a message of more bytes goes in pieces of this many.
constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 30;

void send_bytes(MPI_Comm comm, int to, int tag, std::span<const std::byte> bytes) {
  std::uint64_t length = bytes.size();
  yielding(PMPI_Isend, &length, 1, MPI_UINT64_T, to, tag, comm);
  for (std::uint64_t at = 0; at < length; at += kMaxMessageBytes) {
    yielding(PMPI_Isend, bytes.data() + at,
             static_cast<int>(std::min(kMaxMessageBytes, length - at)), MPI_BYTE, to, tag, comm);
  }
}

std::vector<std::byte> receive_bytes(MPI_Comm comm, int from, int tag) {
  std::uint64_t length = 0;
  yielding(PMPI_Irecv, &length, 1, MPI_UINT64_T, from, tag, comm);
  std::vector<std::byte> bytes(length);
  for (std::uint64_t at = 0; at < length; at += kMaxMessageBytes) {
    yielding(PMPI_Irecv, bytes.data() + at,
             static_cast<int>(std::min(kMaxMessageBytes, length - at)), MPI_BYTE, from, tag, comm);
  }
  return bytes;
}

// A binomial tree towards rank 0: in step k a rank whose bit k is set sends what it holds to
// the rank 2^k below (`send_up`) and is done; the others receive from the rank 2^k above, if
// there is one (`receive_from`). A rank receives from its partners in increasing steps, each
// holding the ranks just after those it holds so far: a reduction that adds ranks in order
// stays in order.
void reduce_to_rank0(MPI_Comm comm, const std::function<void(int to)>& send_up,
                     const std::function<void(int from)>& receive_from) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  for (int step = 1; step < size; step <<= 1) {
    if ((rank & step) != 0) {
      send_up(rank - step);
      return;
    }
    if (rank + step < size) {
      receive_from(rank + step);
    }
  }
}

// Sends each share to its partner's rank and returns the shares naming this rank as partner,
// from every rank, without any rank knowing who sends to it: synchronous sends, then a barrier
// each rank enters once its own sends were all received (Hoefler, Siebert and Lumsdaine's
// non-blocking consensus). Memory grows with the partners, not the job.
std::vector<tables::PartnerShare>
exchange_partner_shares(MPI_Comm comm, std::span<const tables::PartnerShare> mine) {
  using tables::PartnerShare;
  std::vector<MPI_Request> sends;
  for (std::size_t begin = 0, end = 0; begin < mine.size(); begin = end) {
    while (end < mine.size() && mine[end].partner == mine[begin].partner) {
      ++end;
    }
    // One share per statement: a partner's fit in an int count of bytes.
    PMPI_Issend(mine.data() + begin, static_cast<int>((end - begin) * sizeof(PartnerShare)),
                MPI_BYTE, mine[begin].partner, kPartnerSharesTag, comm, &sends.emplace_back());
  }
  std::vector<PartnerShare> owned;
  MPI_Request barrier = MPI_REQUEST_NULL;
  for (int done = 0; done == 0;) {
    int arrived = 0;
    MPI_Status status;
    PMPI_Iprobe(MPI_ANY_SOURCE, kPartnerSharesTag, comm, &arrived, &status);
    if (arrived != 0) {
      int bytes = 0;
      PMPI_Get_count(&status, MPI_BYTE, &bytes);
      const std::size_t at = owned.size();
      owned.resize(at + (static_cast<std::size_t>(bytes) + sizeof(PartnerShare) - 1) /
                            sizeof(PartnerShare));
      PMPI_Recv(owned.data() + at, bytes, MPI_BYTE, status.MPI_SOURCE, kPartnerSharesTag, comm,
                MPI_STATUS_IGNORE);
      continue;
    }
    if (barrier == MPI_REQUEST_NULL) {
      int sent = 0;
      PMPI_Testall(static_cast<int>(sends.size()), sends.data(), &sent, MPI_STATUSES_IGNORE);
      if (sent != 0) {
        PMPI_Ibarrier(comm, &barrier);
      }
    } else {
      PMPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    }
    if (done == 0) {
      sched_yield();
    }
  }
  return owned;
}

// The statements whose other partners need the second pass, as 64-bit words: their number,
// then each statement's site, the number of its listed partners and those.
std::vector<std::int64_t>
encode_other_partners(std::span<const tables::SummaryReduction::OtherPartners> needed) {
  std::vector<std::int64_t> words{static_cast<std::int64_t>(needed.size())};
  for (const auto& statement : needed) {
    words.push_back(statement.comm);
    words.push_back(static_cast<std::int64_t>(statement.listed.size()));
    words.insert(words.end(), statement.listed.begin(), statement.listed.end());
  }
  return words;
}

std::vector<tables::SummaryReduction::OtherPartners>
decode_other_partners(std::span<const std::int64_t> words) {
  std::vector<tables::SummaryReduction::OtherPartners> needed(static_cast<std::size_t>(words[0]));
  std::size_t at = 1;
  for (auto& statement : needed) {
    statement.comm = static_cast<tables::SiteId>(words[at++]);
    const auto listed = static_cast<std::size_t>(words[at++]);
    for (std::size_t i = 0; i < listed; ++i) {
      statement.listed.push_back(static_cast<std::int32_t>(words[at++]));
    }
  }
  return needed;
}

// What rank 0 learnt of the statements needing the second pass, on every rank (empty on every
// rank when there is no summary).
std::vector<tables::SummaryReduction::OtherPartners>
share_other_partners(MPI_Comm comm, std::span<const tables::SummaryReduction::OtherPartners> mine) {
  std::vector<std::int64_t> words = encode_other_partners(mine);
  std::uint64_t length = words.size();
  yielding(PMPI_Ibcast, &length, 1, MPI_UINT64_T, 0, comm);
  words.resize(length);
  yielding(PMPI_Ibcast, words.data(), static_cast<int>(length), MPI_INT64_T, 0, comm);
  return decode_other_partners(words);
}

void reduce_longest(void* in, void* inout, int* count, MPI_Datatype* /*type*/) {
  const auto* a = static_cast<const RankTimes*>(in);
  auto* b = static_cast<RankTimes*>(inout);
  for (int i = 0; i < *count; ++i) {
    if (a[i].virtual_ns > b[i].virtual_ns) {
      b[i] = a[i];
    }
  }
}

} // namespace

std::vector<std::string> distinct_hosts_at_rank0(MPI_Comm comm, const std::string& host) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  std::set<std::string> names{host};
  reduce_to_rank0(
      comm,
      [&](int to) {
        const std::string joined = join(names);
        send_bytes(comm, to, kHostsTag, std::as_bytes(std::span(joined)));
      },
      [&](int from) {
        const std::vector<std::byte> joined = receive_bytes(comm, from, kHostsTag);
        add_joined(names, std::string(reinterpret_cast<const char*>(joined.data()), joined.size()));
      });
  if (rank != 0) {
    return {};
  }
  return {names.begin(), names.end()};
}

std::optional<tables::JobSummary> job_summary_at_rank0(MPI_Comm comm,
                                                       const tables::RankRecords& mine,
                                                       const tables::ProgramGraph& graph) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  // Each partner's sums made whole at the partner's rank, so that each step of the tree keeps
  // only a statement's costliest partners: rank 0's memory does not grow with the job.
  tables::SummaryReduction reduction(graph, size, tables::PartnerSums::ByOwner);
  // Whether every rank below in the tree could add its records.
  bool whole = true;
  auto refuse = [&](const std::string& problem) {
    log_line(LogLevel::Error, "rank %d: the profile is written without its summary: %s", rank,
             problem.c_str());
    whole = false;
  };
  if (const auto problem = reduction.add_rank(mine)) {
    refuse(*problem);
  }
  const std::vector<tables::PartnerShare> owned =
      exchange_partner_shares(comm, whole ? tables::SummaryReduction::partner_shares(mine)
                                          : std::vector<tables::PartnerShare>());
  if (const auto problem = whole ? reduction.add_partner_shares(rank, owned) : std::nullopt) {
    refuse(*problem);
  }
  // A rank sends its partial once and is done with it: moved into pieces, each encoded when
  // sent and absorbed when received, so that neither end holds the partial twice. No piece
  // says that a rank below could not add its records.
  auto send_partial = [&](tables::SummaryReduction& partial) {
    return [&whole, &partial, comm](int to) {
      std::vector<tables::JobSummary> pieces;
      if (whole) {
        pieces = tables::job_summary_pieces(std::move(partial).summary(), kPartnersAPiece);
      }
      std::uint64_t count = pieces.size();
      yielding(PMPI_Isend, &count, 1, MPI_UINT64_T, to, kSummaryTag, comm);
      for (tables::JobSummary& piece : pieces) {
        send_bytes(comm, to, kSummaryTag, tables::encode_job_summary(piece));
        piece = {};
      }
    };
  };
  auto receive_partial = [&](tables::SummaryReduction& partial) {
    return [&whole, &partial, comm](int from) {
      std::uint64_t count = 0;
      yielding(PMPI_Irecv, &count, 1, MPI_UINT64_T, from, kSummaryTag, comm);
      whole = whole && count > 0;
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::vector<std::byte> piece = receive_bytes(comm, from, kSummaryTag);
        if (!whole) {
          continue; // still received: the sender waits for each piece to be taken
        }
        try {
          partial.absorb_encoded(piece);
        } catch (const tables::ProfileError& error) {
          // Still in the reduction: leaving it would leave the other ranks waiting. What the
          // reduction absorbed before the problem is dropped with it.
          log_line(LogLevel::Error, "the profile is written without its summary: %s", error.what());
          whole = false;
        }
      }
    };
  };
  reduce_to_rank0(comm, send_partial(reduction), receive_partial(reduction));

  // The other partners' time per rank needs the partners listed, which rank 0 knows now.
  const auto needed = share_other_partners(
      comm, rank == 0 && whole ? reduction.other_partners_needed()
                               : std::vector<tables::SummaryReduction::OtherPartners>());
  if (!needed.empty()) {
    // Rank 0 adds its own to its first pass's reduction; only the others need a new one.
    std::optional<tables::SummaryReduction> others;
    tables::SummaryReduction& partial = rank == 0 ? reduction : others.emplace(graph, size);
    partial.begin_other_partners(needed);
    partial.add_other_partners(mine);
    reduce_to_rank0(comm, send_partial(partial), receive_partial(partial));
  }
  if (rank != 0 || !whole) {
    return std::nullopt;
  }
  return std::move(reduction).whole_job();
}

RankTimes longest_rank_at_rank0(MPI_Comm comm, const RankTimes& mine) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  PMPI_Type_contiguous(3, MPI_UINT64_T, &type);
  PMPI_Type_commit(&type);
  MPI_Op op = MPI_OP_NULL;
  PMPI_Op_create(&reduce_longest, 1, &op);
  RankTimes longest;
  yielding(PMPI_Ireduce, &mine, &longest, 1, type, op, 0, comm);
  PMPI_Op_free(&op);
  PMPI_Type_free(&type);
  return longest;
}

} // namespace vcmon::runtime

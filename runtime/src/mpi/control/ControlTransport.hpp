// How the control channel's messages travel between world ranks (ControlExchange): the runtime's
// over MPI (MpiControlTransport), a test's in-process. Messages are words (ControlMessages); each
// kind is taken in the order it arrived, from any rank.
#pragma once

#include <cstdint>
#include <span>

namespace vcmon::runtime::mpi {

class ControlTransport {
public:
  enum class Kind : int { StateRequest, StateReply, NullMessage };

  virtual ~ControlTransport() = default;

  // Sends `words` (no longer than the longest message of `kind`, ControlMessages) to world rank
  // `rank`. Any thread may send.
  virtual void send(Kind kind, int rank, std::span<const std::uint64_t> words) = 0;
  // The next message of `kind` that has arrived, from any rank: its sender, with its words in
  // `words` until the next call for `kind`; -1 when none has. One thread at a time per kind.
  // The serve path calls it in every wait loop: finding nothing allocates nothing.
  virtual int next(Kind kind, std::span<const std::uint64_t>& words) = 0;

  // The last exchange, at MPI_Finalize (collective). `told` holds the same number of words for
  // every rank, in rank order (what this rank tells it); `heard` receives the sums, over every
  // rank, of their words for this one, and `latest` the largest `mine` of any rank. Sums and a
  // maximum, not each rank's words: an all-to-all connects every rank with every other, and
  // each connection costs the rank memory in MPI (about 16 KiB a peer over UCX). None may be
  // touched until last_exchange_done().
  virtual void start_last_exchange(std::span<const std::uint64_t> told,
                                   std::span<std::uint64_t> heard, const std::uint64_t& mine,
                                   std::uint64_t& latest) = 0;
  virtual bool last_exchange_done() = 0;
  // After the last exchange, when nothing more is owed: stops receiving. A message that arrived
  // all the same is reported (an error of the protocol, which a test must catch).
  virtual void close() = 0;
};

} // namespace vcmon::runtime::mpi

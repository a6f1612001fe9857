// The control channel's wire format (docs/deadlock.md, "How the runtime uses it"): state
// requests, state replies and null messages as 64-bit words. No MPI here: a ControlTransport
// carries the words, ControlExchange gives them their meaning. Decoding checks every word it
// relies on, so that a message cut short, too long or garbled is refused, never half read.
#pragma once

#include "mpi/control/WaitPlace.hpp"

#include "vcmon/deadlock/ProcessState.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vcmon::runtime::mpi {

// What a reply carries for each rank of interest; the value is its number of words.
enum class ReplyCounts : std::uint64_t {
  Stamps = 2,   // stamps sent to it and received from it
  Unclaimed = 3 // and of those received, how many wait in an inbox unclaimed by a posted receive
};

// A request: its sequence number, what replies count, and the world ranks of interest.
struct StateRequest {
  std::uint64_t sequence = 0;
  ReplyCounts counts = ReplyCounts::Stamps;
  std::span<const std::uint64_t> interest; // into the words it was decoded from
};

// One rank's answer to a state request.
struct StateReply {
  bool answered = false; // false: no answer before the deadline; nothing else is set
  deadlock::ProcessState state;
  WaitPlace place;
  // Stamps it had sent the asker, over all communicators (its clock bounds only the sends that
  // follow them).
  std::uint64_t stamps_sent = 0;
  // WaitRegistry::generation() of the rank when it answered.
  std::uint64_t generation = 0;
  // For each rank of the request's interest list, in order: stamps this rank had sent it and
  // had received from it, over all communicators (after filing every stamp that had arrived).
  std::vector<std::uint64_t> sent_to;
  std::vector<std::uint64_t> received_from;
  // And of those it received, how many wait in an inbox unclaimed by a posted receive (when
  // asked for, ReplyCounts::Unclaimed).
  std::vector<std::uint64_t> unclaimed_from;
};

// What a reply says before its content: the request it answers, and how many requests of the
// asker it stands for (the latest answers those before).
struct ReplyHeader {
  std::uint64_t sequence = 0;
  std::uint64_t answers = 0;
};

// A null message (VCMON_DEADLOCK=nullmsg): its sender sends nothing before `bound`, once the
// `stamps_sent` stamps it had sent the receiver have arrived; it waits in collective instance
// `collective` (0: none).
struct NullMessage {
  std::uint64_t bound = 0;
  std::uint64_t stamps_sent = 0;
  std::uint64_t collective = 0;
};

inline constexpr std::size_t kNullMessageWords = 3;

// The longest message of each kind in a world of `world_size` ranks (what a receive is posted
// for): interest lists, and the ranks a reply waits on, hold distinct world ranks.
std::size_t max_request_words(int world_size);
std::size_t max_reply_words(int world_size);

std::vector<std::uint64_t> encode_request(std::uint64_t sequence, std::span<const int> interest,
                                          ReplyCounts counts);
bool decode_request(std::span<const std::uint64_t> words, StateRequest& request);

// `reply` (all but `answered`; its per-rank counts one per rank of interest, `unclaimed_from`
// empty unless asked for) as the answer to `header`. The ranks it waits on go once each.
std::vector<std::uint64_t> encode_reply(const ReplyHeader& header, const StateReply& reply);
bool decode_reply_header(std::span<const std::uint64_t> words, ReplyHeader& header);
// Fills `reply` (answered) from `words`, a reply of world rank `rank` to a request with
// `interest` ranks of interest and `counts`; false, `reply` untouched, when they hold none.
bool decode_reply(int rank, std::span<const std::uint64_t> words, std::size_t interest,
                  ReplyCounts counts, StateReply& reply);

std::array<std::uint64_t, kNullMessageWords> encode_null(const NullMessage& null);
bool decode_null(std::span<const std::uint64_t> words, NullMessage& null);

} // namespace vcmon::runtime::mpi

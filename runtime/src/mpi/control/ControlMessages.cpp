#include "mpi/control/ControlMessages.hpp"

#include <algorithm>
#include <limits>

namespace vcmon::runtime::mpi {
namespace {

// A request: these words, then the ranks of interest.
enum RequestWord : std::size_t { kRequestSequence, kInterestCount, kCountsKind, kRequestHeader };

// A reply: these words, then the ranks it waits on, then per rank of interest (sent to,
// received from[, unclaimed from]).
enum ReplyWord : std::size_t {
  kReplySequence,
  kAnswers,
  kStampsSent,
  kGeneration,
  kActivity,
  kClock,
  kHasPresentArrival,
  kPresentArrival,
  kHasCollective,
  kCollective,
  kFunction,
  kSite,
  kMessageWait,
  kWaitsOnCount,
  kReplyHeader
};

bool is_flag(std::uint64_t word) {
  return word <= 1;
}

bool is_rank(std::uint64_t word) {
  return word <= static_cast<std::uint64_t>(std::numeric_limits<int>::max());
}

bool is_counts(std::uint64_t word) {
  return word == static_cast<std::uint64_t>(ReplyCounts::Stamps) ||
         word == static_cast<std::uint64_t>(ReplyCounts::Unclaimed);
}

} // namespace

std::size_t max_request_words(int world_size) {
  return kRequestHeader + static_cast<std::size_t>(world_size);
}

std::size_t max_reply_words(int world_size) {
  return kReplyHeader + 4 * static_cast<std::size_t>(world_size);
}

std::vector<std::uint64_t> encode_request(std::uint64_t sequence, std::span<const int> interest,
                                          ReplyCounts counts) {
  std::vector<std::uint64_t> words{sequence, interest.size(), static_cast<std::uint64_t>(counts)};
  words.insert(words.end(), interest.begin(), interest.end());
  return words;
}

bool decode_request(std::span<const std::uint64_t> words, StateRequest& request) {
  if (words.size() < kRequestHeader || words.size() - kRequestHeader != words[kInterestCount] ||
      !is_counts(words[kCountsKind])) {
    return false;
  }
  const std::span<const std::uint64_t> interest = words.subspan(kRequestHeader);
  if (!std::all_of(interest.begin(), interest.end(), is_rank)) {
    return false;
  }
  request = {words[kRequestSequence], static_cast<ReplyCounts>(words[kCountsKind]), interest};
  return true;
}

std::vector<std::uint64_t> encode_reply(const ReplyHeader& header, const StateReply& reply) {
  const deadlock::ProcessState& state = reply.state;
  // Distinct ranks, so that a reply fits the receive posted for the longest one.
  std::vector<int> waits_on = state.waits_on;
  std::sort(waits_on.begin(), waits_on.end());
  waits_on.erase(std::unique(waits_on.begin(), waits_on.end()), waits_on.end());
  std::vector<std::uint64_t> words{header.sequence,
                                   header.answers,
                                   reply.stamps_sent,
                                   reply.generation,
                                   static_cast<std::uint64_t>(state.activity),
                                   state.clock_ns,
                                   state.present_arrival_ns.has_value(),
                                   state.present_arrival_ns.value_or(0),
                                   state.collective.has_value(),
                                   state.collective.value_or(0),
                                   reply.place.function,
                                   reply.place.site,
                                   reply.place.message_wait,
                                   waits_on.size()};
  words.insert(words.end(), waits_on.begin(), waits_on.end());
  for (std::size_t i = 0; i < reply.sent_to.size(); ++i) {
    words.push_back(reply.sent_to[i]);
    words.push_back(reply.received_from[i]);
    if (!reply.unclaimed_from.empty()) {
      words.push_back(reply.unclaimed_from[i]);
    }
  }
  return words;
}

bool decode_reply_header(std::span<const std::uint64_t> words, ReplyHeader& header) {
  if (words.size() < kReplyHeader) {
    return false;
  }
  header = {words[kReplySequence], words[kAnswers]};
  return true;
}

bool decode_reply(int rank, std::span<const std::uint64_t> words, std::size_t interest,
                  ReplyCounts counts, StateReply& reply) {
  if (words.size() < kReplyHeader ||
      words[kActivity] > static_cast<std::uint64_t>(deadlock::Activity::Finished) ||
      !is_flag(words[kHasPresentArrival]) || !is_flag(words[kHasCollective]) ||
      !is_flag(words[kMessageWait]) || words[kFunction] > std::numeric_limits<unsigned>::max() ||
      words[kSite] > std::numeric_limits<tables::SiteId>::max()) {
    return false;
  }
  const auto per_rank = static_cast<std::size_t>(counts);
  const std::uint64_t waits = words[kWaitsOnCount];
  // Compared by what remains, so that no count in the words can overflow the sum.
  if (waits > words.size() - kReplyHeader ||
      words.size() - kReplyHeader - waits != per_rank * interest) {
    return false;
  }
  const std::span<const std::uint64_t> waits_on = words.subspan(kReplyHeader, waits);
  if (!std::all_of(waits_on.begin(), waits_on.end(), is_rank)) {
    return false;
  }
  reply = StateReply{};
  reply.answered = true;
  reply.stamps_sent = words[kStampsSent];
  reply.generation = words[kGeneration];
  deadlock::ProcessState& state = reply.state;
  state.rank = rank;
  state.activity = static_cast<deadlock::Activity>(words[kActivity]);
  state.clock_ns = words[kClock];
  if (words[kHasPresentArrival] != 0) {
    state.present_arrival_ns = words[kPresentArrival];
  }
  if (words[kHasCollective] != 0) {
    state.collective = words[kCollective];
  }
  reply.place.function = static_cast<unsigned>(words[kFunction]);
  reply.place.site = static_cast<tables::SiteId>(words[kSite]);
  reply.place.message_wait = words[kMessageWait] != 0;
  state.waits_on.assign(waits_on.begin(), waits_on.end());
  for (std::size_t i = 0; i < interest; ++i) {
    const std::size_t at = kReplyHeader + waits + per_rank * i;
    reply.sent_to.push_back(words[at]);
    reply.received_from.push_back(words[at + 1]);
    if (counts == ReplyCounts::Unclaimed) {
      reply.unclaimed_from.push_back(words[at + 2]);
    }
  }
  return true;
}

std::array<std::uint64_t, kNullMessageWords> encode_null(const NullMessage& null) {
  return {null.bound, null.stamps_sent, null.collective};
}

bool decode_null(std::span<const std::uint64_t> words, NullMessage& null) {
  if (words.size() != kNullMessageWords) {
    return false;
  }
  null = {words[0], words[1], words[2]};
  return true;
}

} // namespace vcmon::runtime::mpi

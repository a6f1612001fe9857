// The control channel without MPI: its wire format on its own, and its exchange between ranks
// that are ControlExchange instances over an in-process transport, threads playing the ranks
// that serve.
#include "mpi/control/ControlExchange.hpp"
#include "mpi/control/ControlMessages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using namespace vcmon::runtime::mpi;
using vcmon::deadlock::Activity;
using Kind = ControlTransport::Kind;
using Words = std::vector<std::uint64_t>;

// ---- The wire format ----

StateReply blocked_reply() {
  StateReply reply;
  reply.state.activity = Activity::BlockedAny;
  reply.state.clock_ns = 123'456;
  reply.state.waits_on = {3, 1, 3};
  reply.state.present_arrival_ns = 99;
  reply.place = {7, 42, true};
  reply.stamps_sent = 5;
  reply.generation = 11;
  return reply;
}

bool decodes(const Words& words, std::size_t interest, ReplyCounts counts) {
  StateReply reply;
  return decode_reply(2, words, interest, counts, reply);
}

TEST(ControlMessages, RequestRoundTrip) {
  const std::vector<int> interest{0, 2, 3};
  const Words words = encode_request(7, interest, ReplyCounts::Unclaimed);
  StateRequest request;
  ASSERT_TRUE(decode_request(words, request));
  EXPECT_EQ(request.sequence, 7u);
  EXPECT_EQ(request.counts, ReplyCounts::Unclaimed);
  EXPECT_EQ(Words(request.interest.begin(), request.interest.end()), Words({0, 2, 3}));
}

TEST(ControlMessages, RequestTruncatedOversizedOrCorruptIsRefused) {
  const std::vector<int> interest{0, 2};
  const Words words = encode_request(7, interest, ReplyCounts::Stamps);
  StateRequest request;
  EXPECT_FALSE(decode_request({}, request));
  EXPECT_FALSE(decode_request(std::span(words).first(2), request));
  EXPECT_FALSE(decode_request(std::span(words).first(words.size() - 1), request));
  Words longer = words;
  longer.push_back(1);
  EXPECT_FALSE(decode_request(longer, request));
  Words counts = words;
  counts[2] = 4; // neither Stamps nor Unclaimed
  EXPECT_FALSE(decode_request(counts, request));
  Words rank = words;
  rank.back() = static_cast<std::uint64_t>(INT_MAX) + 1;
  EXPECT_FALSE(decode_request(rank, request));
}

TEST(ControlMessages, ReplyRoundTripWithoutInterest) {
  const Words words = encode_reply({9, 2}, blocked_reply());
  ReplyHeader header;
  ASSERT_TRUE(decode_reply_header(words, header));
  EXPECT_EQ(header.sequence, 9u);
  EXPECT_EQ(header.answers, 2u);
  StateReply reply;
  ASSERT_TRUE(decode_reply(4, words, 0, ReplyCounts::Stamps, reply));
  EXPECT_TRUE(reply.answered);
  EXPECT_EQ(reply.state.rank, 4);
  EXPECT_EQ(reply.state.activity, Activity::BlockedAny);
  EXPECT_EQ(reply.state.clock_ns, 123'456u);
  EXPECT_EQ(reply.state.waits_on, std::vector<int>({1, 3})); // each rank once
  EXPECT_EQ(reply.state.present_arrival_ns, 99u);
  EXPECT_EQ(reply.state.collective, std::nullopt);
  EXPECT_EQ(reply.place.function, 7u);
  EXPECT_EQ(reply.place.site, 42u);
  EXPECT_TRUE(reply.place.message_wait);
  EXPECT_EQ(reply.stamps_sent, 5u);
  EXPECT_EQ(reply.generation, 11u);
  EXPECT_TRUE(reply.sent_to.empty());
  EXPECT_TRUE(reply.unclaimed_from.empty());
}

TEST(ControlMessages, ReplyRoundTripWithCountsAndUnclaimed) {
  StateReply sent;
  sent.state.activity = Activity::BlockedAll;
  sent.state.waits_on = {0, 2};
  sent.state.collective = (5ull << 32) | 8;
  sent.place = {~0u, vcmon::tables::kNoSite};
  sent.sent_to = {1, 2, 3};
  sent.received_from = {4, 5, 6};
  StateReply reply;
  ASSERT_TRUE(decode_reply(1, encode_reply({1, 1}, sent), 3, ReplyCounts::Stamps, reply));
  EXPECT_EQ(reply.state.collective, (5ull << 32) | 8);
  EXPECT_EQ(reply.state.present_arrival_ns, std::nullopt);
  EXPECT_EQ(reply.place.function, ~0u);
  EXPECT_EQ(reply.place.site, vcmon::tables::kNoSite);
  EXPECT_FALSE(reply.place.message_wait);
  EXPECT_EQ(reply.sent_to, Words({1, 2, 3}));
  EXPECT_EQ(reply.received_from, Words({4, 5, 6}));
  EXPECT_TRUE(reply.unclaimed_from.empty());

  sent.unclaimed_from = {0, 7, 0};
  const Words words = encode_reply({1, 1}, sent);
  ASSERT_TRUE(decode_reply(1, words, 3, ReplyCounts::Unclaimed, reply));
  EXPECT_EQ(reply.sent_to, Words({1, 2, 3}));
  EXPECT_EQ(reply.received_from, Words({4, 5, 6}));
  EXPECT_EQ(reply.unclaimed_from, Words({0, 7, 0}));
  // Read with another request's interest list or counts, the words hold no reply.
  EXPECT_FALSE(decodes(words, 3, ReplyCounts::Stamps));
  EXPECT_FALSE(decodes(words, 2, ReplyCounts::Unclaimed));
}

TEST(ControlMessages, ReplyTruncatedOversizedOrCorruptIsRefused) {
  StateReply with_counts = blocked_reply();
  with_counts.sent_to = {1, 2};
  with_counts.received_from = {3, 4};
  const Words words = encode_reply({9, 1}, with_counts);
  ASSERT_TRUE(decodes(words, 2, ReplyCounts::Stamps));
  for (std::size_t size = 0; size < words.size(); ++size) {
    EXPECT_FALSE(decodes(Words(words.begin(), words.begin() + size), 2, ReplyCounts::Stamps))
        << size << " words";
  }
  ReplyHeader header;
  EXPECT_FALSE(decode_reply_header(Words(12, 0), header));
  Words longer = words;
  longer.push_back(0);
  EXPECT_FALSE(decodes(longer, 2, ReplyCounts::Stamps));

  // Word 4 is the activity, 6 and 8 the flags of the optional values, 10 the function, 12 the
  // message-wait flag, 13 the number of ranks waited on.
  const auto corrupt = [&](std::size_t at, std::uint64_t value) {
    Words bad = words;
    bad[at] = value;
    return bad;
  };
  EXPECT_FALSE(decodes(corrupt(4, 4), 2, ReplyCounts::Stamps));
  EXPECT_FALSE(decodes(corrupt(6, 2), 2, ReplyCounts::Stamps));
  EXPECT_FALSE(decodes(corrupt(8, 2), 2, ReplyCounts::Stamps));
  EXPECT_FALSE(decodes(corrupt(10, 1ull << 40), 2, ReplyCounts::Stamps));
  EXPECT_FALSE(decodes(corrupt(12, 2), 2, ReplyCounts::Stamps));
  EXPECT_FALSE(
      decodes(corrupt(14, static_cast<std::uint64_t>(INT_MAX) + 1), 2, ReplyCounts::Stamps));
  EXPECT_FALSE(decodes(corrupt(13, 3), 2, ReplyCounts::Stamps));
  // A count of ranks waited on that would wrap the expected size round to the real one.
  EXPECT_FALSE(decodes(corrupt(13, UINT64_MAX - 1), 2, ReplyCounts::Stamps));
  Words wrapping(14, 0);
  wrapping[13] = 0 - std::uint64_t{8}; // 14 + (0 − 8) + 4 × 2 words: 14, if summed
  EXPECT_FALSE(decodes(wrapping, 4, ReplyCounts::Stamps));

  // A refused reply leaves what it was to fill untouched.
  StateReply untouched;
  untouched.stamps_sent = 77;
  EXPECT_FALSE(decode_reply(2, corrupt(4, 9), 2, ReplyCounts::Stamps, untouched));
  EXPECT_FALSE(untouched.answered);
  EXPECT_EQ(untouched.stamps_sent, 77u);
}

TEST(ControlMessages, TheLongestMessagesFitTheirBounds) {
  constexpr int kWorld = 6;
  std::vector<int> everyone(kWorld);
  for (int rank = 0; rank < kWorld; ++rank) {
    everyone[static_cast<std::size_t>(rank)] = rank;
  }
  EXPECT_EQ(encode_request(1, everyone, ReplyCounts::Unclaimed).size(), max_request_words(kWorld));
  StateReply longest = blocked_reply();
  longest.state.waits_on = everyone;
  longest.state.waits_on.insert(longest.state.waits_on.end(), everyone.begin(), everyone.end());
  longest.sent_to.assign(kWorld, 1);
  longest.received_from.assign(kWorld, 2);
  longest.unclaimed_from.assign(kWorld, 3);
  const Words words = encode_reply({1, 1}, longest);
  EXPECT_EQ(words.size(), max_reply_words(kWorld));
  EXPECT_TRUE(decodes(words, kWorld, ReplyCounts::Unclaimed));
}

TEST(ControlMessages, NullMessageRoundTrip) {
  const auto words = encode_null({500, 3, 77});
  NullMessage null;
  ASSERT_TRUE(decode_null(words, null));
  EXPECT_EQ(null.bound, 500u);
  EXPECT_EQ(null.stamps_sent, 3u);
  EXPECT_EQ(null.collective, 77u);
  EXPECT_FALSE(decode_null(std::span(words).first(2), null));
  EXPECT_FALSE(decode_null(Words{1, 2, 3, 4}, null));
}

// ---- The exchange between ranks ----

// Every rank's messages in flight: per receiver and kind, (sender, words) in arrival order; and
// the board of the last exchange.
class FakeNetwork {
public:
  explicit FakeNetwork(int ranks)
      : queues_(static_cast<std::size_t>(ranks)), told_(static_cast<std::size_t>(ranks)),
        heard_(static_cast<std::size_t>(ranks)), mine_(static_cast<std::size_t>(ranks)),
        latest_(static_cast<std::size_t>(ranks)) {}

  int ranks() const { return static_cast<int>(queues_.size()); }

  void deliver(int from, int to, Kind kind, std::span<const std::uint64_t> words) {
    const std::lock_guard lock(mutex_);
    queue(to, kind).push_back({from, Words(words.begin(), words.end())});
  }

  // The next message of `kind` for `at` into `words`: its sender, or -1.
  int take(int at, Kind kind, Words& words) {
    const std::lock_guard lock(mutex_);
    auto& waiting = queue(at, kind);
    if (waiting.empty()) {
      return -1;
    }
    const int from = waiting.front().first;
    words = std::move(waiting.front().second);
    waiting.pop_front();
    return from;
  }

  std::size_t in_flight() {
    const std::lock_guard lock(mutex_);
    std::size_t count = 0;
    for (const auto& kinds : queues_) {
      for (const auto& waiting : kinds) {
        count += waiting.size();
      }
    }
    return count;
  }

  // The last exchange: rank `rank` joins; the last to join completes it for everyone.
  void start_last_exchange(int rank, std::span<const std::uint64_t> told,
                           std::span<std::uint64_t> heard, const std::uint64_t& mine,
                           std::uint64_t& latest) {
    const std::lock_guard lock(mutex_);
    const auto at = static_cast<std::size_t>(rank);
    told_[at].assign(told.begin(), told.end());
    heard_[at] = heard;
    mine_[at] = mine;
    latest_[at] = &latest;
    if (++joined_ < ranks()) {
      return;
    }
    const std::size_t share = told.size() / queues_.size();
    for (std::size_t to = 0; to < queues_.size(); ++to) {
      std::fill(heard_[to].begin(), heard_[to].end(), 0);
      for (std::size_t from = 0; from < queues_.size(); ++from) {
        for (std::size_t word = 0; word < share; ++word) {
          heard_[to][word] += told_[from][to * share + word];
        }
      }
      *latest_[to] = *std::max_element(mine_.begin(), mine_.end());
    }
    exchanged_ = true;
  }
  bool last_exchange_done() {
    const std::lock_guard lock(mutex_);
    return exchanged_;
  }

private:
  std::deque<std::pair<int, Words>>& queue(int rank, Kind kind) {
    return queues_[static_cast<std::size_t>(rank)][static_cast<std::size_t>(kind)];
  }

  std::mutex mutex_;
  std::vector<std::array<std::deque<std::pair<int, Words>>, 3>> queues_;
  std::vector<Words> told_;
  std::vector<std::span<std::uint64_t>> heard_;
  std::vector<std::uint64_t> mine_;
  std::vector<std::uint64_t*> latest_;
  int joined_ = 0;
  bool exchanged_ = false;
};

class FakeTransport final : public ControlTransport {
public:
  FakeTransport(FakeNetwork& network, int rank) : network_(network), rank_(rank) {}

  void send(Kind kind, int rank, std::span<const std::uint64_t> words) override {
    network_.deliver(rank_, rank, kind, words);
  }
  int next(Kind kind, std::span<const std::uint64_t>& words) override {
    Words& taken = taken_[static_cast<std::size_t>(kind)];
    const int from = closed_ ? -1 : network_.take(rank_, kind, taken);
    words = taken;
    return from;
  }
  void start_last_exchange(std::span<const std::uint64_t> told, std::span<std::uint64_t> heard,
                           const std::uint64_t& mine, std::uint64_t& latest) override {
    network_.start_last_exchange(rank_, told, heard, mine, latest);
  }
  bool last_exchange_done() override { return network_.last_exchange_done(); }
  void close() override { closed_ = true; }

  bool closed() const { return closed_; }

private:
  FakeNetwork& network_;
  int rank_;
  std::array<Words, 3> taken_; // by kind
  bool closed_ = false;
};

// A rank's state and counts as the test sets them, changed only while no thread serves it.
class FakeHost final : public ControlHost {
public:
  explicit FakeHost(int ranks)
      : sent_to(static_cast<std::size_t>(ranks)), received_from(static_cast<std::size_t>(ranks)),
        unclaimed(static_cast<std::size_t>(ranks)), bounds(static_cast<std::size_t>(ranks)),
        stuck(static_cast<std::size_t>(ranks)), answers_beside(static_cast<std::size_t>(ranks)),
        asked_beside(static_cast<std::size_t>(ranks)) {}

  void file_arrived_stamps() override { ++filed; }
  vcmon::deadlock::ProcessState own_state(WaitPlace& where) override {
    where = place;
    return state;
  }
  std::uint64_t generation() override { return wait_generation; }
  std::uint64_t stamps_sent_to(int rank) override { return sent_to[index(rank)]; }
  std::uint64_t stamps_received_from(int rank) override { return received_from[index(rank)]; }
  void count_unclaimed(std::span<std::uint64_t> per_rank) override {
    std::copy(unclaimed.begin(), unclaimed.end(), per_rank.begin());
  }
  void raise_bound(int rank, std::uint64_t bound) override {
    bounds[index(rank)] = std::max(bounds[index(rank)], bound);
  }
  std::uint64_t now_rt() override {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
  }
  bool stuck_unpolled(int rank) override { return stuck[index(rank)]; }
  bool own_call_satisfied() override { return false; }
  bool ask_beside(int rank) override {
    ++asked_beside[index(rank)];
    return true;
  }
  std::optional<RunningAnswer> answered_beside(int rank) override {
    return answers_beside[index(rank)];
  }

  vcmon::deadlock::ProcessState state;
  WaitPlace place;
  std::uint64_t wait_generation = 0;
  Words sent_to;
  Words received_from;
  Words unclaimed;
  Words bounds; // raised by null messages
  std::vector<bool> stuck;
  // Per rank, what its answerer (RunningAnswers) says for it when asked, and how often it was.
  std::vector<std::optional<RunningAnswer>> answers_beside;
  std::vector<int> asked_beside;
  int filed = 0; // times the stamps that had arrived were filed

private:
  static std::size_t index(int rank) { return static_cast<std::size_t>(rank); }
};

constexpr ReplyDeadline kPatient{60'000'000'000, 60'000'000'000};
constexpr ReplyDeadline kHasty{20'000'000, 20'000'000};

// `count` ranks, each an exchange over the same network.
class Ranks {
public:
  Ranks(int count, ReplyDeadline deadline) : network_(count) {
    for (int rank = 0; rank < count; ++rank) {
      transports_.push_back(std::make_unique<FakeTransport>(network_, rank));
      hosts_.push_back(std::make_unique<FakeHost>(count));
      hosts_.back()->state.rank = rank;
      exchanges_.push_back(std::make_unique<ControlExchange>(*transports_.back(), *hosts_.back(),
                                                             rank, count, deadline));
    }
  }

  ControlExchange& exchange(int rank) { return *exchanges_[static_cast<std::size_t>(rank)]; }
  FakeHost& host(int rank) { return *hosts_[static_cast<std::size_t>(rank)]; }
  FakeTransport& transport(int rank) { return *transports_[static_cast<std::size_t>(rank)]; }
  FakeNetwork& network() { return network_; }

private:
  FakeNetwork network_;
  std::vector<std::unique_ptr<FakeTransport>> transports_;
  std::vector<std::unique_ptr<FakeHost>> hosts_;
  std::vector<std::unique_ptr<ControlExchange>> exchanges_;
};

// A thread playing a rank that serves from its wait loop, for as long as it lives.
class Serving {
public:
  explicit Serving(ControlExchange& exchange)
      : thread_([this, &exchange] {
          while (!stop_.load()) {
            exchange.serve();
            std::this_thread::yield();
          }
        }) {}
  ~Serving() {
    stop_ = true;
    thread_.join();
  }

private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

std::uint64_t elapsed_ms(std::chrono::steady_clock::time_point since) {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::steady_clock::now() - since)
                                        .count());
}

TEST(ControlExchange, ARequestToTwoServingRanksGetsBothStatesAndCounts) {
  Ranks ranks(3, kPatient);
  FakeHost& one = ranks.host(1);
  one.state.activity = Activity::BlockedAny;
  one.state.clock_ns = 1'000;
  one.state.waits_on = {0};
  one.place = {5, 17};
  one.wait_generation = 4;
  one.sent_to = {3, 0, 1};
  one.received_from = {2, 0, 6};
  one.unclaimed = {1, 0, 0};
  FakeHost& two = ranks.host(2);
  two.state.clock_ns = 2'000;
  two.sent_to = {8, 9, 0};
  two.received_from = {7, 4, 0};
  two.unclaimed = {0, 2, 0};

  std::vector<StateReply> replies;
  {
    const Serving serving_one(ranks.exchange(1));
    const Serving serving_two(ranks.exchange(2));
    const std::vector<int> asked{1, 2};
    const std::vector<int> interest{0, 1, 2};
    replies = ranks.exchange(0).request_states(asked, interest, ReplyCounts::Unclaimed);
  }
  ASSERT_EQ(replies.size(), 2u);
  ASSERT_TRUE(replies[0].answered);
  EXPECT_EQ(replies[0].state.rank, 1);
  EXPECT_EQ(replies[0].state.activity, Activity::BlockedAny);
  EXPECT_EQ(replies[0].state.clock_ns, 1'000u);
  EXPECT_EQ(replies[0].state.waits_on, std::vector<int>({0}));
  EXPECT_EQ(replies[0].place.function, 5u);
  EXPECT_EQ(replies[0].place.site, 17u);
  EXPECT_EQ(replies[0].generation, 4u);
  EXPECT_EQ(replies[0].stamps_sent, 3u); // to the asker
  EXPECT_EQ(replies[0].sent_to, Words({3, 0, 1}));
  EXPECT_EQ(replies[0].received_from, Words({2, 0, 6}));
  EXPECT_EQ(replies[0].unclaimed_from, Words({1, 0, 0}));
  ASSERT_TRUE(replies[1].answered);
  EXPECT_EQ(replies[1].state.rank, 2);
  EXPECT_EQ(replies[1].state.activity, Activity::Running);
  EXPECT_EQ(replies[1].state.clock_ns, 2'000u);
  EXPECT_EQ(replies[1].stamps_sent, 8u);
  EXPECT_EQ(replies[1].sent_to, Words({8, 9, 0}));
  EXPECT_EQ(replies[1].received_from, Words({7, 4, 0}));
  EXPECT_EQ(replies[1].unclaimed_from, Words({0, 2, 0}));
  // Each answered after filing the stamps that had arrived.
  EXPECT_GE(one.filed, 1);
  EXPECT_GE(two.filed, 1);
  EXPECT_EQ(ranks.network().in_flight(), 0u);
}

TEST(ControlExchange, ARankThatNeverServesIsNotAnsweredAfterTheDeadline) {
  Ranks ranks(2, kHasty);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int> asked{1};
  const std::vector<StateReply> replies =
      ranks.exchange(0).request_states(asked, {}, ReplyCounts::Stamps);
  const std::uint64_t waited_ms = elapsed_ms(start);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_FALSE(replies[0].answered);
  EXPECT_GE(waited_ms, 20u);
  EXPECT_LT(waited_ms, 10'000u);
}

// A rank that runs outside MPI (it spins on shared memory, say) never serves: its answerer
// answers for it, and the asker need not wait out its deadline.
TEST(ControlExchange, ARankThatNeverServesIsAnsweredBesideItByItsAnswerer) {
  Ranks ranks(3, kPatient);
  ranks.host(0).answers_beside[1] = RunningAnswer{7'000, 2};
  Serving two(ranks.exchange(2));
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int> asked{1, 2};
  const std::vector<StateReply> replies =
      ranks.exchange(0).request_states(asked, asked, ReplyCounts::Stamps);
  EXPECT_LT(elapsed_ms(start), 10'000u); // not the 60 s deadline
  ASSERT_EQ(replies.size(), 2u);
  ASSERT_TRUE(replies[0].answered);
  EXPECT_EQ(replies[0].state.rank, 1);
  EXPECT_EQ(replies[0].state.activity, Activity::Running);
  EXPECT_EQ(replies[0].state.clock_ns, 7'000u);
  EXPECT_EQ(replies[0].stamps_sent, 2u);
  EXPECT_TRUE(replies[0].sent_to.empty()); // an answerer knows no counts of other ranks
  EXPECT_EQ(ranks.host(0).asked_beside[1], 1);
  EXPECT_TRUE(replies[1].answered); // the serving rank answered itself, with counts
  EXPECT_EQ(replies[1].sent_to.size(), 2u);
}

TEST(ControlExchange, ARankWhoseAnswererCannotSayIsNotAnsweredAfterTheDeadline) {
  Ranks ranks(2, kHasty);
  const std::vector<int> asked{1};
  const std::vector<StateReply> replies =
      ranks.exchange(0).request_states(asked, {}, ReplyCounts::Stamps);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_FALSE(replies[0].answered);
  EXPECT_EQ(ranks.host(0).asked_beside[1], 1);
}

// A late reply to a request the rank's answerer answered is no sign of a slow machine: the
// deadline stays. Each round, rank 1's answerer answers for it, rank 1 replies late, and that
// reply comes in while rank 0 asks rank 2; doubled at each of those six replies the deadline
// would be 1.28 s.
TEST(ControlExchange, ALateReplyToARequestAnsweredBesideKeepsTheDeadline) {
  Ranks ranks(3, ReplyDeadline{20'000'000, 10'000'000'000});
  Serving two(ranks.exchange(2));
  const std::vector<int> one{1};
  const std::vector<int> other{2};
  ranks.host(0).answers_beside[1] = RunningAnswer{1'000, 0};
  for (int round = 0; round < 6; ++round) {
    ASSERT_TRUE(ranks.exchange(0).request_states(one, {}, ReplyCounts::Stamps)[0].answered);
    ranks.exchange(1).serve(); // its own reply, late
    for (int drain = 0; drain < 2; ++drain) {
      ASSERT_TRUE(ranks.exchange(0).request_states(other, {}, ReplyCounts::Stamps)[0].answered);
    }
  }
  ranks.host(0).answers_beside[1].reset();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(ranks.exchange(0).request_states(one, {}, ReplyCounts::Stamps)[0].answered);
  EXPECT_LT(elapsed_ms(start), 640u);
}

TEST(ControlExchange, AnAnswerToAnEarlierRequestIsNotTakenForALaterOne) {
  Ranks ranks(2, kPatient);
  const std::vector<int> asked{1};
  // Rank 1 is stuck in a call the layer cannot poll: the first request is given up at once.
  ranks.host(0).stuck[1] = true;
  EXPECT_FALSE(ranks.exchange(0).request_states(asked, {}, ReplyCounts::Stamps)[0].answered);
  // It answers that request late, at clock 111, and has moved on to 222 when asked again.
  ranks.host(1).state.clock_ns = 111;
  EXPECT_TRUE(ranks.exchange(1).serve());
  ranks.host(1).state.clock_ns = 222;
  ranks.host(0).stuck[1] = false;
  std::vector<StateReply> replies;
  {
    const Serving serving(ranks.exchange(1));
    replies = ranks.exchange(0).request_states(asked, {}, ReplyCounts::Stamps);
  }
  ASSERT_TRUE(replies[0].answered);
  EXPECT_EQ(replies[0].state.clock_ns, 222u);
  EXPECT_EQ(ranks.network().in_flight(), 0u);
}

TEST(ControlExchange, NullMessagesAreAbsorbedAndHoldOnceTheirStampsArrived) {
  Ranks ranks(3, kPatient);
  ranks.host(0).sent_to = {0, 2, 0}; // two stamps to rank 1 precede the null message
  ranks.host(1).received_from = {1, 0, 0};
  ranks.exchange(0).announce_null(500, 77);
  EXPECT_EQ(ranks.exchange(1).null_collective_of(0), 0u);

  EXPECT_TRUE(ranks.exchange(1).serve());
  EXPECT_EQ(ranks.exchange(1).null_collective_of(0), 77u);
  EXPECT_EQ(ranks.exchange(1).null_collective_of(2), 0u);
  EXPECT_EQ(ranks.host(1).bounds[0], 0u); // one stamp still in flight
  ranks.host(1).received_from[0] = 2;
  EXPECT_FALSE(ranks.exchange(1).serve());
  EXPECT_EQ(ranks.host(1).bounds[0], 500u);

  EXPECT_TRUE(ranks.exchange(2).serve());
  EXPECT_EQ(ranks.exchange(2).null_collective_of(0), 77u);
  EXPECT_EQ(ranks.host(2).bounds[0], 500u);
  EXPECT_EQ(ranks.host(0).bounds, Words({0, 0, 0})); // not sent to itself

  // Left the collective: the latest message speaks.
  ranks.exchange(0).announce_null(600, 0);
  EXPECT_TRUE(ranks.exchange(2).serve());
  EXPECT_EQ(ranks.exchange(2).null_collective_of(0), 0u);
  EXPECT_EQ(ranks.host(2).bounds[0], 600u);
}

TEST(ControlExchange, FinishTakesInEveryMessageOwedAndAgreesOnTheLatestEntry) {
  Ranks ranks(3, kHasty);
  const std::vector<int> asked{1, 2};
  // Nobody serves: two requests go unanswered, and null messages wait.
  const std::vector<StateReply> replies =
      ranks.exchange(0).request_states(asked, {}, ReplyCounts::Stamps);
  EXPECT_FALSE(replies[0].answered);
  EXPECT_FALSE(replies[1].answered);
  ranks.exchange(2).announce_null(300, 0);
  EXPECT_EQ(ranks.network().in_flight(), 4u);

  const std::array<std::uint64_t, 3> entries{100, 250, 40};
  std::array<std::uint64_t, 3> latest{};
  {
    std::vector<std::thread> finishing;
    for (int rank = 0; rank < 3; ++rank) {
      finishing.emplace_back([&, rank] {
        const auto at = static_cast<std::size_t>(rank);
        latest[at] = ranks.exchange(rank).finish(entries[at]);
      });
    }
    for (std::thread& rank : finishing) {
      rank.join();
    }
  }
  EXPECT_EQ(latest, (std::array<std::uint64_t, 3>{250, 250, 250}));
  EXPECT_EQ(ranks.network().in_flight(), 0u);
  for (int rank = 0; rank < 3; ++rank) {
    EXPECT_TRUE(ranks.transport(rank).closed());
  }
  EXPECT_EQ(ranks.host(0).bounds[2], 300u);
  EXPECT_EQ(ranks.host(1).bounds[2], 300u);
}

} // namespace

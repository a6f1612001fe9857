#include "mpi/control/ControlExchange.hpp"

#include <algorithm>
#include <array>
#include <sched.h>

namespace vcmon::runtime::mpi {
namespace {

using Kind = ControlTransport::Kind;

// What a rank tells each other rank in the last exchange: the counted requests and null
// messages it sent it, then its entry.
enum FinishWord : std::size_t { kRequestsSent, kNullsSent, kFinishWords };

// The reply an answerer gave for world rank `rank`: it runs, at the clock shown. It carries
// no counts of other ranks (the asker knows them for none) and no wait generation.
StateReply beside_reply(int rank, const RunningAnswer& answer) {
  StateReply reply;
  reply.answered = true;
  reply.state.rank = rank;
  reply.state.activity = deadlock::Activity::Running;
  reply.state.clock_ns = answer.clock_ns;
  reply.place = {~0u, tables::kNoSite};
  reply.stamps_sent = answer.stamps_sent;
  reply.generation = ~std::uint64_t{0};
  return reply;
}

} // namespace

ControlExchange::ControlExchange(ControlTransport& transport, ControlHost& host, int world_rank,
                                 int world_size, ReplyDeadline deadline)
    : transport_(transport), host_(host), world_rank_(world_rank), world_size_(world_size),
      reply_deadline_ns_(deadline.first_ns), last_deadline_ns_(deadline.last_ns),
      beside_ns_(deadline.beside_ns), beside_(static_cast<std::size_t>(world_size)),
      unanswered_(static_cast<std::size_t>(world_size), 0),
      sent_counts_(std::make_unique<std::atomic<std::uint64_t>[]>(
          static_cast<std::size_t>(world_size) * kCountedKinds)),
      taken_counts_(static_cast<std::size_t>(world_size) * kCountedKinds, 0),
      pending_nulls_(static_cast<std::size_t>(world_size), {0, 0}),
      null_collectives_(
          std::make_unique<std::atomic<std::uint64_t>[]>(static_cast<std::size_t>(world_size))) {}

void ControlExchange::count_sent(int rank, CountedKind kind) {
  sent_counts_[static_cast<std::size_t>(rank) * kCountedKinds + kind].fetch_add(
      1, std::memory_order_relaxed);
}

void ControlExchange::count_taken(int rank, CountedKind kind) {
  ++taken_counts_[static_cast<std::size_t>(rank) * kCountedKinds + kind];
}

bool ControlExchange::serve() {
  if (serving_.test_and_set(std::memory_order_acquire)) {
    return false;
  }
  bool any = absorb_null_messages();
  apply_nulls();
  const std::vector<Request> requests = receive_requests();
  if (!requests.empty()) {
    answer(requests);
    any = true;
  }
  serving_.clear(std::memory_order_release);
  return any;
}

bool ControlExchange::absorb_null_messages() {
  bool any = false;
  std::span<const std::uint64_t> words;
  for (int source; (source = transport_.next(Kind::NullMessage, words)) >= 0; any = true) {
    count_taken(source, kNulls);
    NullMessage null;
    if (!decode_null(words, null)) {
      continue;
    }
    auto& [bound, stamps] = pending_nulls_[static_cast<std::size_t>(source)];
    bound = std::max(bound, null.bound);
    stamps = std::max(stamps, null.stamps_sent);
    null_collectives_[static_cast<std::size_t>(source)].store(null.collective,
                                                              std::memory_order_relaxed);
  }
  return any;
}

// A null message's bound holds once every stamp its sender had sent before it has arrived: MPI
// does not order the control channel with the stamps (Chandy–Misra needs FIFO channels).
void ControlExchange::apply_nulls() {
  for (std::size_t rank = 0; rank < pending_nulls_.size(); ++rank) {
    auto& [bound, stamps] = pending_nulls_[rank];
    if (bound != 0 && host_.stamps_received_from(static_cast<int>(rank)) >= stamps) {
      host_.raise_bound(static_cast<int>(rank), bound);
      bound = 0;
    }
  }
}

std::vector<ControlExchange::Request> ControlExchange::receive_requests() {
  std::vector<Request> requests;
  std::span<const std::uint64_t> words;
  for (int source; (source = transport_.next(Kind::StateRequest, words)) >= 0;) {
    count_taken(source, kRequests);
    StateRequest request;
    if (!decode_request(words, request)) {
      continue;
    }
    auto kept = std::find_if(requests.begin(), requests.end(),
                             [&](const Request& r) { return r.source == source; });
    if (kept == requests.end()) {
      kept = requests.emplace(requests.end());
      kept->source = source;
    } else {
      ++kept->count;
    }
    kept->sequence = request.sequence;
    kept->counts = request.counts;
    kept->interest.assign(request.interest.begin(), request.interest.end());
  }
  return requests;
}

void ControlExchange::answer(const std::vector<Request>& requests) {
  // Every stamp that has arrived is filed first: the state, and the counts, then account for
  // every message already here.
  host_.file_arrived_stamps();
  StateReply reply;
  reply.state = host_.own_state(reply.place);
  reply.generation = host_.generation();
  std::vector<std::uint64_t> unclaimed;
  if (std::any_of(requests.begin(), requests.end(),
                  [](const Request& r) { return r.counts == ReplyCounts::Unclaimed; })) {
    unclaimed.resize(static_cast<std::size_t>(world_size_));
    host_.count_unclaimed(unclaimed);
  }
  for (const Request& request : requests) {
    reply.stamps_sent = host_.stamps_sent_to(request.source);
    reply.sent_to.clear();
    reply.received_from.clear();
    reply.unclaimed_from.clear();
    for (const std::uint64_t rank : request.interest) {
      reply.sent_to.push_back(host_.stamps_sent_to(static_cast<int>(rank)));
      reply.received_from.push_back(host_.stamps_received_from(static_cast<int>(rank)));
      if (request.counts == ReplyCounts::Unclaimed) {
        reply.unclaimed_from.push_back(rank < unclaimed.size() ? unclaimed[rank] : 0);
      }
    }
    transport_.send(Kind::StateReply, request.source,
                    encode_reply({request.sequence, request.count}, reply));
  }
}

int ControlExchange::receive_reply(std::span<const std::uint64_t>& words) {
  const int source = transport_.next(Kind::StateReply, words);
  if (source < 0) {
    return -1;
  }
  ReplyHeader header;
  if (decode_reply_header(words, header)) {
    auto& owed = unanswered_[static_cast<std::size_t>(source)];
    const auto answers = static_cast<std::uint32_t>(std::min<std::uint64_t>(header.answers, owed));
    owed -= answers;
    unanswered_total_ -= answers;
    if (owed == 0) {
      // It answered everything: nothing to ask its answerer. Which request the answerer
      // answered stays known, for the rank's own reply to it, which may still come.
      Beside& beside = beside_[static_cast<std::size_t>(source)];
      beside.owed_since_rt = 0;
      beside.asking = false;
    }
  }
  return source;
}

std::vector<StateReply> ControlExchange::request_states(std::span<const int> ranks,
                                                        std::span<const int> interest,
                                                        ReplyCounts counts) {
  std::vector<StateReply> replies(ranks.size());
  if (ranks.empty()) {
    return replies;
  }
  const std::lock_guard lock(asking_);
  const std::uint64_t sequence = ++last_sequence_;
  const std::vector<std::uint64_t> request = encode_request(sequence, interest, counts);
  const std::uint64_t start_rt = host_.now_rt();
  for (const int rank : ranks) {
    transport_.send(Kind::StateRequest, rank, request);
    count_sent(rank, kRequests);
    if (unanswered_[static_cast<std::size_t>(rank)]++ == 0) {
      Beside& beside = beside_[static_cast<std::size_t>(rank)];
      beside.owed_since_rt = start_rt;
      beside.asking = false;
      beside.next_ask_rt = start_rt + beside_ns_;
      beside.wait_ns = beside_ns_;
    }
    ++unanswered_total_;
  }
  std::vector<std::uint64_t> received_before(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    received_before[i] = host_.stamps_received_from(ranks[i]);
  }
  // Whether an answer from the i-th rank may still come and still matter.
  const auto awaited = [&](std::size_t i) {
    return !replies[i].answered && host_.stamps_received_from(ranks[i]) == received_before[i] &&
           !host_.stuck_unpolled(ranks[i]);
  };
  std::span<const std::uint64_t> words;
  for (;;) {
    if (const int source = receive_reply(words); source >= 0) {
      ReplyHeader header;
      if (!decode_reply_header(words, header)) {
        continue; // no reply at all
      }
      if (header.sequence != sequence) {
        // The answer to a request given up on: unless its rank was stuck in an unpolled
        // call, or its answerer answered for it, the deadline was too short for this machine.
        if (!host_.stuck_unpolled(source) &&
            header.sequence > beside_[static_cast<std::size_t>(source)].answered_sequence) {
          reply_deadline_ns_ = std::min(2 * reply_deadline_ns_, last_deadline_ns_);
        }
        continue;
      }
      for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i] == source && !replies[i].answered) {
          decode_reply(ranks[i], words, interest.size(), counts, replies[i]);
          break;
        }
      }
      continue;
    }
    const std::uint64_t now_rt = host_.now_rt();
    bool any_awaited = false;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (awaited(i) && !answer_beside(ranks[i], now_rt, sequence, replies[i])) {
        any_awaited = true;
      }
    }
    if (!any_awaited || host_.own_call_satisfied() || now_rt - start_rt > reply_deadline_ns_) {
      break; // the caller goes on with what it knows
    }
    serve();
    sched_yield();
  }
  return replies;
}

bool ControlExchange::answer_beside(int rank, std::uint64_t now_rt, std::uint64_t sequence,
                                    StateReply& reply) {
  Beside& beside = beside_[static_cast<std::size_t>(rank)];
  if (beside.owed_since_rt == 0) {
    return false;
  }
  if (beside.asking) {
    const std::optional<RunningAnswer> answer = host_.answered_beside(rank);
    if (!answer) {
      return false;
    }
    beside.asking = false;
    if (answer->clock_ns == 0) {
      return false; // it waits in a call (and answers from there) or is stuck: not its to say
    }
    reply = beside_reply(rank, *answer);
    beside.answered_sequence = sequence;
    return true;
  }
  if (now_rt >= beside.next_ask_rt) {
    beside.asking = host_.ask_beside(rank);
    beside.next_ask_rt = now_rt + beside.wait_ns;
    beside.wait_ns = std::min(2 * beside.wait_ns, kBesideAtMostNs);
  }
  return false;
}

void ControlExchange::announce_null(std::uint64_t bound, std::uint64_t collective) {
  for (int rank = 0; rank < world_size_; ++rank) {
    if (rank != world_rank_) {
      transport_.send(Kind::NullMessage, rank,
                      encode_null({bound, host_.stamps_sent_to(rank), collective}));
      count_sent(rank, kNulls);
    }
  }
}

std::uint64_t ControlExchange::null_collective_of(int rank) const {
  return null_collectives_[static_cast<std::size_t>(rank)].load(std::memory_order_relaxed);
}

std::uint64_t ControlExchange::finish(std::uint64_t entry_vt) {
  // Every rank learns how many requests and null messages each other rank sent it, takes all
  // of them in (answering every request) and receives an answer to every request of its own:
  // nothing is left unmatched, however late it comes. (A grace of 1 s for the answers gave up
  // under load, and MPI warned of the unmatched reply that came after.) The same exchange
  // gives the latest entry of any rank.
  const auto ranks = static_cast<std::size_t>(world_size_);
  std::vector<std::uint64_t> told(ranks * kFinishWords);
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    told[rank * kFinishWords + kRequestsSent] =
        sent_counts_[rank * kCountedKinds + kRequests].load(std::memory_order_relaxed);
    told[rank * kFinishWords + kNullsSent] =
        sent_counts_[rank * kCountedKinds + kNulls].load(std::memory_order_relaxed);
  }
  std::array<std::uint64_t, kFinishWords> heard{};
  std::uint64_t latest_vt = entry_vt;
  transport_.start_last_exchange(told, heard, entry_vt, latest_vt);
  // Whether this rank has taken in all that the others sent it. No rank takes more from a
  // sender than that sender sent it, so the totals are equal only when each sender's are.
  const auto taken_all = [&] {
    std::uint64_t requests = 0;
    std::uint64_t nulls = 0;
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      requests += taken_counts_[rank * kCountedKinds + kRequests];
      nulls += taken_counts_[rank * kCountedKinds + kNulls];
    }
    return requests == heard[kRequestsSent] && nulls == heard[kNullsSent];
  };
  for (bool exchanged = false;;) {
    exchanged = exchanged || transport_.last_exchange_done();
    serve();
    bool answered;
    {
      const std::lock_guard lock(asking_);
      std::span<const std::uint64_t> words;
      while (receive_reply(words) >= 0) {
      }
      answered = unanswered_total_ == 0;
    }
    if (exchanged && answered && taken_all()) {
      break;
    }
    sched_yield();
  }
  transport_.close();
  return latest_vt;
}

} // namespace vcmon::runtime::mpi

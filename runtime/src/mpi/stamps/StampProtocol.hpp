// The stamp protocol between the PMPI layers of two ranks (docs/pmpi.md, "Stamps"):
//  - before the data of every point-to-point send to a real rank, a stamp (vclock::MessageStamp,
//    common time base) leaves for the same destination, naming the communicator and the tag.
//    It travels by StampMail (shared memory within a node, a message between nodes), ahead of the
//    data, so that a wildcard decision can see it without pulling the data (docs/deadlock.md, "How
//    the runtime uses it");
//  - the receiver files arriving stamps per communicator: to the nonblocking receive from that
//    source that claimed the next matching stamp when it was posted (in post order, as MPI
//    matches), else into the communicator's inbox. A blocking receive waits, polling (so that
//    it can answer the control channel meanwhile), until the first stamp from its source
//    matching its tag is in the inbox, and takes it before it lets PMPI take the data; a
//    nonblocking one that claimed none (a wildcard) takes it once the data matched. Stamps
//    from one sender stay in the order they were sent, so MPI's non-overtaking rule per
//    (source, communicator, tag) makes each the stamp of the data the receive gets;
//  - a stamp flagged kSynchronous (Ssend, Issend, Ssend_init) is answered with the receiver's
//    post time (SyncReply) on the shadow `replies` communicator, same tag, so that the sender
//    completes no earlier than its partner arrived in virtual time.
#pragma once

#include "mpi/layer/Layer.hpp"
#include "mpi/stamps/PostedStamp.hpp"
#include "mpi/stamps/SenderBounds.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampCounts.hpp"
#include "mpi/stamps/StampLock.hpp"
#include "mpi/stamps/StampMail.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "vcmon/vclock/MessageStamp.hpp"
#include "vcmon/vclock/VirtualClock.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <optional>
#include <sched.h>
#include <span>
#include <vector>

namespace vcmon::runtime::mpi {

inline constexpr std::uint32_t kSynchronous = 1u;

// The receiver's post moment, answering a synchronous send.
struct SyncReply {
  std::uint64_t post_vt = 0;
  std::uint64_t post_rt = 0;
};

class StampProtocol {
public:
  // One process's protocol among `world_size` ranks, its stamps leaving and arriving by `mail`
  // (which must outlive it). The layer's is its LayerContext's; a test makes one per rank.
  StampProtocol(int world_size, StampMail& mail)
      : mail_(mail), shadows_(lock_), counts_(world_size), bounds_(world_size) {}
  StampProtocol(const StampProtocol&) = delete;
  StampProtocol& operator=(const StampProtocol&) = delete;

  // Holds the stamps' lock for a scope (StampLock::Hold): the layer reads an inbox only under
  // it. Re-entrant, so that a reader may call the functions below inside.
  class Hold : public StampLock::Hold {
  public:
    explicit Hold(StampProtocol& stamps, StampLock::Wait wait = StampLock::Wait::Yes)
        : StampLock::Hold(stamps.lock_, wait) {}
  };

  // The process's shadows, by which stamps are filed.
  ShadowCommunicators& shadows() { return shadows_; }
  // Stamps sent to and received from each rank.
  const StampCounts& counts() const { return counts_; }
  // What is known of when each rank can send next.
  SenderBounds& bounds() { return bounds_; }
  const SenderBounds& bounds() const { return bounds_; }

  // Bytes of the message when PMPI will certainly accept the send's arguments, else nullopt:
  // a send that fails must not leave a stamp behind, and a bad rank or tag must reach the
  // user's error handler from PMPI, never from the layer.
  template <typename Count>
  static std::optional<std::uint64_t> checked_bytes(const Shadow& shadow, Count count,
                                                    MPI_Datatype datatype, int dest, int tag) {
    return checked_bytes(shadow.peers, count, datatype, dest, tag);
  }
  // The same on a communicator of `peers` ranks.
  template <typename Count>
  static std::optional<std::uint64_t> checked_bytes(int peers, Count count, MPI_Datatype datatype,
                                                    int dest, int tag) {
    if (count < 0 || datatype == MPI_DATATYPE_NULL || dest < 0 || dest >= peers || tag < 0 ||
        tag > Layer::tag_ub()) {
      return std::nullopt;
    }
    MPI_Count size = 0;
    if (PMPI_Type_size_c(datatype, &size) != MPI_SUCCESS) {
      return std::nullopt;
    }
    return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
  }

  // Whether PMPI will accept a receive's arguments: a Sendrecv whose receiving half is
  // rejected sends nothing either, so its send must not be stamped.
  template <typename Count>
  static bool receivable(const Shadow& shadow, Count count, MPI_Datatype datatype, int source,
                         int tag) {
    return receivable(shadow.peers, count, datatype, source, tag);
  }
  // The same on a communicator of `peers` ranks.
  template <typename Count>
  static bool receivable(int peers, Count count, MPI_Datatype datatype, int source, int tag) {
    return count >= 0 && datatype != MPI_DATATYPE_NULL &&
           (source == MPI_ANY_SOURCE || source == MPI_PROC_NULL ||
            (source >= 0 && source < peers)) &&
           (tag == MPI_ANY_TAG || (tag >= 0 && tag <= Layer::tag_ub()));
  }

  // The stamp shows the send time on `clock`: never earlier than a time this process showed
  // before (its stamps, its state replies, its null messages' bounds), which receivers took
  // as a bound on its sends.
  // Counted before it leaves: the data follows the stamp as soon as it has left, and its
  // receiver waits for the data from the moment it sees the stamp. Counted before it is shown,
  // too: a clock shown beside this thread (RunningAnswerer) then either bounds the stamp or
  // was answered with a count that includes it, so that its asker waits for it.
  void send_stamp(vclock::VirtualClock& clock, const Shadow& shadow, int dest, int tag,
                  vclock::MessageStamp stamp) {
    const int world_dest = shadow.world_rank_of(dest);
    counts_.sent(world_dest);
    // The compiler keeps the count before show()'s read; the answerer's membarrier does the rest.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    stamp.send_vt_ns = clock.show(stamp.send_vt_ns);
    const Hold hold(*this);
    mail_.post(world_dest, {0, shadow.id, shadow.rank, tag, stamp});
  }

  // The stamp from `source` (not MPI_ANY_SOURCE) matching `tag` that waits in the inbox, if
  // any; first files what has arrived from `source`.
  std::optional<PendingStamp> try_take(const Shadow& shadow, int source, int tag) {
    const Hold hold(*this);
    collect_until_filed(shadow, source, tag);
    return take_filed(shadow, source, tag);
  }

  // The stamp from `source` (not MPI_ANY_SOURCE) matching `tag` that waits in the inbox, if
  // any, left there; first files what has arrived from `source`.
  std::optional<PendingStamp> peek(const Shadow& shadow, int source, int tag) {
    const Hold hold(*this);
    collect_until_filed(shadow, source, tag);
    const std::optional<std::size_t> index = shadow.inbox.find(source, tag);
    return index ? std::optional<PendingStamp>(shadow.inbox[*index]) : std::nullopt;
  }

  // Takes `chosen` (a wildcard's decision, for a receive with `tag`) if it is still the first
  // stamp of its source matching `tag`: another thread receiving on the communicator may have
  // taken it since (the caller then decides again).
  bool take_if_first(const Shadow& shadow, const PendingStamp& chosen, int tag) {
    const Hold hold(*this);
    const std::optional<std::size_t> index = shadow.inbox.find(chosen.source, tag);
    if (!index || shadow.inbox[*index].stamp != chosen.stamp) {
      return false;
    }
    shadow.inbox.take(*index);
    return true;
  }

  // A stamp taken for a receive that then failed without consuming its message: again the
  // first of its source.
  void give_back(const Shadow& shadow, const PendingStamp& entry) {
    const Hold hold(*this);
    file_first(shadow, entry);
  }

  // Whether the sender of the next message from `source` matching `tag` has sent it.
  bool present(const Shadow& shadow, int source, int tag) {
    const Hold hold(*this);
    return collect_until_filed(shadow, source, tag);
  }

  // Once the data from `source` with `tag` matched: its stamp, waiting if needed (it was sent
  // before the data, or right after a buffered send's data).
  vclock::MessageStamp take(const Shadow& shadow, int source, int tag) {
    std::optional<PendingStamp> taken;
    poll_until([&] { return (taken = try_take(shadow, source, tag)).has_value(); });
    return taken->stamp;
  }

  // Claims the stamp of a nonblocking receive from `source` (not MPI_ANY_SOURCE) with `tag`,
  // just posted: the first such stamp in the inbox, else the next to arrive that no receive
  // posted earlier claimed. `posted` must not move until finished.
  void claim(const Shadow& shadow, int source, int tag, PostedStamp& posted) {
    const Hold hold(*this);
    collect_until_filed(shadow, source, tag);
    // Behind a receive from MPI_ANY_SOURCE that may take the stamp here, or behind a claim of
    // the same source waiting behind one, it waits its turn (the count first: thousands of
    // receives may be pending in the claims).
    const bool behind =
        wildcards_.load(std::memory_order_relaxed) != 0 && holds_back(shadow, source, tag);
    const auto pulled = behind ? std::nullopt : take_filed(shadow, source, tag);
    if (pulled) {
      posted.entry = *pulled;
      posted.state = PostedStamp::State::Held;
      return;
    }
    posted.entry = {source, tag, {}};
    posted.state = PostedStamp::State::Pending;
    shadow.claims.push_back(&posted);
    if (behind) {
      // Its stamp may be here already, of a tag no wildcard may take: left waiting, a
      // wildcard posted next would hold it back, and it would wait for a wildcard MPI never
      // matches.
      take_in_post_order(shadow, std::prev(shadow.claims.end()), std::nullopt);
    }
  }

  // Whether `posted` claimed a stamp (its receive is from a specific source and was posted
  // tracked); read under the lock, which a thread filing the stamp holds as it writes.
  bool claimed(const PostedStamp& posted) {
    const Hold hold(*this);
    return posted.state != PostedStamp::State::None;
  }

  // Whether the claimed stamp has arrived (a completion deciding by virtual time looks).
  bool arrived(const Shadow& shadow, PostedStamp& posted) {
    const Hold hold(*this);
    if (posted.state == PostedStamp::State::Pending) {
      adopt_orphans();
      mail_.collect(shadow.world_rank_of(posted.entry.source),
                    [&](int sender, const StampMessage& message) {
                      file(sender, message);
                      return posted.state == PostedStamp::State::Held;
                    });
    }
    return posted.state == PostedStamp::State::Held;
  }

  // The claimed stamp, once the receive took its data, a message with `tag` (sent after the
  // stamp: waits if needed).
  vclock::MessageStamp finish(const Shadow& shadow, PostedStamp& posted, int tag) {
    poll_until([&] { return arrived(shadow, posted) || take_behind(shadow, posted, tag); });
    posted.state = PostedStamp::State::None;
    return posted.entry.stamp;
  }

  // Gives the claimed stamp up: the receive completed without taking data (cancelled, or it
  // failed). A stamp it held goes to the next receive that claims it, as MPI gives the
  // message to the next matching receive.
  void abandon(const Shadow& shadow, PostedStamp& posted) {
    const Hold hold(*this);
    if (posted.state == PostedStamp::State::Held) {
      file_first(shadow, posted.entry);
    }
    unclaim(shadow, posted);
  }

  // Lets the claimed stamp go with a request the program freed while active: its receive
  // completes unseen, like the data's.
  void release(const Shadow& shadow, PostedStamp& posted) {
    const Hold hold(*this);
    unclaim(shadow, posted);
  }

  // A receive from MPI_ANY_SOURCE with `tag`, posted to MPI undecided (DeferredReceives): MPI
  // gives it the first message that matches, before any receive posted after it, and only its
  // completion tells which. Until it settles, the stamps it may take (those here now and those
  // to come) are held back from the receives posted after it: a receive from a named source
  // posted next claimed the stamp of the message the wildcard took, and then waited for one
  // that never came (docs/pmpi.md, "Stamps"). `marker` must not move until settled.
  void hold_back(const Shadow& shadow, int tag, PostedStamp& marker) {
    const Hold hold(*this);
    marker.entry = {MPI_ANY_SOURCE, tag, {}};
    marker.state = PostedStamp::State::Wildcard;
    StampInbox kept;
    for (std::size_t i = 0; i < shadow.inbox.size(); ++i) {
      (tag_matches(tag, shadow.inbox[i].tag) ? shadow.held_back : kept).add(shadow.inbox[i]);
    }
    shadow.inbox = std::move(kept);
    shadow.claims.push_back(&marker);
    wildcards_.fetch_add(1, std::memory_order_relaxed);
  }

  // The receive of `marker` completed, having taken the message from `source` with `tag`
  // (nullopt: none, it was cancelled or failed). Its stamp, the first from `source` it held back,
  // is then held in `marker` (finish gives it), and the stamps it held back go to the receives
  // posted after it, or to the inbox. False, with nothing done, while a receive from
  // MPI_ANY_SOURCE posted before it that may take a message with `tag` has not settled: MPI
  // gave that one the earlier message (so it has matched: one that may not take `tag` does
  // not hold this one up, as it may never match).
  bool settle(const Shadow& shadow, PostedStamp& marker, std::optional<int> source, int tag) {
    if (source && !first_wildcard(shadow, marker, tag)) {
      return false;
    }
    std::optional<PendingStamp> taken;
    if (source) {
      poll_until([&] { return (taken = take_held_back(shadow, *source, tag)).has_value(); });
    }
    const Hold hold(*this);
    unclaim(shadow, marker);
    if (taken) {
      marker.entry = *taken;
      marker.state = PostedStamp::State::Held;
    }
    return true;
  }

  // settle(), polling until the receives posted before `marker` have settled.
  void settle_in_turn(const Shadow& shadow, PostedStamp& marker, std::optional<int> source,
                      int tag) {
    poll_until([&] { return settle(shadow, marker, source, tag); });
  }

  // What settles the receives from MPI_ANY_SOURCE posted to MPI once they have matched (the
  // process's PendingWork): a receive waiting here for a stamp one of them holds back calls it
  // as it polls.
  class Settler {
  public:
    virtual void settle_matched() = 0;

  protected:
    ~Settler() = default;
  };
  void settled_by(Settler* settler) { settler_ = settler; }

  // Files every stamp that has arrived, from anyone (wildcard decisions).
  void drain() {
    const Hold hold(*this);
    adopt_orphans();
    mail_.collect_all([this](int sender, const StampMessage& message) { file(sender, message); });
  }

  // Per world rank below `counts.size()`, the stamps from it that wait in an inbox, claimed by
  // no posted receive. A blocking send whose receiver holds none of its sender's stamps
  // unclaimed (and has all of them) is held by a receive MPI will match: it ends without the
  // receiver doing more than driving MPI's progress. (Orphans, of communicators the receiver
  // has yet to make, are not counted: a proof that leans on this only ever holds back.)
  void count_unclaimed(std::span<std::uint64_t> counts) {
    const Hold hold(*this);
    std::fill(counts.begin(), counts.end(), 0);
    shadows_.for_each([&](const Shadow& shadow) {
      for (std::size_t i = 0; i < shadow.inbox.size(); ++i) {
        const int rank = shadow.world_rank_of(shadow.inbox[i].source);
        if (rank >= 0 && static_cast<std::size_t>(rank) < counts.size()) {
          ++counts[static_cast<std::size_t>(rank)];
        }
      }
    });
  }

  // The sender posts the receive of the reply before its data leaves.
  static void post_reply_receive(const Shadow& shadow, int dest, int tag, SyncReply& reply,
                                 MPI_Request& request) {
    PMPI_Irecv(&reply, sizeof reply, MPI_BYTE, dest, tag, shadow.duplicate, &request);
  }

  static void send_reply(const Shadow& shadow, int source, int tag, const vclock::Moment& post) {
    const SyncReply reply{post.vt, post.rt};
    PMPI_Send(&reply, sizeof reply, MPI_BYTE, source, tag, shadow.duplicate);
  }

private:
  static constexpr unsigned kPollsPerYield = 64;

  // A stamp that was sent is there within a few polls (between nodes, in flight), or once the
  // receive from MPI_ANY_SOURCE that holds it back has settled.
  template <typename Ready> void poll_until(Ready&& ready) {
    for (unsigned polls = 1; !ready(); ++polls) {
      if (polls % kPollsPerYield == 0) {
        if (settler_ != nullptr && wildcards_.load(std::memory_order_relaxed) != 0) {
          settler_->settle_matched();
        }
        sched_yield();
      }
    }
  }

  // Whether `posted` is a receive from MPI_ANY_SOURCE that may take what a receive with `tag`
  // may take.
  static bool wildcard_for(const PostedStamp* posted, int tag) {
    return posted->state == PostedStamp::State::Wildcard && tags_overlap(posted->entry.tag, tag);
  }

  // Whether a receive from MPI_ANY_SOURCE that may take a message with `tag` holds back stamps,
  // or a claim from `source` that may take such a message waits (behind one: a claim that does
  // not wait behind one has no stamp here it may take).
  static bool holds_back(const Shadow& shadow, int source, int tag) {
    return std::any_of(shadow.claims.begin(), shadow.claims.end(), [&](const PostedStamp* posted) {
      return wildcard_for(posted, tag) ||
             (posted->state == PostedStamp::State::Pending && posted->entry.source == source &&
              tags_overlap(posted->entry.tag, tag));
    });
  }

  // Whether no receive from MPI_ANY_SOURCE posted before `marker` may take a message with
  // `tag`.
  bool first_wildcard(const Shadow& shadow, const PostedStamp& marker, int tag) {
    const Hold hold(*this);
    const auto mine = std::find(shadow.claims.begin(), shadow.claims.end(), &marker);
    return std::none_of(shadow.claims.begin(), mine,
                        [&](const PostedStamp* posted) { return wildcard_for(posted, tag); });
  }

  // A claim that waits behind a receive from MPI_ANY_SOURCE (claim) while its own stamp is in
  // the inbox, its receive having taken a message with `tag`: it takes that stamp once no
  // unsettled wildcard posted before it may take `tag` (it would have taken the message). Its
  // message is then its source's first with `tag`, or, behind claims of the same source that
  // may take `tag`, the one they leave it (take_in_post_order). Otherwise the claim waited for
  // the wildcard to settle, which need never happen: `Irecv(MPI_ANY_SOURCE, 7)`,
  // `Irecv(1, MPI_ANY_TAG)`, a tag-9 message from rank 1 already here, `Wait` on the second hung
  // until a tag-7 message came (conformance.posted_wildcard.late-anytag).
  bool take_behind(const Shadow& shadow, PostedStamp& posted, int tag) {
    const Hold hold(*this);
    if (posted.state != PostedStamp::State::Pending || !tag_matches(posted.entry.tag, tag)) {
      return false;
    }
    const int source = posted.entry.source;
    const auto mine = std::find(shadow.claims.begin(), shadow.claims.end(), &posted);
    bool behind_its_source = false;
    for (auto it = shadow.claims.begin(); it != mine; ++it) {
      const PostedStamp& other = **it;
      if (!tag_matches(other.entry.tag, tag)) {
        continue;
      }
      if (other.state == PostedStamp::State::Wildcard) {
        return false;
      }
      behind_its_source = behind_its_source || other.entry.source == source;
    }
    if (behind_its_source) {
      return take_in_post_order(shadow, mine, tag);
    }
    const std::optional<PendingStamp> taken = take_filed(shadow, source, tag);
    if (!taken) {
      return false;
    }
    shadow.claims.erase(mine);
    posted.entry = *taken;
    posted.state = PostedStamp::State::Held;
    return true;
  }

  // The claims from the source of `*mine` up to it (claims behind a wildcard, none of which may
  // take the stamps in the inbox) take that source's stamps there as MPI matched their
  // receives: in post order, each the first whose tag it matches that no earlier one took.
  // Only when that gives `*mine` a stamp (with `tag`, its message's, once known), and no stamp
  // held back could have gone to one of them: a wildcard holding back a stamp they may take will
  // match and settle (it, or they, took that message), and the claims wait for it. Without this,
  // two claims from rank 1 with MPI_ANY_TAG behind `Irecv(MPI_ANY_SOURCE, 7)` with rank 1's two
  // tag-9 stamps here hung when the program waited for the second first: it waited for the
  // first, which waited for the wildcard (conformance.posted_wildcard.two-claims).
  bool take_in_post_order(const Shadow& shadow, std::vector<PostedStamp*>::iterator mine,
                          std::optional<int> tag) {
    const int source = (*mine)->entry.source;
    in_turn_.clear();
    const auto taken = [&](std::size_t index) {
      return std::any_of(in_turn_.begin(), in_turn_.end(),
                         [&](const InTurn& turn) { return turn.index == index; });
    };
    for (auto it = shadow.claims.begin(); it <= mine; ++it) {
      PostedStamp& claim = **it;
      if (claim.state != PostedStamp::State::Pending || claim.entry.source != source) {
        continue;
      }
      if (shadow.held_back.find(source, claim.entry.tag)) {
        break; // those before it keep what they found: MPI matched them first
      }
      std::optional<std::size_t> index = shadow.inbox.find(source, claim.entry.tag);
      while (index && taken(*index)) {
        index = shadow.inbox.find(source, claim.entry.tag, *index + 1);
      }
      if (index) {
        in_turn_.push_back({&claim, *index});
      }
    }
    const bool found = !in_turn_.empty() && in_turn_.back().claim == *mine;
    if (tag && (!found || shadow.inbox[in_turn_.back().index].tag != *tag)) {
      return false;
    }
    for (const InTurn& turn : in_turn_) {
      turn.claim->entry = shadow.inbox[turn.index];
      turn.claim->state = PostedStamp::State::Held;
      std::erase(shadow.claims, turn.claim);
    }
    // Highest index first: taking one moves those after it.
    std::sort(in_turn_.begin(), in_turn_.end(),
              [](const InTurn& a, const InTurn& b) { return a.index > b.index; });
    for (const InTurn& turn : in_turn_) {
      shadow.inbox.take(turn.index);
    }
    return found;
  }

  // After a wildcard settled, the claims that waited behind it take what their sources' stamps
  // in the inbox give them (take_in_post_order): nothing else looks for those stamps before the
  // program completes the claims' receives, and a Waitany ordering them by virtual arrival took
  // them for not arrived and waited for ever (a random mix of receives, docs/pmpi.md).
  void take_waiting_claims(const Shadow& shadow) {
    waiting_sources_.clear();
    for (auto it = shadow.claims.end(); it != shadow.claims.begin();) {
      --it;
      const PostedStamp& claim = **it;
      if (claim.state != PostedStamp::State::Pending ||
          std::find(waiting_sources_.begin(), waiting_sources_.end(), claim.entry.source) !=
              waiting_sources_.end()) {
        continue;
      }
      waiting_sources_.push_back(claim.entry.source);
      // The last waiting claim of its source: all of the source's up to it take their turn.
      const auto index = static_cast<std::size_t>(it - shadow.claims.begin());
      take_in_post_order(shadow, it, std::nullopt);
      it = shadow.claims.begin() +
           static_cast<std::ptrdiff_t>(std::min(index, shadow.claims.size()));
    }
  }

  // The first held-back stamp from `source` matching `tag`, if it has arrived.
  std::optional<PendingStamp> take_held_back(const Shadow& shadow, int source, int tag) {
    const Hold hold(*this);
    adopt_orphans();
    std::optional<std::size_t> index = shadow.held_back.find(source, tag);
    if (!index) {
      mail_.collect(shadow.world_rank_of(source), [&](int sender, const StampMessage& message) {
        file(sender, message);
        return (index = shadow.held_back.find(source, tag)).has_value();
      });
    }
    return index ? std::optional<PendingStamp>(shadow.held_back.take(*index)) : std::nullopt;
  }

  // The private functions below run under the lock (Hold).
  static std::optional<PendingStamp> take_filed(const Shadow& shadow, int source, int tag) {
    if (!shadow.inbox.empty()) {
      if (const auto index = shadow.inbox.find(source, tag)) {
        return shadow.inbox.take(*index);
      }
    }
    return std::nullopt;
  }

  void unclaim(const Shadow& shadow, PostedStamp& posted) {
    if (posted.state == PostedStamp::State::Pending) {
      std::erase(shadow.claims, &posted);
    } else if (posted.state == PostedStamp::State::Wildcard) {
      // What it held back goes to the receives after it, in the order it arrived.
      std::erase(shadow.claims, &posted);
      wildcards_.fetch_sub(1, std::memory_order_relaxed);
      StampInbox waiting;
      std::swap(waiting, shadow.held_back);
      for (std::size_t i = 0; i < waiting.size(); ++i) {
        deliver(shadow, waiting[i]);
      }
      take_waiting_claims(shadow);
    }
    posted.state = PostedStamp::State::None;
  }

  // Files what has arrived from peer `source` of `shadow` until a stamp from it matching `tag`
  // waits in the inbox (the later ones stay in their transport: StampMail::collect). Whether
  // one does.
  bool collect_until_filed(const Shadow& shadow, int source, int tag) {
    adopt_orphans();
    if (!shadow.inbox.empty() && shadow.inbox.find(source, tag)) {
      return true;
    }
    bool filed = false;
    mail_.collect(shadow.world_rank_of(source), [&](int sender, const StampMessage& message) {
      filed = (file(sender, message) == &shadow && message.source == source &&
               tag_matches(tag, message.tag)) ||
              filed;
      return filed;
    });
    return filed;
  }

  // A stamp from world rank `sender` taken out of its transport: its send time bounds the
  // sender's sends from below, and it is counted whatever becomes of it (a null message from
  // `sender` holds once every stamp sent before it has arrived). The communicator into whose
  // inbox it went, if it went to one.
  const Shadow* file(int sender, const StampMessage& message) {
    counts_.received(sender);
    bounds_.raise(sender, message.stamp.send_vt_ns);
    return place(message);
  }

  // The stamp goes to its communicator; one whose communicator this process has yet to create
  // waits (orphans), one of a communicator it freed is dropped. The communicator whose inbox
  // it went to, if not to a receive that claimed it.
  const Shadow* place(const StampMessage& message) {
    const Shadow* shadow = shadows_.find_by_id(message.communicator);
    if (shadow != nullptr && message.source >= 0 && message.source < shadow->peers) {
      return deliver(*shadow, {message.source, message.tag, message.stamp}) ? shadow : nullptr;
    }
    if (shadows_.future_id(message.communicator)) {
      orphans_.push_back(message);
    }
    return nullptr;
  }

  // Files the orphans again: their communicators may exist by now.
  void adopt_orphans() {
    if (orphans_.empty()) {
      return;
    }
    std::vector<StampMessage> waiting;
    waiting.swap(orphans_);
    for (const StampMessage& message : waiting) {
      place(message);
    }
  }

  enum class Filing { Claimed, HeldBack, Unclaimed };

  // To the first receive that claimed a stamp like it, else held back for a receive from
  // MPI_ANY_SOURCE posted before any that did, else to the end of the inbox (true).
  static bool deliver(const Shadow& shadow, const PendingStamp& entry) {
    switch (claim_for(shadow, entry)) {
    case Filing::Claimed:
      return false;
    case Filing::HeldBack:
      shadow.held_back.add(entry);
      return false;
    case Filing::Unclaimed:
      break;
    }
    shadow.inbox.add(entry);
    return true;
  }
  // The same for a stamp given back: it is again the first of its source.
  static void file_first(const Shadow& shadow, const PendingStamp& entry) {
    switch (claim_for(shadow, entry)) {
    case Filing::Claimed:
      return;
    case Filing::HeldBack:
      shadow.held_back.put_back(entry);
      return;
    case Filing::Unclaimed:
      shadow.inbox.put_back(entry);
    }
  }

  static Filing claim_for(const Shadow& shadow, const PendingStamp& entry) {
    for (auto it = shadow.claims.begin(); it != shadow.claims.end(); ++it) {
      PostedStamp& posted = **it;
      if (posted.state == PostedStamp::State::Wildcard) {
        if (tag_matches(posted.entry.tag, entry.tag)) {
          return Filing::HeldBack;
        }
      } else if (posted.entry.source == entry.source && tag_matches(posted.entry.tag, entry.tag)) {
        if (!shadow.held_back.empty() && shadow.held_back.find(entry.source, posted.entry.tag)) {
          // A wildcard before it may have taken the stamp held back, or this claim did: the
          // later stamp waits behind it (take_in_post_order).
          return Filing::HeldBack;
        }
        posted.entry = entry;
        posted.state = PostedStamp::State::Held;
        shadow.claims.erase(it);
        return Filing::Claimed;
      }
    }
    return Filing::Unclaimed;
  }

  StampMail& mail_;
  // Filing, the inboxes and the claims, while several threads may be in MPI (Hold).
  StampLock lock_;
  ShadowCommunicators shadows_;
  StampCounts counts_;
  SenderBounds bounds_;
  // Stamps of communicators this process has yet to make.
  std::vector<StampMessage> orphans_;
  // Receives from MPI_ANY_SOURCE posted to MPI that hold back stamps (hold_back), and what
  // settles them.
  std::atomic<unsigned> wildcards_{0};
  Settler* settler_ = nullptr;
  // take_in_post_order's scratch: which claim takes which inbox entry.
  struct InTurn {
    PostedStamp* claim;
    std::size_t index;
  };
  std::vector<InTurn> in_turn_;
  std::vector<int> waiting_sources_; // take_waiting_claims' scratch
};

} // namespace vcmon::runtime::mpi

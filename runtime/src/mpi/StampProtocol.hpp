// The wire protocol between the PMPI layers of two ranks (DESIGN.md §5):
//  - before the data of every point-to-point send to a real rank, a stamp (vclock::MessageStamp,
//    common time base) goes to the same destination with the same tag on the shadow `stamps`
//    communicator. It is small, hence eager, and travels ahead of the data, so a receiver can
//    see it by probing the shadow without pulling the data (wildcard decisions, issue 5);
//  - a blocking receive waits for its stamp before it lets PMPI take the data (it polls, so it
//    can answer the control channel meanwhile); a nonblocking one takes its stamp once the
//    data matched (its status names the actual source and tag). Either way it takes exactly
//    one stamp from that source with that tag: MPI's non-overtaking rule per (source,
//    communicator, tag) makes it the data's own stamp. Stamps a wildcard decision pulled
//    ahead wait in the shadow's inbox and are taken from there first;
//  - a stamp flagged kSynchronous (Ssend, Issend, Ssend_init) is answered with the receiver's
//    post time (SyncReply) on the shadow `replies` communicator, same tag, so that the sender
//    completes no earlier than its partner arrived in virtual time.
#pragma once

#include "mpi/CallerCounters.hpp"
#include "mpi/Layer.hpp"
#include "mpi/Moment.hpp"
#include "mpi/PostedStamp.hpp"
#include "mpi/SenderBounds.hpp"
#include "mpi/ShadowCommunicators.hpp"
#include "mpi/StampCounts.hpp"

#include "vcmon/vclock/MessageStamp.hpp"
#include "vcmon/vclock/VirtualClock.hpp"

#include <mpi.h>

#include <cstdint>
#include <optional>

namespace vcmon::runtime::mpi {

inline constexpr std::uint32_t kSynchronous = 1u;

// The receiver's post moment, answering a synchronous send.
struct SyncReply {
  std::uint64_t post_vt = 0;
  std::uint64_t post_rt = 0;
};

class StampProtocol {
public:
  // Bytes of the message when PMPI will certainly accept the send's arguments, else nullopt:
  // a send that fails must not leave a stamp behind, and a bad rank or tag must reach the
  // user's error handler from PMPI, never from the layer.
  template <typename Count>
  static std::optional<std::uint64_t> checked_bytes(const Shadow& shadow, Count count,
                                                    MPI_Datatype datatype, int dest, int tag) {
    if (count < 0 || datatype == MPI_DATATYPE_NULL || dest < 0 || dest >= shadow.peers || tag < 0 ||
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
    return count >= 0 && datatype != MPI_DATATYPE_NULL &&
           (source == MPI_ANY_SOURCE || source == MPI_PROC_NULL ||
            (source >= 0 && source < shadow.peers)) &&
           (tag == MPI_ANY_TAG || (tag >= 0 && tag <= Layer::tag_ub()));
  }

  // The stamp shows the send time on `clock`: never earlier than a time this process showed
  // before (its stamps, its state replies, its null messages' bounds), which receivers took
  // as a bound on its sends.
  // Counted before it leaves: the data follows the stamp as soon as it has left, and its
  // receiver waits for the data from the moment it sees the stamp.
  static void send_stamp(vclock::VirtualClock& clock, const Shadow& shadow, int dest, int tag,
                         vclock::MessageStamp stamp) {
    stamp.send_vt_ns = clock.show(stamp.send_vt_ns);
    CallerCounters::increment(shadow.sent_to[static_cast<std::size_t>(dest)]);
    StampCounts::sent(shadow.world_rank_of(dest));
    PMPI_Send(&stamp, sizeof stamp, MPI_BYTE, dest, tag, shadow.stamps);
  }

  // The stamp from `source` matching `tag` that a wildcard decision pulled ahead, if any.
  static std::optional<PendingStamp> take_pulled(const Shadow& shadow, int source, int tag) {
    if (!shadow.inbox.empty()) {
      if (const auto index = shadow.inbox.find(source, tag)) {
        return shadow.inbox.take(*index);
      }
    }
    return std::nullopt;
  }

  // Posts the receive of the next stamp from `source` matching `tag` into `entry` (no stamp of
  // theirs may wait in the inbox); received() once `request` completed with `status`.
  static void post_receive(const Shadow& shadow, int source, int tag, PendingStamp& entry,
                           MPI_Request& request) {
    PMPI_Irecv(&entry.stamp, sizeof entry.stamp, MPI_BYTE, source, tag, shadow.stamps, &request);
  }
  static void received(const Shadow& shadow, PendingStamp& entry, const MPI_Status& status) {
    entry.source = status.MPI_SOURCE;
    entry.tag = status.MPI_TAG;
    counted(shadow, entry);
  }

  // Whether the sender of the next message from `source` matching `tag` has sent it.
  static bool present(const Shadow& shadow, int source, int tag) {
    if (!shadow.inbox.empty() && shadow.inbox.find(source, tag)) {
      return true;
    }
    int found = 0;
    PMPI_Iprobe(source, tag, shadow.stamps, &found, MPI_STATUS_IGNORE);
    return found != 0;
  }

  // Once the data from `source` with `tag` matched: its stamp, waiting if needed (it was sent
  // before the data, or right after a buffered send's data).
  static vclock::MessageStamp take(const Shadow& shadow, int source, int tag) {
    if (!shadow.inbox.empty()) {
      if (const auto index = shadow.inbox.find(source, tag)) {
        return shadow.inbox.take(*index).stamp;
      }
    }
    return receive(shadow, source, tag).stamp;
  }

  // Claims the stamp of a nonblocking receive from `source` (not MPI_ANY_SOURCE) with `tag`,
  // just posted: the first such stamp in the inbox, else the next from MPI (its receive is
  // posted now, behind those of earlier receives). `posted` must not move until finished.
  static void claim(const Shadow& shadow, int source, int tag, PostedStamp& posted) {
    if (const auto pulled = take_pulled(shadow, source, tag)) {
      posted.entry = *pulled;
      posted.state = PostedStamp::State::Held;
      return;
    }
    posted.entry = {source, tag, {}};
    post_receive(shadow, source, tag, posted.entry, posted.request);
    posted.state = PostedStamp::State::Pending;
  }

  // Whether the claimed stamp has arrived (a completion deciding by virtual time looks).
  static bool arrived(const Shadow& shadow, PostedStamp& posted) {
    if (posted.state == PostedStamp::State::Pending) {
      int done = 0;
      MPI_Status status;
      PMPI_Test(&posted.request, &done, &status);
      if (!done) {
        return false;
      }
      received(shadow, posted.entry, status);
      posted.state = PostedStamp::State::Held;
    }
    return posted.state == PostedStamp::State::Held;
  }

  // The claimed stamp, once the receive took its data (sent after the stamp: waits if needed).
  static vclock::MessageStamp finish(const Shadow& shadow, PostedStamp& posted) {
    if (posted.state == PostedStamp::State::Pending) {
      MPI_Status status;
      PMPI_Wait(&posted.request, &status);
      received(shadow, posted.entry, status);
    }
    posted.state = PostedStamp::State::None;
    return posted.entry.stamp;
  }

  // Gives the claimed stamp up: the receive completed without taking data (cancelled, or it
  // failed). A stamp already taken from MPI is again the first of its source.
  static void abandon(const Shadow& shadow, PostedStamp& posted) {
    bool taken = posted.state == PostedStamp::State::Held;
    if (posted.state == PostedStamp::State::Pending) {
      MPI_Status status;
      PMPI_Cancel(&posted.request);
      PMPI_Wait(&posted.request, &status);
      int cancelled = 0;
      PMPI_Test_cancelled(&status, &cancelled);
      if (!cancelled) {
        received(shadow, posted.entry, status);
        taken = true;
      }
    }
    if (taken) {
      shadow.inbox.put_back(posted.entry);
    }
    posted.state = PostedStamp::State::None;
  }

  // Lets the claimed stamp go with a request the program freed while active: its receive
  // completes unseen, like the data's.
  static void release(PostedStamp& posted) {
    if (posted.state == PostedStamp::State::Pending) {
      PMPI_Request_free(&posted.request);
    }
    posted.state = PostedStamp::State::None;
  }

  // Pulls every stamp that has arrived on the shadow into its inbox (wildcard decisions).
  static void drain(const Shadow& shadow) {
    for (;;) {
      int found = 0;
      MPI_Message message = MPI_MESSAGE_NULL;
      MPI_Status status;
      PMPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, shadow.stamps, &found, &message, &status);
      if (!found) {
        return;
      }
      shadow.inbox.add(receive(shadow, message, status));
    }
  }

  // The sender posts the receive of the reply before its data leaves.
  static void post_reply_receive(const Shadow& shadow, int dest, int tag, SyncReply& reply,
                                 MPI_Request& request) {
    PMPI_Irecv(&reply, sizeof reply, MPI_BYTE, dest, tag, shadow.replies, &request);
  }

  static void send_reply(const Shadow& shadow, int source, int tag, const Moment& post) {
    const SyncReply reply{post.vt, post.rt};
    PMPI_Send(&reply, sizeof reply, MPI_BYTE, source, tag, shadow.replies);
  }

private:
  static PendingStamp receive(const Shadow& shadow, MPI_Message& message,
                              const MPI_Status& status) {
    PendingStamp entry{status.MPI_SOURCE, status.MPI_TAG, {}};
    PMPI_Mrecv(&entry.stamp, sizeof entry.stamp, MPI_BYTE, &message, MPI_STATUS_IGNORE);
    counted(shadow, entry);
    return entry;
  }

  // Receives the next stamp from `source` with `tag`.
  static PendingStamp receive(const Shadow& shadow, int source, int tag) {
    PendingStamp entry{source, tag, {}};
    MPI_Status status;
    PMPI_Recv(&entry.stamp, sizeof entry.stamp, MPI_BYTE, source, tag, shadow.stamps, &status);
    entry.tag = status.MPI_TAG;
    counted(shadow, entry);
    return entry;
  }

  // A stamp taken out of MPI: its send time bounds its sender's sends from below.
  static void counted(const Shadow& shadow, const PendingStamp& entry) {
    CallerCounters::increment(shadow.received_from[static_cast<std::size_t>(entry.source)]);
    const int sender = shadow.world_rank_of(entry.source);
    StampCounts::received(sender);
    SenderBounds::raise(sender, entry.stamp.send_vt_ns);
  }
};

} // namespace vcmon::runtime::mpi

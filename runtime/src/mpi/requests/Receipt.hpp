// The receiving end of the stamp protocol: once a receive matched its data, take the stamp,
// answer a synchronous sender, record the communication and compute where the clock goes on.
#pragma once

#include "mpi/clock/ClockUpdate.hpp"
#include "mpi/stamps/ShadowCommunicators.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "vcmon/vclock/Moment.hpp"

#include "core/Monitor.hpp"

#include "vcmon/vclock/MessageStamp.hpp"

#include <mpi.h>

#include <cstdint>

namespace vcmon::runtime::mpi {

// A receive as posted: its statement, communicator and post moment, and for a nonblocking one
// the posting call's own time (the completion call holds the rest) and its statement's calling
// context, which its record joins at completion.
struct ReceivePost {
  tables::SiteId site;
  const Shadow& shadow;
  vclock::Moment post;
  std::uint64_t own_ns = 0;
  StatementContext context{};
};

// Where a receive ended: in a call entered at `call` that returned at real time `end_rt`,
// with `error`; `status` names the actual source and tag.
struct ReceiveEnd {
  vclock::Moment call;
  std::uint64_t end_rt;
  int error;
  const MPI_Status& status;
};

class Receipt {
public:
  // Whether a blocking receive that returned `error` and `status` consumed a message, hence
  // its stamp: it succeeded or truncated, and was not from MPI_PROC_NULL.
  static bool consumed_message(int error, const MPI_Status& status);
  // The same for a request that completed: also, it was not cancelled.
  static bool consumed_request(int error, const MPI_Status& status);

  // The receive `posted` completed as `end` says. `stamp`: the message's stamp when the
  // receive already took it, else nullptr (taken here). `record`: the com record, if found
  // before the data arrived (else found here). In a completion call (`update.ledger`) the
  // posting call's record gets its own time and the message, the completion call the waiting
  // (CompletionLedger).
  static void taken(Monitor& monitor, StampProtocol& stamps, const ReceivePost& posted,
                    const ReceiveEnd& end, ClockUpdate& update,
                    const vclock::MessageStamp* stamp = nullptr,
                    const ProbeCore::ComRecordRef* record = nullptr);

  // A receive the program freed while active completed unseen (nobody waited for it, no clock
  // moves), with `error` and `status`: takes its stamp (`stamp` when already taken), answers a
  // synchronous sender and counts the message.
  static void unseen(Monitor& monitor, StampProtocol& stamps, const ReceivePost& posted, int error,
                     const MPI_Status& status, const vclock::MessageStamp* stamp = nullptr);
};

} // namespace vcmon::runtime::mpi

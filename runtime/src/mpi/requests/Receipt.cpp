#include "mpi/requests/Receipt.hpp"

#include "mpi/requests/CompletionLedger.hpp"
#include "mpi/stamps/StampProtocol.hpp"

#include "vcmon/vclock/MessageStamp.hpp"

namespace vcmon::runtime::mpi {

namespace {

// The bytes the sender sent (its stamp says) arrived unless the receive truncated them: then
// the status has what arrived (one library call fewer on every message).
std::uint64_t received_bytes(int error, const MPI_Status& status,
                             const vclock::MessageStamp& stamp) {
  if (error == MPI_SUCCESS) {
    return stamp.bytes;
  }
  MPI_Count bytes = 0;
  PMPI_Get_count_c(&status, MPI_BYTE, &bytes);
  return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
}

} // namespace

bool Receipt::consumed_message(int error, const MPI_Status& status) {
  if (error != MPI_SUCCESS) {
    int error_class = MPI_SUCCESS;
    PMPI_Error_class(error, &error_class);
    if (error_class != MPI_ERR_TRUNCATE) {
      return false;
    }
  }
  return status.MPI_SOURCE >= 0; // else MPI_PROC_NULL, or a status MPI left untouched
}

bool Receipt::consumed_request(int error, const MPI_Status& status) {
  if (!consumed_message(error, status)) {
    return false;
  }
  int cancelled = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  return cancelled == 0;
}

namespace {

vclock::MessageStamp answered(StampProtocol& stamps, const Shadow& shadow,
                              const vclock::Moment& post, const MPI_Status& status,
                              const vclock::MessageStamp* taken_stamp) {
  const vclock::MessageStamp stamp = taken_stamp != nullptr
                                         ? *taken_stamp
                                         : stamps.take(shadow, status.MPI_SOURCE, status.MPI_TAG);
  if (stamp.flags & kSynchronous) {
    StampProtocol::send_reply(shadow, status.MPI_SOURCE, status.MPI_TAG, post);
  }
  return stamp;
}

} // namespace

void Receipt::unseen(Monitor& monitor, StampProtocol& stamps, const ReceivePost& posted, int error,
                     const MPI_Status& status, const vclock::MessageStamp* taken_stamp) {
  const Shadow& shadow = posted.shadow;
  const vclock::MessageStamp stamp = answered(stamps, shadow, posted.post, status, taken_stamp);
  Monitor::add_com(
      monitor.com_record(posted.site, shadow.world_rank_of(status.MPI_SOURCE), posted.context), 0,
      0, received_bytes(error, status, stamp));
}

void Receipt::taken(Monitor& monitor, StampProtocol& stamps, const ReceivePost& posted,
                    const ReceiveEnd& end, ClockUpdate& update,
                    const vclock::MessageStamp* taken_stamp,
                    const ProbeCore::ComRecordRef* record) {
  const vclock::MessageStamp stamp =
      seen_by(answered(stamps, posted.shadow, posted.post, end.status, taken_stamp), end.end_rt);
  const vclock::Moment sender{stamp.send_vt_ns, stamp.send_rt_ns};
  const std::uint64_t transfer = transfer_ns(end.call, sender, end.end_rt);
  const vclock::ReceiveTiming timing = vclock::receive_timing(end.call.vt, stamp, transfer);
  const std::int32_t partner = posted.shadow.world_rank_of(end.status.MPI_SOURCE);
  const std::uint64_t bytes = received_bytes(end.error, end.status, stamp);
  if (update.ledger != nullptr) {
    Monitor::add_com(monitor.com_record(posted.site, partner, posted.context), posted.own_ns, 0,
                     bytes);
    update.ledger->add_timed(partner, end.call.vt + timing.sync_delay_ns);
  } else {
    Monitor::add_com(record != nullptr ? *record : monitor.com_record(posted.site, partner),
                     transfer, timing.sync_delay_ns, bytes);
  }
  update.include(completion_vt(end.call, sender, end.end_rt));
}

} // namespace vcmon::runtime::mpi

#include "mpi/control/MpiControlTransport.hpp"

#include "core/Log.hpp"
#include "mpi/control/ControlMessages.hpp"
#include "mpi/layer/PrivateWorld.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

MpiControlTransport::MpiControlTransport(MPI_Comm comm, int world_size,
                                         std::atomic<std::uint64_t>& sent)
    : comm_(comm), sent_(sent) {
  posted(Kind::NullMessage).open(comm, kNullMessageTag, kNullMessageWords);
  posted(Kind::StateRequest).open(comm, kStateRequestTag, max_request_words(world_size));
  posted(Kind::StateReply).open(comm, kStateReplyTag, max_reply_words(world_size));
}

int MpiControlTransport::tag_of(Kind kind) {
  switch (kind) {
  case Kind::StateRequest:
    return kStateRequestTag;
  case Kind::StateReply:
    return kStateReplyTag;
  case Kind::NullMessage:
    break;
  }
  return kNullMessageTag;
}

void MpiControlTransport::send(Kind kind, int rank, std::span<const std::uint64_t> words) {
  PMPI_Send(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, rank, tag_of(kind), comm_);
  sent_.fetch_add(1, std::memory_order_relaxed);
}

int MpiControlTransport::next(Kind kind, std::span<const std::uint64_t>& words) {
  return posted(kind).next(words);
}

void MpiControlTransport::start_last_exchange(std::span<const std::uint64_t> told,
                                              std::span<std::uint64_t> heard,
                                              const std::uint64_t& mine, std::uint64_t& latest) {
  PMPI_Ireduce_scatter_block(told.data(), heard.data(), static_cast<int>(heard.size()),
                             MPI_UINT64_T, MPI_SUM, comm_, &last_exchange_[0]);
  PMPI_Iallreduce(&mine, &latest, 1, MPI_UINT64_T, MPI_MAX, comm_, &last_exchange_[1]);
}

bool MpiControlTransport::last_exchange_done() {
  int done = 0;
  PMPI_Testall(static_cast<int>(last_exchange_.size()), last_exchange_.data(), &done,
               MPI_STATUSES_IGNORE);
  return done != 0;
}

void MpiControlTransport::close() {
  for (PostedReceive& receive : posted_) {
    if (!receive.close()) {
      log_line(LogLevel::Error, "internal error: a control message arrived after the last "
                                "exchange at MPI_Finalize");
    }
  }
  for (const Kind kind : {Kind::StateRequest, Kind::StateReply, Kind::NullMessage}) {
    int flag = 0;
    MPI_Status status;
    PMPI_Iprobe(MPI_ANY_SOURCE, tag_of(kind), comm_, &flag, &status);
    if (flag) {
      log_line(LogLevel::Error,
               "internal error: a control message (tag %d from rank %d) is left "
               "unmatched at MPI_Finalize",
               status.MPI_TAG, status.MPI_SOURCE);
    }
  }
}

void MpiControlTransport::PostedReceive::open(MPI_Comm comm, int tag, std::size_t max_words) {
  buffer_.assign(max_words, 0);
  received_.reserve(max_words);
  PMPI_Recv_init(buffer_.data(), static_cast<int>(max_words), MPI_UINT64_T, MPI_ANY_SOURCE, tag,
                 comm, &request_);
  PMPI_Start(&request_);
}

int MpiControlTransport::PostedReceive::next(std::span<const std::uint64_t>& words) {
  if (request_ == MPI_REQUEST_NULL) {
    return -1;
  }
  int flag = 0;
  MPI_Status status;
  PMPI_Test(&request_, &flag, &status);
  if (!flag) {
    return -1;
  }
  int count = 0;
  PMPI_Get_count(&status, MPI_UINT64_T, &count);
  received_.assign(buffer_.begin(), buffer_.begin() + std::max(count, 0));
  PMPI_Start(&request_);
  words = received_;
  return status.MPI_SOURCE;
}

bool MpiControlTransport::PostedReceive::close() {
  if (request_ == MPI_REQUEST_NULL) {
    return true;
  }
  MPI_Status status;
  PMPI_Cancel(&request_);
  PMPI_Wait(&request_, &status);
  PMPI_Request_free(&request_);
  int cancelled = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  return cancelled != 0;
}

} // namespace vcmon::runtime::mpi

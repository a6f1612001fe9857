// The control channel's transport over MPI: point-to-point messages on the layer's private world
// (PrivateWorld), one tag per kind, each kind received through a receive from MPI_ANY_SOURCE
// kept posted; the last exchange an MPI_Ialltoall.
#pragma once

#include "mpi/control/ControlTransport.hpp"

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vcmon::runtime::mpi {

class MpiControlTransport final : public ControlTransport {
public:
  // Posts the receives on `comm`, a duplicate of MPI_COMM_WORLD of `world_size` ranks; counts
  // every message sent in `sent` (the profile's control_messages).
  MpiControlTransport(MPI_Comm comm, int world_size, std::atomic<std::uint64_t>& sent);

  void send(Kind kind, int rank, std::span<const std::uint64_t> words) override;
  int next(Kind kind, std::span<const std::uint64_t>& words) override;
  void start_last_exchange(std::span<const std::uint64_t> told, std::span<std::uint64_t> heard,
                           const std::uint64_t& mine, std::uint64_t& latest) override;
  bool last_exchange_done() override;
  void close() override;

private:
  // A receive of one kind of message from any rank, kept posted (persistent) and tested.
  // Probing for it with MPI_ANY_SOURCE instead made MPICH over UCX search every unexpected
  // message of the process, the program's own included, at every poll: a rank lagging 40 000
  // eager messages behind its sender ran 250 times slower monitored.
  class PostedReceive {
  public:
    // Posts the receive; `max_words`: the longest message of its kind.
    void open(MPI_Comm comm, int tag, std::size_t max_words);
    // ControlTransport::next for its kind.
    int next(std::span<const std::uint64_t>& words);
    // Withdraws the receive; false when a message had matched it after all, which is then lost.
    bool close();

  private:
    std::vector<std::uint64_t> buffer_;   // MPI writes here while the receive is posted
    std::vector<std::uint64_t> received_; // the last message, copied out before reposting
    MPI_Request request_ = MPI_REQUEST_NULL;
  };

  static int tag_of(Kind kind);
  PostedReceive& posted(Kind kind) { return posted_[static_cast<std::size_t>(kind)]; }

  MPI_Comm comm_;
  std::atomic<std::uint64_t>& sent_;
  std::array<PostedReceive, 3> posted_; // by Kind
  std::array<MPI_Request, 2> last_exchange_{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

} // namespace vcmon::runtime::mpi

// The requests MPICH's MPI_Testall mishandles, which a Waitall therefore never polls it over
// (CompletionWrappers.cpp): generalized requests, those the program started itself
// (MPI_Grequest_start; not MPICH's extension MPIX_Grequest_start, which libvcmon does not
// export) and MPI-IO's nonblocking ones (ROMIO starts them as generalized requests), and
// partitioned ones (MPI_Psend_init, MPI_Precv_init). MPICH 4.0's
// Testall runs a query_fn twice where MPI_Waitall runs it once; over two ROMIO requests it
// failed an assertion on their reference counts and aborted; over an active partitioned send
// and receive it failed with MPI_ERR_IN_STATUS, and the program's handler aborted.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <span>
#include <unordered_set>

namespace vcmon::runtime::mpi {

class TestallUnsafeRequests {
public:
  // The process's.
  static TestallUnsafeRequests& process();

  // The program started `request`.
  void started(MPI_Request request);
  // A completion call or MPI_Request_free freed `request`, which MPI may now give to any other
  // request.
  void freed(MPI_Request request) {
    if (any_.load(std::memory_order_acquire)) {
      forget(request);
    }
  }
  // Whether one of `requests` may be one of them. A handle whose end the layer did not see
  // (Waitany, Waitsome, Test*) stays here, and a request MPI gives it later counts as one too:
  // that Waitall then blocks in MPI, as every Waitall over requests the layer does not track
  // did before.
  bool among(std::span<const MPI_Request> requests);

private:
  // Beyond, every request may be one.
  static constexpr std::size_t kCapacity = 4096;

  void forget(MPI_Request request);

  std::atomic<bool> any_{false};
  bool full_ = false;
  std::mutex lock_;
  std::unordered_set<MPI_Request> started_;
};

} // namespace vcmon::runtime::mpi

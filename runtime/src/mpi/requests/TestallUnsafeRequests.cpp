#include "mpi/requests/TestallUnsafeRequests.hpp"

#include <algorithm>

namespace vcmon::runtime::mpi {

TestallUnsafeRequests& TestallUnsafeRequests::process() {
  // Never destroyed: a completion call may ask during the program's static destructors.
  static auto* requests = new TestallUnsafeRequests;
  return *requests;
}

void TestallUnsafeRequests::started(MPI_Request request) {
  const std::lock_guard guard(lock_);
  if (started_.size() < kCapacity) {
    started_.insert(request);
  } else {
    full_ = true;
  }
  any_.store(true, std::memory_order_release);
}

void TestallUnsafeRequests::forget(MPI_Request request) {
  const std::lock_guard guard(lock_);
  started_.erase(request);
}

bool TestallUnsafeRequests::among(std::span<const MPI_Request> requests) {
  if (!any_.load(std::memory_order_acquire)) {
    return false;
  }
  const std::lock_guard guard(lock_);
  return full_ || std::ranges::any_of(
                      requests, [&](MPI_Request request) { return started_.contains(request); });
}

} // namespace vcmon::runtime::mpi

// This process's part of the running job: the job id every rank agreed on at MPI_Init and
// the live publisher, if any.
#pragma once

#include "query/LivePublisher.hpp"

#include <cstdint>

namespace vcmon::runtime::query {

struct __attribute__((visibility("hidden"))) LiveJob {
  std::uint64_t job_id = 0; // MPI_COMM_WORLD rank 0's pid; 0 before MPI_Init
  LivePublisher* publisher = nullptr;
};

// The process's one instance, guarded by live_job_mutex().
LiveJob& live_job();
std::mutex& live_job_mutex();
// After each publication: asks every thread to settle its open activations at its next MPI
// call (settle_if_published).
void note_publication();

} // namespace vcmon::runtime::query

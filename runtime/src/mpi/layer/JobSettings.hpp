// The settings every rank of a job must share, because the ranks act on them together: whether
// the job is monitored at all (a monitored rank waits in the layer's start-up collectives, which
// an unmonitored one never joins), the waiting-cycle strategy (VCMON_DEADLOCK: one kind of
// control message for all) and how the profile is written (VCMON_PROFILE_IO: collective). A
// launcher that set one of them for some ranks only (`mpiexec -n 1 ./a : -n 1 -env
// VCMON_DISABLE 1 ./a`) hung the job. Now every rank whose process has libvcmon, monitored or
// not, agrees on them first thing after PMPI_Init; where they differ, rank 0 says so and every
// rank takes the same value: no monitoring if any rank has VCMON_DISABLE=1, else the default
// (docs/runtime.md, "Settings the ranks must share").
#pragma once

#include "core/Monitor.hpp"

namespace vcmon::runtime::mpi {

// Collective over MPI_COMM_WORLD (one reduction), right after PMPI_Init, before the layer uses
// MPI. Adopts the agreed settings into `monitor`; returns whether the job is monitored.
bool agree_on_job_settings(Monitor& monitor);

} // namespace vcmon::runtime::mpi

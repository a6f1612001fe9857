// What the core tells the services built on top of it (the live query interface) without
// knowing them, as Caliper's channel events: a service subscribes its handlers once, from a
// static initialiser of its own, and the core calls every subscriber at each event. The core
// thus includes nothing of mpi/ or query/.
#pragma once

#include "vcmon/tables/Records.hpp"

namespace vcmon::runtime {

class Monitor;

struct MonitorEvents {
  // After PMPI_Init, on every rank, as a collective on MPI_COMM_WORLD.
  void (*mpi_started)(Monitor& monitor) = nullptr;
  // Before MPI_Finalize's gather, at MPI_Abort and at exit; may come more than once.
  void (*mpi_ending)() = nullptr;
  // Records just collected for a profile, which a service may take from (MPI_Pcontrol).
  void (*records_collected)(tables::RankRecords& records) = nullptr;

  // Adds a subscriber; at most kMaxSubscribers, called in the order they subscribed. Only
  // from static initialisers (no lock: nothing else runs yet).
  static void subscribe(const MonitorEvents& events);

  static void raise_mpi_started(Monitor& monitor);
  static void raise_mpi_ending();
  static void raise_records_collected(tables::RankRecords& records);

  static constexpr int kMaxSubscribers = 4;
};

} // namespace vcmon::runtime

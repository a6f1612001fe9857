// One profile of every rank's records, written by the ranks together (docs/runtime.md, "Writing
// the profile"): each rank encodes its own records and writes them at its own offset
// (MPI_Exscan of the 64-bit sizes, MPI_File_iwrite_at_all), rank 0 writes the head and the rank
// index before them, and the job's summary, reduced up a binomial tree of ranks
// (ProfileReductions.hpp), after them. Where MPI-IO cannot open the file, or
// VCMON_PROFILE_IO=gather, rank 0 collects the ranks' records in turn (RecordsInTurn.hpp) and
// writes them itself. Rank 0's memory holds its own records, the head, the summary and 40 bytes
// a rank, not the job's records.
#pragma once

#include "core/Config.hpp"
#include "vcmon/tables/Profile.hpp"

#include <mpi.h>

#include <filesystem>
#include <optional>
#include <string>

namespace vcmon::runtime {

struct ProfileDestination {
  // Absolute (Config resolves VCMON_OUTPUT at start-up): every rank opens the file by this
  // name, whatever its working directory now.
  std::filesystem::path dir;
  std::string stem;    // the name is dir/<stem>.vcmon, or the first free dir/<stem>-N.vcmon
  bool name_it = true; // false: written, then discarded (a partial profile took its place)
};

// Collective over `comm` (the layer's private world), with PMPI calls only. Every rank passes
// its records and the program graph (each rank's own, which names the sites of its records);
// rank 0 also passes the run's metadata (its hosts are filled in here) and the destination,
// which the others' are not read. Returns the file's name on rank 0
// when it was written and named; nothing otherwise (rank 0 logged why).
std::optional<std::filesystem::path>
write_profile_collectively(MPI_Comm comm, ProfileIo io, const tables::RankRecords& mine,
                           tables::RunMetadata meta, const tables::ProgramGraph& graph,
                           const ProfileDestination& destination);

} // namespace vcmon::runtime

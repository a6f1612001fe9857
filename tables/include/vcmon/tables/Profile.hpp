// The profile file: run metadata, the merged static tables and every rank's dynamic records.
// Format: docs/profile-format.md.
#pragma once

#include "vcmon/tables/ProgramGraph.hpp"
#include "vcmon/tables/Records.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vcmon::tables {

struct ClockCalibration {
  std::string source; // "tsc" or "clock_gettime"
  double ticks_per_ns = 1.0;
  std::uint64_t probe_cost_ns = 0; // calibrated constant charged per probe
  bool operator==(const ClockCalibration&) const = default;
};

struct RunMetadata {
  std::string command; // argv joined by spaces
  std::int32_t ranks = 0;
  std::vector<std::string> hosts; // distinct host names
  std::int64_t start_unix_ns = 0;
  std::int64_t end_unix_ns = 0;
  ClockCalibration clock;
  bool partial = false; // written on abort, signal or exit without Finalize
  std::string partial_reason;
  std::uint32_t activation_depth = 0; // frames of a thread's activation stack; 0: unknown (v1)
  bool operator==(const RunMetadata&) const = default;
};

struct Profile {
  RunMetadata meta;
  ProgramGraph graph;
  std::vector<RankRecords> ranks; // sorted by rank
  bool operator==(const Profile&) const = default;
};

// Every problem reading a profile: truncated, corrupt, foreign or newer-version files.
class ProfileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// 2 added the folded activations, 3 the message sizes of com records, 4 how sites were probed,
// 5 the com records' shorter sizes, 6 the rank index and the calling contexts, 7 the optional
// summary (docs/profile-format.md, "Versioning"); every older version is still read.
inline constexpr std::uint32_t kProfileVersion = 7;

struct JobSummary; // JobSummary.hpp

// Throws std::invalid_argument for a profile decode_profile would reject (a record naming a
// site of another kind, a partner or rank outside meta.ranks, ranks not sorted and distinct).
// With `summary`, the profile ends with it as its summary section (what the runtime writes
// after reducing it over the ranks: JobSummary.hpp).
std::vector<std::byte> encode_profile(const Profile& profile, const JobSummary* summary = nullptr);
Profile decode_profile(std::span<const std::byte> bytes); // throws ProfileError

// One rank's records on their own, so ranks can gather them to the writer.
std::vector<std::byte> encode_rank_records(const RankRecords& records);
RankRecords decode_rank_records(std::span<const std::byte> bytes); // throws ProfileError

// Both write a temporary beside the target first (WholeFile.hpp): a reader never sees half a
// file, a killed writer never leaves an empty or partial profile under the name. They throw
// ProfileError when the file cannot be written (the message names the path).
// Replaces the file `path`.
void write_profile_file(const Profile& profile, const std::filesystem::path& path,
                        const JobSummary* summary = nullptr);
// A new file `dir/<stem>.vcmon`, or `dir/<stem>-N.vcmon` for the first free N; never replaces
// a file. Returns its path.
std::filesystem::path write_new_profile_file(const Profile& profile,
                                             const std::filesystem::path& dir,
                                             std::string_view stem);
// The whole profile in memory; ProfileReader reads one rank at a time.
Profile read_profile_file(const std::filesystem::path& path); // throws ProfileError

} // namespace vcmon::tables

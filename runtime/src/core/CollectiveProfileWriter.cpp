#include "core/CollectiveProfileWriter.hpp"

#include "core/FileErrorsReturned.hpp"
#include "core/Log.hpp"
#include "core/ProfileReductions.hpp"
#include "core/RecordsInTurn.hpp"
#include "core/YieldingCompletion.hpp"

#include "vcmon/tables/ProfileParts.hpp"
#include "vcmon/tables/WholeFile.hpp"

#include <algorithm>
#include <memory>
#include <system_error>
#include <vector>

namespace vcmon::runtime {
namespace {

// Counts are ints in MPI: each collective write moves at most this much per rank.
constexpr std::uint64_t kMaxWriteBytes = std::uint64_t{1} << 30;

bool all_agree(MPI_Comm comm, bool mine) {
  int all = mine ? 1 : 0;
  yielding(PMPI_Iallreduce, MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, comm);
  return all != 0;
}

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  PMPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

// Rank 0's temporary file, whose path every rank learns (empty when it could not be made).
std::string share_temporary_path(MPI_Comm comm, const tables::IncompleteFile* file) {
  std::string path = file != nullptr ? file->path() : std::string();
  std::uint64_t length = path.size();
  yielding(PMPI_Ibcast, &length, 1, MPI_UINT64_T, 0, comm);
  path.resize(length);
  yielding(PMPI_Ibcast, path.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
  return path;
}

// Every rank writes `bytes` at `offset` of the file `path`, collectively; false on every rank
// when any rank could not (then `problem` says why on rank 0, where it is logged).
bool write_with_mpi_io(MPI_Comm comm, const std::string& path, std::uint64_t offset,
                       std::span<const std::byte> bytes, std::string& problem) {
  // A file opens with the error handler of MPI_FILE_NULL, which the program may have made
  // fatal: the monitor's file must return its errors (to fall back) whatever the program chose,
  // and the program's choice is back as soon as the file is open.
  MPI_File file = MPI_FILE_NULL;
  int rc = with_file_errors_returned(MPI_FILE_NULL, [&] {
    return PMPI_File_open(comm, path.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
  });
  if (!all_agree(comm, rc == MPI_SUCCESS)) {
    problem = rc != MPI_SUCCESS ? mpi_error_text(rc) : "another rank could not open the file";
    if (rc == MPI_SUCCESS) {
      PMPI_File_close(&file);
    }
    return false;
  }
  // The same number of collective writes on every rank, each within an int count.
  std::uint64_t rounds = (bytes.size() + kMaxWriteBytes - 1) / kMaxWriteBytes;
  yielding(PMPI_Iallreduce, MPI_IN_PLACE, &rounds, 1, MPI_UINT64_T, MPI_MAX, comm);
  bool written = true;
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t start = std::min<std::uint64_t>(round * kMaxWriteBytes, bytes.size());
    const auto count =
        static_cast<int>(std::min<std::uint64_t>(kMaxWriteBytes, bytes.size() - start));
    rc = yielding(PMPI_File_iwrite_at_all, file, static_cast<MPI_Offset>(offset + start),
                  bytes.data() + start, count, MPI_BYTE);
    if (rc != MPI_SUCCESS && written) {
      problem = mpi_error_text(rc);
      written = false;
    }
  }
  rc = PMPI_File_close(&file);
  if (rc != MPI_SUCCESS && written) {
    problem = mpi_error_text(rc);
    written = false;
  }
  if (!all_agree(comm, written)) {
    if (written) {
      problem = "another rank could not write its part";
    }
    return false;
  }
  return true;
}

// Rank 0's part, which starts the file: the head, the index of every rank's records (`entries`:
// size and checksum at 2 × rank), then rank 0's own records. The head places the summary, when
// there is one (`summary`: its size), after the last rank's records.
std::vector<std::byte> rank0_part(const tables::RunMetadata& meta,
                                  const tables::ProgramGraph& graph,
                                  std::span<const std::uint64_t> entries,
                                  std::span<const std::byte> own,
                                  const std::optional<tables::SummarySectionSize>& summary) {
  std::vector<tables::RankSectionSize> sections;
  for (std::size_t r = 0; r < entries.size() / 2; ++r) {
    sections.push_back({static_cast<std::int32_t>(r), entries[2 * r],
                        static_cast<std::uint32_t>(entries[2 * r + 1])});
  }
  std::vector<std::byte> part = summary
                                    ? tables::encode_profile_head(meta, graph, sections, *summary)
                                    : tables::encode_profile_head(meta, graph);
  const std::vector<std::byte> index = tables::encode_rank_index(part.size(), sections);
  part.insert(part.end(), index.begin(), index.end());
  part.insert(part.end(), own.begin(), own.end());
  return part;
}

// Every rank's part collected at rank 0 in turn and written there into `file` (rank 0's only),
// rank 0's own part first; `entries` holds, on rank 0, each rank's records' size at 2 × rank.
// False when rank 0 could not write (logged there) and on every other rank.
bool collect_at_rank0(MPI_Comm comm, tables::IncompleteFile* file, std::span<const std::byte> mine,
                      std::span<const std::uint64_t> entries) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint64_t> offsets;
  for (std::size_t r = 0, next = 0; r < entries.size() / 2; ++r) {
    sizes.push_back(r == 0 ? mine.size() : entries[2 * r]);
    offsets.push_back(next);
    next += sizes.back();
  }
  std::string problem;
  const auto write_at = [&](std::uint64_t offset, std::span<const std::byte> bytes) {
    if (!problem.empty()) {
      return; // the rest of the job's parts still arrive, and are dropped
    }
    try {
      file->write_at(offset, bytes);
    } catch (const std::system_error& error) {
      problem = error.what();
    }
  };
  if (file != nullptr) {
    write_at(0, mine);
  }
  collect_in_turn(comm, 0, mine, sizes,
                  [&](int from, std::uint64_t at, std::span<const std::byte> chunk) {
                    write_at(offsets[static_cast<std::size_t>(from)] + at, chunk);
                  });
  if (file == nullptr) {
    return false;
  }
  if (!problem.empty()) {
    log_line(LogLevel::Error, "the profile was not written: %s", problem.c_str());
    return false;
  }
  return true;
}

} // namespace

std::optional<std::filesystem::path>
write_profile_collectively(MPI_Comm comm, ProfileIo io, const tables::RankRecords& mine,
                           tables::RunMetadata meta, const tables::ProgramGraph& graph,
                           const ProfileDestination& destination) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const bool root = rank == 0;
  std::vector<std::byte> bytes = tables::encode_rank_records(mine);
  const tables::RankSectionSize section = tables::rank_section_size(rank, bytes);

  meta.hosts = distinct_hosts_at_rank0(comm, mine.host);
  std::unique_ptr<tables::IncompleteFile> file;
  if (root) {
    try {
      file = std::make_unique<tables::IncompleteFile>(
          destination.dir / (destination.stem + ".vcmon"), "profile");
    } catch (const std::system_error& error) {
      log_line(LogLevel::Error, "the profile was not written: %s", error.what());
    }
  }
  const std::string path = share_temporary_path(comm, file.get());
  if (path.empty()) {
    return std::nullopt;
  }
  // The whole job's view, which vcmon-report then reads instead of every rank's records.
  std::optional<tables::JobSummary> summary = job_summary_at_rank0(comm, mine, graph);

  // Rank 0 learns every rank's size and checksum for the index (16 bytes a rank).
  const std::uint64_t my_entry[2] = {section.size, section.checksum};
  std::vector<std::uint64_t> entries(root ? 2 * static_cast<std::size_t>(size) : 0);
  yielding(PMPI_Igather, my_entry, 2, MPI_UINT64_T, entries.data(), 2, MPI_UINT64_T, 0, comm);
  // Why rank 0 could not write the summary, told once the ranks wrote their records.
  std::string summary_problem;
  if (root) {
    bytes =
        rank0_part(meta, graph, entries, bytes,
                   summary ? std::optional(tables::summary_section_size(*summary)) : std::nullopt);
  }
  if (root && summary) {
    // Where the head places it, after the last rank's records, ending the file. Written now,
    // a piece at a time, so that rank 0 holds neither it nor its bytes while the ranks write.
    std::uint64_t at = bytes.size();
    for (std::size_t r = 1; r < entries.size() / 2; ++r) {
      at += entries[2 * r];
    }
    try {
      tables::encode_job_summary(*summary, tables::kSummaryPieceBytes,
                                 [&](std::span<const std::byte> piece) {
                                   file->write_at(at, piece);
                                   at += piece.size();
                                 });
    } catch (const std::system_error& error) {
      summary_problem = error.what();
    }
    summary.reset();
  }
  // Each rank's records start where the ranks before it end.
  std::uint64_t part = bytes.size();
  std::uint64_t offset = 0;
  yielding(PMPI_Iexscan, &part, &offset, 1, MPI_UINT64_T, MPI_SUM, comm);
  if (root) {
    offset = 0; // MPI_Exscan leaves rank 0's result undefined
  }

  bool written = false;
  std::string problem;
  if (io == ProfileIo::MpiIo) {
    written = write_with_mpi_io(comm, path, offset, bytes, problem);
    if (!written && root) {
      log_line(LogLevel::Warning, "MPI-IO could not write the profile (%s); rank 0 collects it",
               problem.c_str());
    }
  }
  if (!written && !collect_at_rank0(comm, file.get(), bytes, entries)) {
    return std::nullopt;
  }
  if (!root) {
    return std::nullopt;
  }
  if (!summary_problem.empty()) {
    log_line(LogLevel::Error, "the profile was not written: %s", summary_problem.c_str());
    return std::nullopt;
  }
  log_line(LogLevel::Debug,
           written ? "profile: %d ranks' records written in place through MPI-IO"
                   : "profile: %d ranks' records collected at rank 0 in turn",
           size);
  try {
    file->finish();
    if (!destination.name_it) {
      return std::nullopt;
    }
    return file->name_new(destination.dir, destination.stem, ".vcmon");
  } catch (const std::system_error& error) {
    log_line(LogLevel::Error, "the profile was not written: %s", error.what());
    return std::nullopt;
  }
}

} // namespace vcmon::runtime

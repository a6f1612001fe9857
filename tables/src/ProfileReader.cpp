#include "vcmon/tables/ProfileReader.hpp"

#include "ByteReader.hpp"
#include "FileDescriptor.hpp"
#include "ProfileBytes.hpp"
#include "ProfileConsistency.hpp"
#include "ProfileHeader.hpp"
#include "ProfileSections.hpp"
#include "RankIndex.hpp"
#include "RankRecordsCodec.hpp"

#include "vcmon/tables/JobSummary.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <string>
#include <sys/stat.h>

namespace vcmon::tables {
namespace {

using detail::ByteReader;
using std::to_string;

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) {
    return "a directory";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  if (S_ISCHR(mode) || S_ISBLK(mode)) {
    return "a device";
  }
  return "a special file";
}

std::unique_ptr<detail::ProfileBytes> open_profile_file(const std::filesystem::path& path) {
  const auto fail = [&](const std::string& reason) -> std::unique_ptr<detail::ProfileBytes> {
    throw ProfileError("cannot read profile " + path.string() + ": " + reason);
  };
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer; it is refused below.
  detail::FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.is_open()) {
    return fail(std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    return fail(std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    return fail(std::string("not a regular file (") + file_type_name(info.st_mode) + ")");
  }
  return std::make_unique<detail::FileBytes>(std::move(fd),
                                             static_cast<std::uint64_t>(info.st_size));
}

// Versions 1 to 5: one checksum over one payload holding every rank's records.
Profile decode_whole_payload(std::span<const std::byte> framed, std::uint32_t version) {
  ByteReader payload(framed, detail::kProfileHeaderSize);
  auto [meta, graph] = detail::read_head_sections(payload, version);
  Profile profile{std::move(meta), std::move(graph), {}};
  // The smallest rank records: a rank, an empty host, eleven counters and three empty lists.
  constexpr std::size_t kMinRankBytes = 15;
  ByteReader ranks = detail::read_section(payload, detail::Section::Ranks);
  profile.ranks.resize(ranks.count(kMinRankBytes, "ranks"));
  for (RankRecords& r : profile.ranks) {
    const std::size_t size = ranks.length("a rank's records");
    const std::size_t start = ranks.offset();
    ByteReader rank(ranks.take(size, "a rank's records"), start);
    r = detail::read_rank_records(rank, version);
    detail::expect_end(rank, "a rank's records");
  }
  detail::expect_end(ranks, detail::section_name(detail::Section::Ranks));
  detail::expect_end(payload, "the payload");
  if (auto problem = detail::find_inconsistency(profile)) {
    throw ProfileError("corrupt profile: " + *problem);
  }
  return profile;
}

} // namespace

struct ProfileReader::State {
  std::unique_ptr<detail::ProfileBytes> bytes;
  std::string error_prefix; // "PATH: " for files
  std::uint32_t version = 0;
  RunMetadata meta;
  ProgramGraph graph;
  std::vector<detail::RankSection> sections;   // since version 6
  std::vector<RankRecords> whole_ranks;        // up to version 5
  std::optional<detail::SummaryPlace> summary; // since version 7, when the writer stored one

  void open() {
    std::vector<std::byte> buffer;
    const std::uint64_t file_size = bytes->size();
    const detail::ProfileHeader header =
        detail::read_profile_header(bytes->read(0, detail::kProfileHeaderSize, buffer), file_size);
    version = header.version;
    const std::span<const std::byte> framed =
        bytes->read(detail::kProfileHeaderSize, header.framed_size, buffer);
    detail::verify_framed_checksum(header, framed);
    if (version <= detail::kLastWholePayloadVersion) {
      Profile whole = decode_whole_payload(framed, version);
      meta = std::move(whole.meta);
      graph = std::move(whole.graph);
      whole_ranks = std::move(whole.ranks);
      return;
    }
    ByteReader head(framed, detail::kProfileHeaderSize);
    auto [head_meta, head_graph] = detail::read_head_sections(head, version);
    summary = detail::read_summary_place(head, version);
    detail::expect_end(head, "the head");
    meta = std::move(head_meta);
    graph = std::move(head_graph);
    if (meta.ranks < 0) {
      throw ProfileError("corrupt profile: negative rank count " + to_string(meta.ranks));
    }
    if (summary) {
      check_summary_place(*summary, file_size);
    }
    sections =
        detail::read_rank_index(*bytes, detail::kProfileHeaderSize + header.framed_size, meta.ranks,
                                summary ? std::optional(summary->offset) : std::nullopt);
  }

  // The summary ends the file: after the ranks' records (read_rank_index checks that they end
  // where it starts), nothing after it.
  static void check_summary_place(const detail::SummaryPlace& place, std::uint64_t file_size) {
    const std::string summary = "the summary at byte " + to_string(place.offset);
    if (place.size > std::numeric_limits<std::uint64_t>::max() - place.offset) {
      throw ProfileError("corrupt profile: " + summary + " of " + to_string(place.size) +
                         " bytes ends beyond 2^64");
    }
    if (place.offset >= file_size) {
      throw ProfileError("corrupt profile: " + summary + " lies outside the " +
                         to_string(file_size) + "-byte file");
    }
    const std::uint64_t end = place.offset + place.size;
    if (end > file_size) {
      throw ProfileError("profile truncated at byte " + to_string(file_size) +
                         ": the head places the summary up to byte " + to_string(end));
    }
    if (end < file_size) {
      throw ProfileError("trailing garbage: " + to_string(file_size - end) +
                         " bytes after the summary's end at byte " + to_string(end));
    }
  }

  JobSummary read_summary(const detail::SummaryPlace& place) const {
    std::vector<std::byte> buffer;
    const std::span<const std::byte> encoded = bytes->read(place.offset, place.size, buffer);
    if (encoded.size() < place.size) {
      throw ProfileError("profile truncated at byte " + to_string(place.offset + encoded.size()) +
                         " while reading the summary");
    }
    if (detail::crc32(encoded) != place.checksum) {
      throw ProfileError("checksum mismatch: the profile's summary is corrupt");
    }
    return decode_job_summary(encoded, place.offset, graph, meta.ranks);
  }

  // The records of section `s`, their contexts held, or given to `pass_contexts` when not null.
  RankRecords read_section(const detail::RankSection& s,
                           const ContextPieces* pass_contexts = nullptr) const {
    std::vector<std::byte> buffer;
    const std::span<const std::byte> encoded = bytes->read(s.offset, s.size, buffer);
    const std::string whose = "rank " + to_string(s.rank) + "'s records";
    if (encoded.size() < s.size) {
      throw ProfileError("profile truncated at byte " + to_string(s.offset + encoded.size()) +
                         " while reading " + whose);
    }
    if (detail::crc32(encoded) != s.checksum) {
      throw ProfileError("checksum mismatch: " + whose + " are corrupt");
    }
    ByteReader in(encoded, s.offset);
    // Passed contexts are checked as they pass, their first problem reported where
    // find_inconsistency reports held contexts' problems: after the rest of the section's.
    std::optional<std::string> context_problem;
    RankRecords records;
    if (pass_contexts != nullptr) {
      std::size_t passed = 0;
      records = detail::read_rank_records(in, version, [&](std::span<const ContextRecord> piece) {
        if (!context_problem) {
          context_problem = detail::find_inconsistency(piece, passed, graph);
        }
        passed += piece.size();
        (*pass_contexts)(piece);
      });
    } else {
      records = detail::read_rank_records(in, version);
    }
    detail::expect_end(in, whose.c_str());
    if (records.rank != s.rank) {
      throw ProfileError("corrupt profile: the rank index says " + whose + " are at byte " +
                         to_string(s.offset) + ", they say rank " + to_string(records.rank));
    }
    auto problem = detail::find_inconsistency(records, graph, meta.ranks);
    if (!problem) {
      problem = std::move(context_problem);
    }
    if (problem) {
      throw ProfileError("corrupt profile: rank " + to_string(s.rank) + ": " + *problem);
    }
    return records;
  }

  // Runs `read`, prefixing a ProfileError's message with the file's path.
  template <typename Read> auto named(Read read) const {
    try {
      return read();
    } catch (const ProfileError& e) {
      if (error_prefix.empty()) {
        throw;
      }
      throw ProfileError(error_prefix + e.what());
    }
  }
};

ProfileReader::ProfileReader(const std::filesystem::path& path)
    : state_(std::make_unique<State>()) {
  state_->bytes = open_profile_file(path);
  state_->error_prefix = path.string() + ": ";
  state_->named([&] { state_->open(); });
}

ProfileReader::ProfileReader(std::span<const std::byte> bytes) : state_(std::make_unique<State>()) {
  state_->bytes = std::make_unique<detail::MemoryBytes>(bytes);
  state_->open();
}

ProfileReader::ProfileReader(ProfileReader&&) noexcept = default;
ProfileReader& ProfileReader::operator=(ProfileReader&&) noexcept = default;
ProfileReader::~ProfileReader() = default;

std::uint32_t ProfileReader::version() const {
  return state_->version;
}
const RunMetadata& ProfileReader::meta() const {
  return state_->meta;
}
const ProgramGraph& ProfileReader::graph() const {
  return state_->graph;
}

std::size_t ProfileReader::rank_count() const {
  return state_->version <= detail::kLastWholePayloadVersion ? state_->whole_ranks.size()
                                                             : state_->sections.size();
}

std::int32_t ProfileReader::rank_at(std::size_t index) const {
  return state_->version <= detail::kLastWholePayloadVersion ? state_->whole_ranks.at(index).rank
                                                             : state_->sections.at(index).rank;
}

RankRecords ProfileReader::read_rank_at(std::size_t index) const {
  if (state_->version <= detail::kLastWholePayloadVersion) {
    return state_->whole_ranks.at(index);
  }
  return state_->named([&] { return state_->read_section(state_->sections.at(index)); });
}

RankRecords ProfileReader::read_rank_at(std::size_t index, const ContextPieces& contexts) const {
  if (state_->version <= detail::kLastWholePayloadVersion) {
    RankRecords records = state_->whole_ranks.at(index); // checked whole when the profile opened
    contexts(records.contexts);
    records.contexts.clear();
    return records;
  }
  return state_->named([&] { return state_->read_section(state_->sections.at(index), &contexts); });
}

std::optional<RankRecords> ProfileReader::read_rank(std::int32_t rank) const {
  // Ranks are sorted in both layouts.
  std::size_t low = 0;
  std::size_t high = rank_count();
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (rank_at(mid) < rank) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  if (low == rank_count() || rank_at(low) != rank) {
    return std::nullopt;
  }
  return read_rank_at(low);
}

bool ProfileReader::has_summary() const {
  return state_->summary.has_value();
}

std::optional<JobSummary> ProfileReader::read_summary() const {
  if (!state_->summary) {
    return std::nullopt;
  }
  return state_->named([&] { return state_->read_summary(*state_->summary); });
}

Profile ProfileReader::read_all() const {
  Profile profile{state_->meta, state_->graph, {}};
  profile.ranks.reserve(rank_count());
  for (std::size_t i = 0; i < rank_count(); ++i) {
    profile.ranks.push_back(read_rank_at(i));
  }
  return profile;
}

} // namespace vcmon::tables

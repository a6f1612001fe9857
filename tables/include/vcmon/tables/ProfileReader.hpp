// A profile opened to be read a piece at a time: the header, metadata, program graph and rank
// index when it opens, one rank's records only when asked for them, so that reading a profile
// of many ranks never holds more than one rank's records (docs/profile-format.md). Profiles of
// versions 1 to 5, which have no rank index, are decoded whole when they open.
#pragma once

#include "vcmon/tables/Profile.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>

namespace vcmon::tables {

struct JobSummary;

class ProfileReader {
public:
  // Throws ProfileError whose message begins with the path (or "cannot read profile PATH: "
  // when the file cannot be opened, or is not a regular file).
  explicit ProfileReader(const std::filesystem::path& path);
  // A profile in memory; `bytes` must outlive the reader.
  explicit ProfileReader(std::span<const std::byte> bytes);
  ProfileReader(ProfileReader&&) noexcept;
  ProfileReader& operator=(ProfileReader&&) noexcept;
  ~ProfileReader();

  std::uint32_t version() const;
  const RunMetadata& meta() const;
  const ProgramGraph& graph() const;

  // The ranks whose records the profile holds (a partial profile may hold fewer than
  // meta().ranks), in rank order.
  std::size_t rank_count() const;
  std::int32_t rank_at(std::size_t index) const;
  // Reads, verifies and decodes the records of the index-th rank; throws ProfileError.
  RankRecords read_rank_at(std::size_t index) const;
  // Takes a rank's calling contexts a piece at a time, in order, as they are decoded.
  using ContextPieces = std::function<void(std::span<const ContextRecord>)>;
  // The same, but the rank's contexts go to `contexts` as they are decoded, and the records'
  // own stay empty: a rank may have 100 000 contexts, which then need not all be held. The
  // same profiles are rejected with the same ProfileError, thrown after `contexts` may have
  // been given some of the rank's contexts, consistent or not.
  RankRecords read_rank_at(std::size_t index, const ContextPieces& contexts) const;
  // The records of rank `rank`, or nothing when the profile has none of it.
  std::optional<RankRecords> read_rank(std::int32_t rank) const;
  // Whether the profile has a summary section (since version 7: docs/profile-format.md,
  // "Summary"), the job's view reduced over every rank; read only when asked for.
  bool has_summary() const;
  // Reads, verifies and decodes it; nothing when the profile has none. Throws ProfileError.
  std::optional<JobSummary> read_summary() const;
  // Every rank's records: the whole profile in memory.
  Profile read_all() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace vcmon::tables

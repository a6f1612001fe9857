// libFuzzer target for the profile reader: any input must decode or fail with ProfileError,
// and whatever decodes must survive re-encoding unchanged.
#include "ProfileHeader.hpp"
#include "ResealedProfile.hpp"

#include "vcmon/tables/JobSummary.hpp"
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileReader.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>

namespace {

using namespace vcmon::tables;

void check_round_trip(const Profile& profile) {
  if (std::isnan(profile.meta.clock.ticks_per_ns)) {
    return; // NaN never compares equal to itself
  }
  if (decode_profile(encode_profile(profile)) != profile) {
    std::abort();
  }
}

// The profile and its summary section, which decode_profile does not read.
void check_profile(std::span<const std::byte> bytes) {
  const ProfileReader reader(bytes);
  check_round_trip(reader.read_all());
  const std::optional<JobSummary> summary = reader.read_summary();
  if (!summary) {
    return;
  }
  const std::vector<std::byte> encoded = encode_job_summary(*summary);
  // Bit for bit: a NaN among the sums would not compare equal to itself.
  if (encode_job_summary(decode_job_summary(encoded, 0, reader.graph(), reader.meta().ranks)) !=
      encoded) {
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  try {
    check_profile(bytes);
  } catch (const ProfileError&) {
  }
  try {
    const RankRecords records = decode_rank_records(bytes);
    if (decode_rank_records(encode_rank_records(records)) != records) {
      std::abort();
    }
  } catch (const ProfileError&) {
  }
  // Checksums stop almost every mutation at the first check: framing the input as a
  // version-5 payload, or recomputing a version-6 or 7 file's checksums, lets the fuzzer reach
  // the section parsers, the rank index, the ranks' records and the summary too.
  try {
    check_round_trip(
        decode_profile(detail::frame_profile_payload(bytes, detail::kLastWholePayloadVersion)));
  } catch (const ProfileError&) {
  }
  try {
    check_profile(fuzzing::with_checksums_recomputed(bytes));
  } catch (const ProfileError&) {
  }
  return 0;
}

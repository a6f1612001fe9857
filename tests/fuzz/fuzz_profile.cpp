// libFuzzer target for the profile reader: any input must decode or fail with ProfileError,
// and whatever decodes must survive re-encoding unchanged.
#include "ProfileHeader.hpp"

#include "vcmon/tables/Profile.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  try {
    check_round_trip(decode_profile(bytes));
  } catch (const ProfileError&) {
  }
  try {
    const RankRecords records = decode_rank_records(bytes);
    if (decode_rank_records(encode_rank_records(records)) != records) {
      std::abort();
    }
  } catch (const ProfileError&) {
  }
  // The checksum stops almost every mutation at the header; framing the input as a payload
  // lets the fuzzer reach the section parsers too.
  try {
    check_round_trip(decode_profile(detail::frame_profile_payload(bytes)));
  } catch (const ProfileError&) {
  }
  return 0;
}

// Checksums stop almost every mutation of a profile at the first check; recomputing them lets
// the fuzzers reach what follows: the section parsers, the rank index, each rank's records and
// the summary.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace vcmon::tables::fuzzing {

// `bytes` with the checksums of a version-6 or version-7 profile recomputed where their fields
// are within the input: the head's in the header, the summary's in the head, the rank index's,
// and each rank's in its index entry. Other inputs come back unchanged.
std::vector<std::byte> with_checksums_recomputed(std::span<const std::byte> bytes);

} // namespace vcmon::tables::fuzzing

// Human-readable quantities shared by the text and HTML renderers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace vcmon::report {

std::string format_duration(double ns);       // "12.35 ms"
std::string format_bytes(double bytes);       // "1.50 MiB"
std::string format_count(double count);       // "1234567"
std::string format_utc(std::int64_t unix_ns); // "2026-11-21 11:05:29 UTC"
// A message size class (tables::size_class): "0 B", "1-16 B", ..., "16 MiB+".
std::string format_size_class(std::size_t size_class);

} // namespace vcmon::report

#include "UnitNames.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace vcmon::preprocessor {
namespace {

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ull) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

// Of the path alone when no macro is given, so that names stay what they were for such units.
std::uint64_t unit_hash(std::string_view absolute_path, std::string_view macros) {
  const std::uint64_t path = fnv1a(absolute_path);
  return macros.empty() ? path : fnv1a(macros, fnv1a(std::string_view("\0", 1), path));
}

} // namespace

UnitNames::UnitNames(std::string_view file, std::string_view absolute_path,
                     std::string_view macros) {
  const auto slash = file.find_last_of('/');
  const std::string_view stem = slash == std::string_view::npos ? file : file.substr(slash + 1);
  constexpr std::size_t kMaxStem = 32;
  for (const char c : stem.substr(0, kMaxStem)) {
    tag += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(unit_hash(absolute_path, macros)));
  tag += '_';
  tag += hash;
  base = "vcmon_unit_base_" + tag;
}

} // namespace vcmon::preprocessor

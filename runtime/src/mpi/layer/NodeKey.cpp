#include "mpi/layer/NodeKey.hpp"

#include <cstdio>
#include <functional>
#include <string>
#include <unistd.h>

namespace vcmon::runtime::mpi {
namespace {

// Appends the text of a small /proc file to `key` (nothing when it cannot be read).
void append_file(const char* path, std::string& key) {
  if (std::FILE* file = std::fopen(path, "r")) {
    char line[128] = {};
    while (std::fgets(line, sizeof line, file) != nullptr) {
      key += line;
    }
    std::fclose(file);
  }
}

} // namespace

std::uint64_t node_key() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string key = host;
  append_file("/proc/sys/kernel/random/boot_id", key);
  return std::hash<std::string>{}(key);
}

std::uint64_t clock_domain_key() {
  std::string key = std::to_string(node_key());
  append_file("/proc/self/timens_offsets", key);
  return std::hash<std::string>{}(key);
}

} // namespace vcmon::runtime::mpi

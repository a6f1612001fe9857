#include "mpi/layer/NodeKey.hpp"

#include <cstdio>
#include <functional>
#include <string>
#include <unistd.h>

namespace vcmon::runtime::mpi {

std::uint64_t node_key() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string key = host;
  if (std::FILE* boot = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
    char id[64] = {};
    if (std::fgets(id, sizeof id, boot) != nullptr) {
      key += id;
    }
    std::fclose(boot);
  }
  return std::hash<std::string>{}(key);
}

} // namespace vcmon::runtime::mpi

#include "mpi/wildcard/WildcardTrace.hpp"

#include "core/Log.hpp"
#include "core/MpiFunctionTable.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace vcmon::runtime::mpi {
namespace {

// The directory may be shared: a new file only (O_EXCL), never through a link someone left.
int create_fresh(const std::string& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

} // namespace

WildcardTrace::WildcardTrace(const Monitor& monitor) {
  const std::string& dir = monitor.config().wildcard_trace_dir;
  if (dir.empty()) {
    return;
  }
  const std::string stem = dir + "/wildcard." + std::to_string(monitor.world_rank());
  const std::string wanted = stem + ".txt";
  std::string path = wanted;
  int fd = create_fresh(path);
  // Taken (by an earlier run, or by anyone): the next free `wildcard.<rank>-N.txt`.
  for (int n = 1; fd < 0 && errno == EEXIST && n < 1000; ++n) {
    path = stem + "-" + std::to_string(n) + ".txt";
    fd = create_fresh(path);
  }
  if (fd < 0) {
    log_line(LogLevel::Warning, "VCMON_TRACE_WILDCARD: cannot create %s: %s", path.c_str(),
             std::strerror(errno));
    return;
  }
  if (path != wanted) {
    log_line(LogLevel::Warning, "VCMON_TRACE_WILDCARD: %s exists; tracing to %s", wanted.c_str(),
             path.c_str());
  }
  file_ = ::fdopen(fd, "w");
  if (file_ == nullptr) {
    log_line(LogLevel::Warning, "VCMON_TRACE_WILDCARD: cannot write %s: %s", path.c_str(),
             std::strerror(errno));
    ::close(fd);
  }
}

WildcardTrace::~WildcardTrace() {
  if (file_ != nullptr) {
    std::fclose(file_);
  }
}

void WildcardTrace::record(unsigned function, int source, int tag, std::uint64_t arrival_ns,
                           bool broke_cycle) {
  if (file_ != nullptr) {
    std::fprintf(file_, "%s %d %d %llu %d\n", mpi_function_name(function), source, tag,
                 static_cast<unsigned long long>(arrival_ns), broke_cycle ? 1 : 0);
  }
}

} // namespace vcmon::runtime::mpi

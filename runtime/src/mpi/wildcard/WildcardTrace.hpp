// VCMON_TRACE_WILDCARD=DIR (testing): every nondeterministic outcome the layer decided, one
// line each in DIR/wildcard.<world rank>.txt, so that tests can recompute the rule from the
// stamps: `<MPI function> <source> <tag> <arrival_ns> <broke_cycle>`. Always a new file: when
// that name is taken (a file, a link), the first free wildcard.<rank>-N.txt, said on stderr.
#pragma once

#include "core/Monitor.hpp"

#include <cstdint>
#include <cstdio>

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) WildcardTrace {
public:
  // Opens the file when `monitor`'s configuration names a directory (after MPI_Init: the file
  // is named after the world rank); otherwise records nothing.
  explicit WildcardTrace(const Monitor& monitor);
  ~WildcardTrace();
  WildcardTrace(const WildcardTrace&) = delete;
  WildcardTrace& operator=(const WildcardTrace&) = delete;

  // Any thread: stdio locks the file for each line.
  void record(unsigned function, int source, int tag, std::uint64_t arrival_ns, bool broke_cycle);

private:
  std::FILE* file_ = nullptr;
};

} // namespace vcmon::runtime::mpi

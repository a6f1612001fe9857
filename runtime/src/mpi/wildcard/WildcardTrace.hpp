// VCMON_TRACE_WILDCARD=DIR (testing): every nondeterministic outcome the layer decided, one
// line each in DIR/wildcard.<world rank>.txt, so that tests can recompute the rule from the
// stamps: `<MPI function> <source> <tag> <arrival_ns> <broke_cycle>`. Always a new file: when
// that name is taken (a file, a link), the first free wildcard.<rank>-N.txt, said on stderr.
#pragma once

#include "core/Monitor.hpp"

#include <cstdint>

namespace vcmon::runtime::mpi {

class WildcardTrace {
public:
  static void open(const Monitor& monitor);
  static void record(unsigned function, int source, int tag, std::uint64_t arrival_ns,
                     bool broke_cycle);
  static void close();
};

} // namespace vcmon::runtime::mpi

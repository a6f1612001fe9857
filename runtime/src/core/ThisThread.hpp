// Where the calling thread's probe state is, in initial-exec TLS: one load to reach, no
// constructor, no guard. Only the pointer: the state itself (an activation stack of 12 KB)
// lives with the thread's records (ThreadRecords::thread). Initial-exec TLS is taken from the
// static block that glibc sizes at start-up, and a library loaded later with dlopen (an
// instrumented plugin or Python extension in a host not linked with libvcmon) gets only a few
// hundred bytes of it: with the whole state in TLS, such a dlopen failed ("cannot allocate
// memory in static TLS block").
#pragma once

#include "core/ActivationStack.hpp"

namespace vcmon::runtime {

extern __thread ThreadState* this_thread_state
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

} // namespace vcmon::runtime

// The calling thread's probe state, in initial-exec TLS: one instruction to reach, no
// constructor, no guard.
#pragma once

#include "core/ActivationStack.hpp"

namespace vcmon::runtime {

extern __thread ThreadState this_thread_state
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

} // namespace vcmon::runtime

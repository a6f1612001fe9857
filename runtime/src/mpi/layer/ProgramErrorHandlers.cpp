#include "mpi/layer/ProgramErrorHandlers.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <utility>

namespace vcmon::runtime::mpi {
namespace {

// One forwarder per function the program makes handlers with: MPI calls a handler with its
// communicator and code only, and a forwarder may not ask MPI which handler is in force (inside
// an error handler MPICH asserts on a second entry to its lock under MPI_THREAD_MULTIPLE). So
// forwarder `I` calls the function in slot `I`; slots are filled once and never emptied (a
// handler the program freed stays in force where it is set). Programs make a handful of
// handler functions; past kSlots, MPI gets the program's function itself, as before.
constexpr std::size_t kSlots = 64;
std::array<std::atomic<MPI_Comm_errhandler_function*>, kSlots> slots{};
std::mutex slots_mutex;

template <std::size_t I> void forward(MPI_Comm* comm, int* code, ...) {
  if (!ProgramErrorHandlers::looking()) {
    slots[I].load(std::memory_order_acquire)(comm, code);
  }
}

template <std::size_t... I>
constexpr std::array<MPI_Comm_errhandler_function*, kSlots>
forwarders(std::index_sequence<I...> /*slots*/) {
  return {&forward<I>...};
}
constexpr std::array<MPI_Comm_errhandler_function*, kSlots> kForwarders =
    forwarders(std::make_index_sequence<kSlots>());

// The forwarder of `function`: its slot, or a free one filled with it; the function itself when
// every slot holds another.
MPI_Comm_errhandler_function* forwarder_of(MPI_Comm_errhandler_function* function) {
  const std::lock_guard lock(slots_mutex);
  for (std::size_t i = 0; i < kSlots; ++i) {
    MPI_Comm_errhandler_function* const held = slots[i].load(std::memory_order_relaxed);
    if (held == function) {
      return kForwarders[i];
    }
    if (held == nullptr) {
      slots[i].store(function, std::memory_order_release);
      return kForwarders[i];
    }
  }
  return function;
}

} // namespace

int ProgramErrorHandlers::create(MPI_Comm_errhandler_function* function, MPI_Errhandler* handler) {
  return PMPI_Comm_create_errhandler(function != nullptr ? forwarder_of(function) : function,
                                     handler);
}

} // namespace vcmon::runtime::mpi

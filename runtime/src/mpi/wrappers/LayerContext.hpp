// The PMPI layer's per-process state, as one object made at MPI_Init (MPI_Init_thread) and
// destroyed at MPI_Finalize: the stamp transport over this node and the private world, the
// stamp protocol over it (its shadows, counts, bounds and lock), the user requests the layer
// tracks, what later calls settle (the layer's own requests, orphaned receives, deferred wildcard
// receives), the messages Mprobe matched, the control channel and the collectives' entry
// reduction. The wrappers reach it through LayerContext::process(), process_stamps() or
// process_pending() (one load of a process-global pointer) and pass what they reach explicitly
// to everything below them, which takes it as a parameter and so can be made more than once in
// one process (a test's ranks: tests/mpi/StampProtocolTest.cpp, RequestTableTest.cpp,
// PendingWorkTest.cpp).
#pragma once

#include "mpi/control/CollectiveEntry.hpp"
#include "mpi/control/ControlChannel.hpp"
#include "mpi/control/RunningAnswerer.hpp"
#include "mpi/layer/UnshadowedCommunicators.hpp"
#include "mpi/requests/PendingWork.hpp"
#include "mpi/requests/RequestTable.hpp"
#include "mpi/stamps/ProcessStampMail.hpp"
#include "mpi/stamps/StampProtocol.hpp"
#include "mpi/wildcard/WildcardTrace.hpp"
#include "mpi/wrappers/ProbedMessages.hpp"

#include "core/Monitor.hpp"

namespace vcmon::runtime::mpi {

class __attribute__((visibility("hidden"))) LayerContext {
public:
  // At MPI_Init, after the private world (collective over MPI_COMM_WORLD).
  static void open(Monitor& monitor);
  // At MPI_Finalize, once the layer is inactive and nothing refers to it.
  static void close();
  // The process's context, from open to close.
  static LayerContext& process() { return *process_; }

  explicit LayerContext(Monitor& monitor);
  LayerContext(const LayerContext&) = delete;
  LayerContext& operator=(const LayerContext&) = delete;

  ProcessStampMail mail;
  StampProtocol stamps;
  // The user requests the layer tracks until they complete or are freed.
  RequestTable requests;
  // What later calls settle: the layer's own deferred requests, the orphaned receives and the
  // deferred wildcard receives.
  PendingWork pending;
  // The messages Mprobe took, until their Mrecv.
  ProbedMessages probed;
  // Communicators every member monitors without a shadow (MPI_Comm_idup's).
  UnshadowedCommunicators unshadowed;
  // The control channel, over the stamp protocol; its waiting calls let the deferred wildcard
  // receives progress.
  ControlChannel control;
  // The datatype and operation of every collective's entry reduction (opened after the
  // context, closed before it), with the channel it serves while a mismatch is reported.
  EntryReduction entry_reduction;
  // VCMON_TRACE_WILDCARD's file, when it names a directory.
  WildcardTrace wildcard_trace;
  // Answers state requests for this process while it runs outside MPI (started once MPI_Init
  // is done, stopped at MPI_Finalize; last, so that it stops before anything it reads goes).
  RunningAnswerer answerer;

private:
  static LayerContext* process_;
};

// What a wrapper reaches first: the process's context and the parts it passes down, all null
// while the layer does not monitor (`monitor`, Layer::monitor()'s, null).
struct __attribute__((visibility("hidden"))) LayerParts {
  LayerContext* context = nullptr;
  StampProtocol* stamps = nullptr;
  PendingWork* pending = nullptr;
  RequestTable* table = nullptr;
};
inline LayerParts layer_parts(const Monitor* monitor) {
  if (monitor == nullptr) {
    return {};
  }
  LayerContext& context = LayerContext::process();
  return {&context, &context.stamps, &context.pending, &context.requests};
}

// The process's stamp protocol, between MPI_Init and MPI_Finalize.
inline StampProtocol& process_stamps() {
  return LayerContext::process().stamps;
}

// What the process's later calls settle, between MPI_Init and MPI_Finalize.
inline PendingWork& process_pending() {
  return LayerContext::process().pending;
}

} // namespace vcmon::runtime::mpi

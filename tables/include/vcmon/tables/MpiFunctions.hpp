// The MPI functions vcmon knows, in one place, by category. The preprocessor's classifier
// (which calls are communication statements) and the runtime's wrapped-function table (its
// enum, names and synthetic statements) are both expanded from these lists, and
// tests/runtime/ExportedSymbolsTest.cpp checks that libvcmon exports a wrapper for every
// entry and no other MPI function.
//
// Communication statements of the program graph: VCMON_MPI_POINT_TO_POINT (and each one's MPI-4
// large-count twin NAME_c), VCMON_MPI_PROBES, VCMON_MPI_STARTS, VCMON_MPI_COMPLETION and
// VCMON_MPI_COLLECTIVES (and each one's nonblocking twin I<name> and persistent twin NAME_init;
// those of VCMON_MPI_COUNTED_COLLECTIVES each also as its large-count twin, suffixed `_c`).
// VCMON_MPI_LIFECYCLE, VCMON_MPI_MANAGEMENT and VCMON_MPI_LOCAL_OBJECTS are calls the runtime
// records (each holds its own time) but not communication statements; VCMON_MPI_UNRECORDED are
// wrapped for other reasons. Macros only: expanding the parameter lists of VCMON_MPI_LOCAL_OBJECTS
// needs <mpi.h>.
#pragma once

// Point-to-point functions that move data; each has an MPI-4 large-count twin `NAME_c`.
#define VCMON_MPI_POINT_TO_POINT(X)                                                                \
  X(Send)                                                                                          \
  X(Bsend)                                                                                         \
  X(Rsend)                                                                                         \
  X(Ssend)                                                                                         \
  X(Isend)                                                                                         \
  X(Ibsend)                                                                                        \
  X(Irsend)                                                                                        \
  X(Issend)                                                                                        \
  X(Recv)                                                                                          \
  X(Irecv)                                                                                         \
  X(Sendrecv)                                                                                      \
  X(Sendrecv_replace)                                                                              \
  X(Isendrecv)                                                                                     \
  X(Isendrecv_replace)                                                                             \
  X(Send_init) X(Bsend_init) X(Rsend_init) X(Ssend_init) X(Recv_init) X(Mrecv) X(Imrecv)

// Probes: communication statements that look at a message without taking it.
#define VCMON_MPI_PROBES(X) X(Probe) X(Iprobe) X(Mprobe) X(Improbe)

// Starts of persistent requests: point-to-point communication statements.
#define VCMON_MPI_STARTS(X) X(Start) X(Startall)

// Request completion: communication statements where a nonblocking call's transfer ends.
#define VCMON_MPI_COMPLETION(X)                                                                    \
  X(Wait) X(Test) X(Waitall) X(Testall) X(Waitany) X(Testany) X(Waitsome) X(Testsome)

// MPI_Init (and MPI_Init_thread) and MPI_Finalize: statements holding the MPI library's own
// time, while the layer's start-up and shutdown are the monitor's.
#define VCMON_MPI_LIFECYCLE(X) X(Init) X(Finalize)

// Requests and communicators managed, not communicated on: each call holds its own time
// (CallTime), so that every MPI call the layer wraps is a record.
#define VCMON_MPI_MANAGEMENT(X)                                                                    \
  X(Request_free)                                                                                  \
  X(Cancel)                                                                                        \
  X(Request_get_status)                                                                            \
  X(Parrived)                                                                                      \
  X(Comm_dup)                                                                                      \
  X(Comm_dup_with_info)                                                                            \
  X(Comm_split)                                                                                    \
  X(Comm_split_type)                                                                               \
  X(Comm_create)                                                                                   \
  X(Comm_create_group)                                                                             \
  X(Comm_create_from_group)                                                                        \
  X(Intercomm_create)                                                                              \
  X(Intercomm_create_from_groups)                                                                  \
  X(Intercomm_merge)                                                                               \
  X(Cart_create)                                                                                   \
  X(Cart_sub)                                                                                      \
  X(Graph_create)                                                                                  \
  X(Dist_graph_create)                                                                             \
  X(Dist_graph_create_adjacent) X(Comm_free) X(Comm_disconnect)

// Datatypes, groups, attributes and reduction operations: local objects a program makes and
// frees, each call holding its own time (CallTime) with no partner. Listed with their
// parameters and arguments, so that one macro writes every wrapper (LocalObjectWrappers.cpp).
// Queries (MPI_Comm_rank, MPI_Type_size, MPI_Comm_get_attr, MPI_Wtime) are not records: they
// are lookups cheaper than the two clock reads a record costs.
#define VCMON_MPI_LOCAL_OBJECTS(X)                                                                 \
  X(Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype* newtype),                     \
    (count, oldtype, newtype))                                                                     \
  X(Type_vector,                                                                                   \
    (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype),         \
    (count, blocklength, stride, oldtype, newtype))                                                \
  X(Type_create_hvector,                                                                           \
    (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype),    \
    (count, blocklength, stride, oldtype, newtype))                                                \
  X(Type_indexed,                                                                                  \
    (int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,         \
     MPI_Datatype* newtype),                                                                       \
    (count, blocklengths, displacements, oldtype, newtype))                                        \
  X(Type_create_hindexed,                                                                          \
    (int count, const int blocklengths[], const MPI_Aint displacements[], MPI_Datatype oldtype,    \
     MPI_Datatype* newtype),                                                                       \
    (count, blocklengths, displacements, oldtype, newtype))                                        \
  X(Type_create_indexed_block,                                                                     \
    (int count, int blocklength, const int displacements[], MPI_Datatype oldtype,                  \
     MPI_Datatype* newtype),                                                                       \
    (count, blocklength, displacements, oldtype, newtype))                                         \
  X(Type_create_struct,                                                                            \
    (int count, const int blocklengths[], const MPI_Aint displacements[],                          \
     const MPI_Datatype types[], MPI_Datatype* newtype),                                           \
    (count, blocklengths, displacements, types, newtype))                                          \
  X(Type_create_subarray,                                                                          \
    (int ndims, const int sizes[], const int subsizes[], const int starts[], int order,            \
     MPI_Datatype oldtype, MPI_Datatype* newtype),                                                 \
    (ndims, sizes, subsizes, starts, order, oldtype, newtype))                                     \
  X(Type_create_resized,                                                                           \
    (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype * newtype),                  \
    (oldtype, lb, extent, newtype))                                                                \
  X(Type_dup, (MPI_Datatype oldtype, MPI_Datatype * newtype), (oldtype, newtype))                  \
  X(Type_commit, (MPI_Datatype * datatype), (datatype))                                            \
  X(Type_free, (MPI_Datatype * datatype), (datatype))                                              \
  X(Comm_group, (MPI_Comm comm, MPI_Group * group), (comm, group))                                 \
  X(Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group* newgroup),                  \
    (group, n, ranks, newgroup))                                                                   \
  X(Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group* newgroup),                  \
    (group, n, ranks, newgroup))                                                                   \
  X(Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group * newgroup),                       \
    (group1, group2, newgroup))                                                                    \
  X(Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group * newgroup),                \
    (group1, group2, newgroup))                                                                    \
  X(Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group * newgroup),                  \
    (group1, group2, newgroup))                                                                    \
  X(Group_free, (MPI_Group * group), (group))                                                      \
  X(Comm_create_keyval,                                                                            \
    (MPI_Comm_copy_attr_function * copy_fn, MPI_Comm_delete_attr_function * delete_fn,             \
     int* keyval, void* extra_state),                                                              \
    (copy_fn, delete_fn, keyval, extra_state))                                                     \
  X(Comm_free_keyval, (int* keyval), (keyval))                                                     \
  X(Comm_set_attr, (MPI_Comm comm, int keyval, void* value), (comm, keyval, value))                \
  X(Comm_delete_attr, (MPI_Comm comm, int keyval), (comm, keyval))                                 \
  X(Op_create, (MPI_User_function * function, int commute, MPI_Op* op), (function, commute, op))   \
  X(Op_free, (MPI_Op * op), (op))

// Collectives; each has a nonblocking twin `I<name>` (Ibarrier, Ibcast, ...) and an MPI-4
// persistent twin `NAME_init` (Barrier_init, Bcast_init, ...).
#define VCMON_MPI_COLLECTIVES(X) X(Barrier, barrier) VCMON_MPI_COUNTED_COLLECTIVES(X)

// The collectives that take counts: each of their three forms has an MPI-4 large-count twin
// (`Bcast_c`, `Ibcast_c`, `Bcast_init_c`), which MPI matches with the int-count form.
#define VCMON_MPI_COUNTED_COLLECTIVES(X)                                                           \
  X(Bcast, bcast)                                                                                  \
  X(Gather, gather)                                                                                \
  X(Gatherv, gatherv)                                                                              \
  X(Scatter, scatter)                                                                              \
  X(Scatterv, scatterv)                                                                            \
  X(Allgather, allgather)                                                                          \
  X(Allgatherv, allgatherv)                                                                        \
  X(Alltoall, alltoall)                                                                            \
  X(Alltoallv, alltoallv)                                                                          \
  X(Alltoallw, alltoallw)                                                                          \
  X(Reduce, reduce)                                                                                \
  X(Allreduce, allreduce)                                                                          \
  X(Reduce_scatter, reduce_scatter)                                                                \
  X(Reduce_scatter_block, reduce_scatter_block)                                                    \
  X(Scan, scan)                                                                                    \
  X(Exscan, exscan)                                                                                \
  X(Neighbor_allgather, neighbor_allgather)                                                        \
  X(Neighbor_allgatherv, neighbor_allgatherv)                                                      \
  X(Neighbor_alltoall, neighbor_alltoall)                                                          \
  X(Neighbor_alltoallv, neighbor_alltoallv) X(Neighbor_alltoallw, neighbor_alltoallw)

// Wrapped but not records of their own: MPI_Init_thread is recorded as MPI_Init, MPI_Abort ends
// the run, MPI_Session_init only says when the layer will not see the process's MPI calls,
// MPI_Pcontrol and MPI_Wtime serve the monitor, and the one-sided synchronisation and window
// calls are wrapped only so that a process inside them is known not to answer (one-sided
// communication is not monitored). Blocking collective file writes run as their nonblocking
// twins, polled, and reads are entered polled, so that a process inside answers
// (FileCollectiveWrappers.cpp). MPI_Comm_idup notes communicators whose collectives the layer
// enters polled (UnshadowedCommunicators.hpp); MPI_Comm_create_errhandler keeps the program's
// handlers out of the layer's own looks at requests (ProgramErrorHandlers.hpp).
// MPI_Grequest_start, the nonblocking MPI-IO calls and the partitioned inits note the requests
// MPICH's MPI_Testall mishandles (TestallUnsafeRequests.hpp).
#define VCMON_MPI_UNRECORDED(X)                                                                    \
  X(Init_thread)                                                                                   \
  X(Comm_idup)                                                                                     \
  X(Comm_idup_with_info)                                                                           \
  X(Comm_create_errhandler)                                                                        \
  X(Abort)                                                                                         \
  X(Session_init)                                                                                  \
  X(Pcontrol)                                                                                      \
  X(Wtime)                                                                                         \
  X(Win_create)                                                                                    \
  X(Win_allocate)                                                                                  \
  X(Win_allocate_shared)                                                                           \
  X(Win_create_dynamic)                                                                            \
  X(Win_free)                                                                                      \
  X(Win_fence)                                                                                     \
  X(Win_lock)                                                                                      \
  X(Win_unlock)                                                                                    \
  X(Win_lock_all)                                                                                  \
  X(Win_unlock_all)                                                                                \
  X(Win_flush)                                                                                     \
  X(Win_flush_all)                                                                                 \
  X(Win_flush_local)                                                                               \
  X(Win_flush_local_all)                                                                           \
  X(Win_post)                                                                                      \
  X(Win_start)                                                                                     \
  X(Win_complete)                                                                                  \
  X(Win_wait)                                                                                      \
  X(File_read_all)                                                                                 \
  X(File_read_all_c)                                                                               \
  X(File_write_all)                                                                                \
  X(File_write_all_c)                                                                              \
  X(File_read_at_all)                                                                              \
  X(File_read_at_all_c)                                                                            \
  X(File_write_at_all)                                                                             \
  X(File_write_at_all_c)                                                                           \
  X(Grequest_start)                                                                                \
  X(File_iread)                                                                                    \
  X(File_iread_c)                                                                                  \
  X(File_iread_all)                                                                                \
  X(File_iread_all_c)                                                                              \
  X(File_iread_shared)                                                                             \
  X(File_iread_shared_c)                                                                           \
  X(File_iwrite)                                                                                   \
  X(File_iwrite_c)                                                                                 \
  X(File_iwrite_all)                                                                               \
  X(File_iwrite_all_c)                                                                             \
  X(File_iwrite_shared)                                                                            \
  X(File_iwrite_shared_c)                                                                          \
  X(File_iread_at)                                                                                 \
  X(File_iread_at_c)                                                                               \
  X(File_iread_at_all)                                                                             \
  X(File_iread_at_all_c)                                                                           \
  X(File_iwrite_at)                                                                                \
  X(File_iwrite_at_c)                                                                              \
  X(File_iwrite_at_all)                                                                            \
  X(File_iwrite_at_all_c)                                                                          \
  X(Psend_init)                                                                                    \
  X(Precv_init)

// MPI_* collectives, their nonblocking and persistent twins, and the MPI-4 large-count twins of
// all three (`_c`: counts as MPI_Count, displacements as MPI_Aint), generated from one table row
// each:
// (Name, lowercase name, suffix, parameters, arguments, bytes of this rank's block, root or -1).
#include "mpi/wrappers/Collectives.hpp"

using vcmon::runtime::mpi::Collectives;
using vcmon::runtime::mpi::MpiFunction;

namespace {
constexpr auto bytes_of = [](auto count, MPI_Datatype datatype) {
  return Collectives::bytes_of(count, datatype);
};
} // namespace

// clang-format off
// Parameter lists (and their forwarding) that MPI gives several collectives alike; C is the count
// type, D the displacement type of the form.
#define VCMON_ROOTED_BLOCKS_PARAMS(C)                                                              \
  (const void* sendbuf, C sendcount, MPI_Datatype sendtype, void* recvbuf, C recvcount,            \
   MPI_Datatype recvtype, int root, MPI_Comm comm)
#define VCMON_ROOTED_BLOCKS_ARGS                                                                   \
  (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
#define VCMON_BLOCKS_PARAMS(C)                                                                     \
  (const void* sendbuf, C sendcount, MPI_Datatype sendtype, void* recvbuf, C recvcount,            \
   MPI_Datatype recvtype, MPI_Comm comm)
#define VCMON_BLOCKS_ARGS (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
#define VCMON_GATHERED_VECTOR_PARAMS(C, D)                                                         \
  (const void* sendbuf, C sendcount, MPI_Datatype sendtype, void* recvbuf,                         \
   const C recvcounts[], const D displs[], MPI_Datatype recvtype, MPI_Comm comm)
#define VCMON_GATHERED_VECTOR_ARGS                                                                 \
  (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm)
#define VCMON_VECTORS_PARAMS(C, D)                                                                 \
  (const void* sendbuf, const C sendcounts[], const D sdispls[], MPI_Datatype sendtype,            \
   void* recvbuf, const C recvcounts[], const D rdispls[], MPI_Datatype recvtype,                  \
   MPI_Comm comm)
#define VCMON_VECTORS_ARGS                                                                         \
  (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm)
#define VCMON_TYPED_VECTORS_PARAMS(C, D)                                                           \
  (const void* sendbuf, const C sendcounts[], const D sdispls[],                                   \
   const MPI_Datatype sendtypes[], void* recvbuf, const C recvcounts[], const D rdispls[],         \
   const MPI_Datatype recvtypes[], MPI_Comm comm)
#define VCMON_TYPED_VECTORS_ARGS                                                                   \
  (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm)
#define VCMON_REDUCTION_PARAMS(C)                                                                  \
  (const void* sendbuf, void* recvbuf, C count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define VCMON_REDUCTION_ARGS (sendbuf, recvbuf, count, datatype, op, comm)

// The collectives with counts (vcmon/tables/MpiFunctions.hpp, VCMON_MPI_COUNTED_COLLECTIVES),
// each form named with suffix S, counts of type C, displacements of type D.
#define VCMON_COUNTED_COLLECTIVE_SIGNATURES(X, S, C, D)                                            \
  X(Bcast, bcast, S,                                                                               \
    (void* buffer, C count, MPI_Datatype datatype, int root, MPI_Comm comm),                       \
    (buffer, count, datatype, root, comm), bytes_of(count, datatype), root)                        \
  X(Gather, gather, S,                                                                             \
    VCMON_ROOTED_BLOCKS_PARAMS(C), VCMON_ROOTED_BLOCKS_ARGS,                                       \
    sendbuf == MPI_IN_PLACE ? bytes_of(recvcount, recvtype) : bytes_of(sendcount, sendtype), root) \
  X(Gatherv, gatherv, S,                                                                           \
    (const void* sendbuf, C sendcount, MPI_Datatype sendtype, void* recvbuf,                       \
     const C recvcounts[], const D displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),      \
    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),             \
    sendbuf == MPI_IN_PLACE ? 0 : bytes_of(sendcount, sendtype), root)                             \
  X(Scatter, scatter, S,                                                                           \
    VCMON_ROOTED_BLOCKS_PARAMS(C), VCMON_ROOTED_BLOCKS_ARGS,                                       \
    recvbuf == MPI_IN_PLACE ? bytes_of(sendcount, sendtype) : bytes_of(recvcount, recvtype), root) \
  X(Scatterv, scatterv, S,                                                                         \
    (const void* sendbuf, const C sendcounts[], const D displs[], MPI_Datatype sendtype,           \
     void* recvbuf, C recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),                  \
    (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),             \
    recvbuf == MPI_IN_PLACE ? 0 : bytes_of(recvcount, recvtype), root)                             \
  X(Allgather, allgather, S,                                                                       \
    VCMON_BLOCKS_PARAMS(C), VCMON_BLOCKS_ARGS,                                                     \
    bytes_of(recvcount, recvtype), -1)                                                             \
  X(Allgatherv, allgatherv, S,                                                                     \
    VCMON_GATHERED_VECTOR_PARAMS(C, D), VCMON_GATHERED_VECTOR_ARGS,                                \
    sendbuf == MPI_IN_PLACE ? 0 : bytes_of(sendcount, sendtype), -1)                               \
  X(Alltoall, alltoall, S, VCMON_BLOCKS_PARAMS(C), VCMON_BLOCKS_ARGS,                              \
    bytes_of(recvcount, recvtype), -1)                                                             \
  X(Alltoallv, alltoallv, S, VCMON_VECTORS_PARAMS(C, D), VCMON_VECTORS_ARGS, 0, -1)                \
  X(Alltoallw, alltoallw, S, VCMON_TYPED_VECTORS_PARAMS(C, D), VCMON_TYPED_VECTORS_ARGS, 0, -1)    \
  X(Reduce, reduce, S,                                                                             \
    (const void* sendbuf, void* recvbuf, C count, MPI_Datatype datatype, MPI_Op op, int root,      \
     MPI_Comm comm),                                                                               \
    (sendbuf, recvbuf, count, datatype, op, root, comm), bytes_of(count, datatype), root)          \
  X(Allreduce, allreduce, S,                                                                       \
    VCMON_REDUCTION_PARAMS(C), VCMON_REDUCTION_ARGS, bytes_of(count, datatype), -1)                \
  X(Reduce_scatter, reduce_scatter, S,                                                             \
    (const void* sendbuf, void* recvbuf, const C recvcounts[], MPI_Datatype datatype,              \
     MPI_Op op, MPI_Comm comm),                                                                    \
    (sendbuf, recvbuf, recvcounts, datatype, op, comm), 0, -1)                                     \
  X(Reduce_scatter_block, reduce_scatter_block, S,                                                 \
    (const void* sendbuf, void* recvbuf, C recvcount, MPI_Datatype datatype, MPI_Op op,            \
     MPI_Comm comm),                                                                               \
    (sendbuf, recvbuf, recvcount, datatype, op, comm), bytes_of(recvcount, datatype), -1)          \
  X(Scan, scan, S, VCMON_REDUCTION_PARAMS(C), VCMON_REDUCTION_ARGS, bytes_of(count, datatype), -1) \
  X(Exscan, exscan, S, VCMON_REDUCTION_PARAMS(C), VCMON_REDUCTION_ARGS,                            \
    bytes_of(count, datatype), -1)                                                                 \
  X(Neighbor_allgather, neighbor_allgather, S,                                                     \
    VCMON_BLOCKS_PARAMS(C), VCMON_BLOCKS_ARGS,                                                     \
    bytes_of(recvcount, recvtype), -1)                                                             \
  X(Neighbor_allgatherv, neighbor_allgatherv, S,                                                   \
    VCMON_GATHERED_VECTOR_PARAMS(C, D), VCMON_GATHERED_VECTOR_ARGS,                                \
    bytes_of(sendcount, sendtype), -1)                                                             \
  X(Neighbor_alltoall, neighbor_alltoall, S,                                                       \
    VCMON_BLOCKS_PARAMS(C), VCMON_BLOCKS_ARGS,                                                     \
    bytes_of(recvcount, recvtype), -1)                                                             \
  X(Neighbor_alltoallv, neighbor_alltoallv, S, VCMON_VECTORS_PARAMS(C, D), VCMON_VECTORS_ARGS,     \
    0, -1)                                                                                         \
  /* MPI gives this one MPI_Aint displacements in both forms. */                                   \
  X(Neighbor_alltoallw, neighbor_alltoallw, S, VCMON_TYPED_VECTORS_PARAMS(C, MPI_Aint),            \
    VCMON_TYPED_VECTORS_ARGS, 0, -1)
// clang-format on

#define VCMON_UNPACK(...) __VA_ARGS__

#define VCMON_DEFINE_COLLECTIVE(NAME, lower, S, PARAMS, ARGS, BYTES, ROOT)                         \
  extern "C" int MPI_##NAME##S PARAMS {                                                            \
    return Collectives::blocking(                                                                  \
        MpiFunction::NAME##S, ROOT, comm, [&]() -> std::uint64_t { return BYTES; },                \
        [&] { return PMPI_##NAME##S ARGS; });                                                      \
  }                                                                                                \
  extern "C" int MPI_I##lower##S(VCMON_UNPACK PARAMS, MPI_Request* request) {                      \
    return Collectives::nonblocking(                                                               \
        MpiFunction::I##lower##S, ROOT, comm, [&]() -> std::uint64_t { return BYTES; }, request,   \
        [&] { return PMPI_I##lower##S(VCMON_UNPACK ARGS, request); });                             \
  }                                                                                                \
  extern "C" int MPI_##NAME##_init##S(VCMON_UNPACK PARAMS, MPI_Info info, MPI_Request* request) {  \
    return Collectives::persistent(                                                                \
        MpiFunction::NAME##_init##S, ROOT, comm, [&]() -> std::uint64_t { return BYTES; },         \
        request, [&] { return PMPI_##NAME##_init##S(VCMON_UNPACK ARGS, info, request); });         \
  }

VCMON_DEFINE_COLLECTIVE(Barrier, barrier, , (MPI_Comm comm), (comm), 0, -1)
VCMON_COUNTED_COLLECTIVE_SIGNATURES(VCMON_DEFINE_COLLECTIVE, , int, int)
VCMON_COUNTED_COLLECTIVE_SIGNATURES(VCMON_DEFINE_COLLECTIVE, _c, MPI_Count, MPI_Aint)

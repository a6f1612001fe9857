// MPI_* collectives and their nonblocking and persistent twins, generated from one table row
// each:
// (Name, lowercase name, parameters, arguments, bytes of this rank's block, root or -1).
#include "mpi/wrappers/Collectives.hpp"

using vcmon::runtime::mpi::Collectives;
using vcmon::runtime::mpi::MpiFunction;

namespace {
constexpr auto bytes_of = [](auto count, MPI_Datatype datatype) {
  return Collectives::bytes_of(count, datatype);
};
} // namespace

// clang-format off
// Parameter lists (and their forwarding) that MPI gives several collectives alike.
#define VCMON_ROOTED_BLOCKS_PARAMS                                                                 \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,        \
   MPI_Datatype recvtype, int root, MPI_Comm comm)
#define VCMON_ROOTED_BLOCKS_ARGS                                                                   \
  (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
#define VCMON_BLOCKS_PARAMS                                                                        \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,        \
   MPI_Datatype recvtype, MPI_Comm comm)
#define VCMON_BLOCKS_ARGS (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
#define VCMON_GATHERED_VECTOR_PARAMS                                                               \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,                       \
   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
#define VCMON_GATHERED_VECTOR_ARGS                                                                 \
  (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm)
#define VCMON_VECTORS_PARAMS                                                                       \
  (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,        \
   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,              \
   MPI_Comm comm)
#define VCMON_VECTORS_ARGS                                                                         \
  (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm)
#define VCMON_REDUCTION_PARAMS                                                                     \
  (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define VCMON_REDUCTION_ARGS (sendbuf, recvbuf, count, datatype, op, comm)

#define VCMON_COLLECTIVE_SIGNATURES(X)                                                             \
  X(Barrier, barrier, (MPI_Comm comm), (comm), 0, -1)                                              \
  X(Bcast, bcast,                                                                                  \
    (void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm),                     \
    (buffer, count, datatype, root, comm), bytes_of(count, datatype), root)                        \
  X(Gather, gather,                                                                                \
    VCMON_ROOTED_BLOCKS_PARAMS, VCMON_ROOTED_BLOCKS_ARGS,                                          \
    sendbuf == MPI_IN_PLACE ? bytes_of(recvcount, recvtype) : bytes_of(sendcount, sendtype), root) \
  X(Gatherv, gatherv,                                                                              \
    (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,                     \
     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),  \
    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),             \
    sendbuf == MPI_IN_PLACE ? 0 : bytes_of(sendcount, sendtype), root)                             \
  X(Scatter, scatter,                                                                              \
    VCMON_ROOTED_BLOCKS_PARAMS, VCMON_ROOTED_BLOCKS_ARGS,                                          \
    recvbuf == MPI_IN_PLACE ? bytes_of(sendcount, sendtype) : bytes_of(recvcount, recvtype), root) \
  X(Scatterv, scatterv,                                                                            \
    (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,       \
     void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),                \
    (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),             \
    recvbuf == MPI_IN_PLACE ? 0 : bytes_of(recvcount, recvtype), root)                             \
  X(Allgather, allgather,                                                                          \
    VCMON_BLOCKS_PARAMS, VCMON_BLOCKS_ARGS,                                                        \
    bytes_of(recvcount, recvtype), -1)                                                             \
  X(Allgatherv, allgatherv,                                                                        \
    VCMON_GATHERED_VECTOR_PARAMS, VCMON_GATHERED_VECTOR_ARGS,                                      \
    sendbuf == MPI_IN_PLACE ? 0 : bytes_of(sendcount, sendtype), -1)                               \
  X(Alltoall, alltoall, VCMON_BLOCKS_PARAMS, VCMON_BLOCKS_ARGS, bytes_of(recvcount, recvtype), -1) \
  X(Alltoallv, alltoallv, VCMON_VECTORS_PARAMS, VCMON_VECTORS_ARGS, 0, -1)                         \
  X(Alltoallw, alltoallw,                                                                          \
    (const void* sendbuf, const int sendcounts[], const int sdispls[],                             \
     const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],   \
     const MPI_Datatype recvtypes[], MPI_Comm comm),                                               \
    (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), 0, -1) \
  X(Reduce, reduce,                                                                                \
    (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,    \
     MPI_Comm comm),                                                                               \
    (sendbuf, recvbuf, count, datatype, op, root, comm), bytes_of(count, datatype), root)          \
  X(Allreduce, allreduce,                                                                          \
    VCMON_REDUCTION_PARAMS, VCMON_REDUCTION_ARGS, bytes_of(count, datatype), -1)                   \
  X(Reduce_scatter, reduce_scatter,                                                                \
    (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,            \
     MPI_Op op, MPI_Comm comm),                                                                    \
    (sendbuf, recvbuf, recvcounts, datatype, op, comm), 0, -1)                                     \
  X(Reduce_scatter_block, reduce_scatter_block,                                                    \
    (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,          \
     MPI_Comm comm),                                                                               \
    (sendbuf, recvbuf, recvcount, datatype, op, comm), bytes_of(recvcount, datatype), -1)          \
  X(Scan, scan, VCMON_REDUCTION_PARAMS, VCMON_REDUCTION_ARGS, bytes_of(count, datatype), -1)       \
  X(Exscan, exscan, VCMON_REDUCTION_PARAMS, VCMON_REDUCTION_ARGS, bytes_of(count, datatype), -1)   \
  X(Neighbor_allgather, neighbor_allgather,                                                        \
    VCMON_BLOCKS_PARAMS, VCMON_BLOCKS_ARGS,                                                        \
    bytes_of(recvcount, recvtype), -1)                                                             \
  X(Neighbor_allgatherv, neighbor_allgatherv,                                                      \
    VCMON_GATHERED_VECTOR_PARAMS, VCMON_GATHERED_VECTOR_ARGS,                                      \
    bytes_of(sendcount, sendtype), -1)                                                             \
  X(Neighbor_alltoall, neighbor_alltoall,                                                          \
    VCMON_BLOCKS_PARAMS, VCMON_BLOCKS_ARGS,                                                        \
    bytes_of(recvcount, recvtype), -1)                                                             \
  X(Neighbor_alltoallv, neighbor_alltoallv, VCMON_VECTORS_PARAMS, VCMON_VECTORS_ARGS, 0, -1)       \
  X(Neighbor_alltoallw, neighbor_alltoallw,                                                        \
    (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],                        \
     const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],                        \
     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),                     \
    (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), 0, -1)
// clang-format on

#define VCMON_UNPACK(...) __VA_ARGS__

#define VCMON_DEFINE_COLLECTIVE(NAME, lower, PARAMS, ARGS, BYTES, ROOT)                            \
  extern "C" int MPI_##NAME PARAMS {                                                               \
    return Collectives::blocking(                                                                  \
        MpiFunction::NAME, ROOT, comm, [&]() -> std::uint64_t { return BYTES; },                   \
        [&] { return PMPI_##NAME ARGS; });                                                         \
  }                                                                                                \
  extern "C" int MPI_I##lower(VCMON_UNPACK PARAMS, MPI_Request* request) {                         \
    return Collectives::nonblocking(                                                               \
        MpiFunction::I##lower, ROOT, comm, [&]() -> std::uint64_t { return BYTES; }, request,      \
        [&] { return PMPI_I##lower(VCMON_UNPACK ARGS, request); });                                \
  }                                                                                                \
  extern "C" int MPI_##NAME##_init(VCMON_UNPACK PARAMS, MPI_Info info, MPI_Request* request) {     \
    return Collectives::persistent(                                                                \
        MpiFunction::NAME##_init, ROOT, comm, [&]() -> std::uint64_t { return BYTES; }, request,   \
        [&] { return PMPI_##NAME##_init(VCMON_UNPACK ARGS, info, request); });                     \
  }

VCMON_COLLECTIVE_SIGNATURES(VCMON_DEFINE_COLLECTIVE)

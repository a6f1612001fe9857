// MPI_* point-to-point entry points, each in its int-count and MPI_Count (`_c`) form,
// generated from one line per function.
#include "mpi/PointToPoint.hpp"

using vcmon::runtime::mpi::MpiFunction;
using vcmon::runtime::mpi::PointToPoint;
using vcmon::runtime::mpi::SendMode;

// Blocking sends: MPI_Send, MPI_Bsend, MPI_Rsend, MPI_Ssend.
#define VCMON_SEND(NAME, COUNT, MODE)                                                              \
  extern "C" int MPI_##NAME(const void* buf, COUNT count, MPI_Datatype datatype, int dest,         \
                            int tag, MPI_Comm comm) {                                              \
    return PointToPoint::send(MpiFunction::NAME, SendMode::MODE, count, datatype, dest, tag, comm, \
                              [&] { return PMPI_##NAME(buf, count, datatype, dest, tag, comm); }); \
  }

// Nonblocking sends (MPI_Isend, ...) and persistent ones (MPI_Send_init, ...; a persistent
// buffered send stamps at MPI_Start like the others: see docs/pmpi.md).
#define VCMON_ISEND(NAME, COUNT, MODE, SHAPE)                                                      \
  extern "C" int MPI_##NAME(const void* buf, COUNT count, MPI_Datatype datatype, int dest,         \
                            int tag, MPI_Comm comm, MPI_Request* request) {                        \
    return PointToPoint::SHAPE(                                                                    \
        MpiFunction::NAME, SendMode::MODE, count, datatype, dest, tag, comm, request,              \
        [&] { return PMPI_##NAME(buf, count, datatype, dest, tag, comm, request); });              \
  }

#define VCMON_RECV(NAME, COUNT)                                                                    \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int source, int tag,    \
                            MPI_Comm comm, MPI_Status* status) {                                   \
    return PointToPoint::recv(MpiFunction::NAME, source, tag, comm, status, [&](MPI_Status* st) {  \
      return PMPI_##NAME(buf, count, datatype, source, tag, comm, st);                             \
    });                                                                                            \
  }

#define VCMON_IRECV(NAME, COUNT)                                                                   \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int source, int tag,    \
                            MPI_Comm comm, MPI_Request* request) {                                 \
    return PointToPoint::irecv(MpiFunction::NAME, source, tag, comm, request, [&] {                \
      return PMPI_##NAME(buf, count, datatype, source, tag, comm, request);                        \
    });                                                                                            \
  }

#define VCMON_RECV_INIT(NAME, COUNT)                                                               \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int source, int tag,    \
                            MPI_Comm comm, MPI_Request* request) {                                 \
    return PointToPoint::recv_init(MpiFunction::NAME, source, comm, request, [&] {                 \
      return PMPI_##NAME(buf, count, datatype, source, tag, comm, request);                        \
    });                                                                                            \
  }

#define VCMON_SENDRECV(NAME, COUNT)                                                                \
  extern "C" int MPI_##NAME(const void* sendbuf, COUNT sendcount, MPI_Datatype sendtype, int dest, \
                            int sendtag, void* recvbuf, COUNT recvcount, MPI_Datatype recvtype,    \
                            int source, int recvtag, MPI_Comm comm, MPI_Status* status) {          \
    return PointToPoint::sendrecv(                                                                 \
        MpiFunction::NAME, sendcount, sendtype, dest, sendtag, recvcount, recvtype, source,        \
        recvtag, comm, status, [&](MPI_Status* st) {                                               \
          return PMPI_##NAME(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,      \
                             recvtype, source, recvtag, comm, st);                                 \
        });                                                                                        \
  }

#define VCMON_SENDRECV_REPLACE(NAME, COUNT)                                                        \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int dest, int sendtag,  \
                            int source, int recvtag, MPI_Comm comm, MPI_Status* status) {          \
    return PointToPoint::sendrecv(MpiFunction::NAME, count, datatype, dest, sendtag, count,        \
                                  datatype, source, recvtag, comm, status, [&](MPI_Status* st) {   \
                                    return PMPI_##NAME(buf, count, datatype, dest, sendtag,        \
                                                       source, recvtag, comm, st);                 \
                                  });                                                              \
  }

#define VCMON_ISENDRECV(NAME, COUNT)                                                               \
  extern "C" int MPI_##NAME(const void* sendbuf, COUNT sendcount, MPI_Datatype sendtype, int dest, \
                            int sendtag, void* recvbuf, COUNT recvcount, MPI_Datatype recvtype,    \
                            int source, int recvtag, MPI_Comm comm, MPI_Request* request) {        \
    return PointToPoint::isendrecv(MpiFunction::NAME, sendcount, sendtype, dest, sendtag,          \
                                   recvcount, recvtype, source, recvtag, comm, request, [&] {      \
                                     return PMPI_##NAME(sendbuf, sendcount, sendtype, dest,        \
                                                        sendtag, recvbuf, recvcount, recvtype,     \
                                                        source, recvtag, comm, request);           \
                                   });                                                             \
  }

#define VCMON_ISENDRECV_REPLACE(NAME, COUNT)                                                       \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int dest, int sendtag,  \
                            int source, int recvtag, MPI_Comm comm, MPI_Request* request) {        \
    return PointToPoint::isendrecv(MpiFunction::NAME, count, datatype, dest, sendtag, count,       \
                                   datatype, source, recvtag, comm, request, [&] {                 \
                                     return PMPI_##NAME(buf, count, datatype, dest, sendtag,       \
                                                        source, recvtag, comm, request);           \
                                   });                                                             \
  }

#define VCMON_MRECV(NAME, COUNT)                                                                   \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, MPI_Message* message,   \
                            MPI_Status* status) {                                                  \
    return PointToPoint::mrecv(MpiFunction::NAME, message, status, [&](MPI_Status* st) {           \
      return PMPI_##NAME(buf, count, datatype, message, st);                                       \
    });                                                                                            \
  }

#define VCMON_IMRECV(NAME, COUNT)                                                                  \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, MPI_Message* message,   \
                            MPI_Request* request) {                                                \
    return PointToPoint::imrecv(MpiFunction::NAME, message, request, [&] {                         \
      return PMPI_##NAME(buf, count, datatype, message, request);                                  \
    });                                                                                            \
  }

// Every function in both count forms.
#define VCMON_BOTH_COUNTS(MACRO, NAME, ...)                                                        \
  MACRO(NAME, int __VA_OPT__(, ) __VA_ARGS__)                                                      \
  MACRO(NAME##_c, MPI_Count __VA_OPT__(, ) __VA_ARGS__)

VCMON_BOTH_COUNTS(VCMON_SEND, Send, Standard)
VCMON_BOTH_COUNTS(VCMON_SEND, Bsend, Buffered)
VCMON_BOTH_COUNTS(VCMON_SEND, Rsend, Standard)
VCMON_BOTH_COUNTS(VCMON_SEND, Ssend, Synchronous)
VCMON_BOTH_COUNTS(VCMON_ISEND, Isend, Standard, isend)
VCMON_BOTH_COUNTS(VCMON_ISEND, Ibsend, Buffered, isend)
VCMON_BOTH_COUNTS(VCMON_ISEND, Irsend, Standard, isend)
VCMON_BOTH_COUNTS(VCMON_ISEND, Issend, Synchronous, isend)
VCMON_BOTH_COUNTS(VCMON_ISEND, Send_init, Standard, send_init)
VCMON_BOTH_COUNTS(VCMON_ISEND, Bsend_init, Standard, send_init)
VCMON_BOTH_COUNTS(VCMON_ISEND, Rsend_init, Standard, send_init)
VCMON_BOTH_COUNTS(VCMON_ISEND, Ssend_init, Synchronous, send_init)
VCMON_BOTH_COUNTS(VCMON_RECV, Recv)
VCMON_BOTH_COUNTS(VCMON_IRECV, Irecv)
VCMON_BOTH_COUNTS(VCMON_RECV_INIT, Recv_init)
VCMON_BOTH_COUNTS(VCMON_SENDRECV, Sendrecv)
VCMON_BOTH_COUNTS(VCMON_SENDRECV_REPLACE, Sendrecv_replace)
VCMON_BOTH_COUNTS(VCMON_ISENDRECV, Isendrecv)
VCMON_BOTH_COUNTS(VCMON_ISENDRECV_REPLACE, Isendrecv_replace)
VCMON_BOTH_COUNTS(VCMON_MRECV, Mrecv)
VCMON_BOTH_COUNTS(VCMON_IMRECV, Imrecv)

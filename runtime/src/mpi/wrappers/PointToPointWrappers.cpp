// MPI_* point-to-point entry points, each in its int-count and MPI_Count (`_c`) form,
// generated from one line per function.
#include "mpi/wrappers/PointToPoint.hpp"

using vcmon::runtime::mpi::MessageArguments;
using vcmon::runtime::mpi::MpiFunction;
using vcmon::runtime::mpi::PointToPoint;
using vcmon::runtime::mpi::SendMode;

// Blocking sends: MPI_Send, MPI_Bsend, MPI_Rsend, MPI_Ssend, with their nonblocking twins.
#define VCMON_SEND(NAME, INAME, COUNT, MODE)                                                       \
  extern "C" int MPI_##NAME(const void* buf, COUNT count, MPI_Datatype datatype, int dest,         \
                            int tag, MPI_Comm comm) {                                              \
    return PointToPoint::send(                                                                     \
        MpiFunction::NAME, SendMode::MODE,                                                         \
        MessageArguments<COUNT>{count, datatype, dest, tag, comm},                                 \
        [&] { return PMPI_##NAME(buf, count, datatype, dest, tag, comm); },                        \
        [&](MPI_Request* r) { return PMPI_##INAME(buf, count, datatype, dest, tag, comm, r); });   \
  }

// Nonblocking sends (MPI_Isend, ...) and persistent ones (MPI_Send_init, ...; a persistent
// buffered send stamps at MPI_Start like the others: see docs/pmpi.md).
#define VCMON_ISEND(NAME, COUNT, MODE, SHAPE)                                                      \
  extern "C" int MPI_##NAME(const void* buf, COUNT count, MPI_Datatype datatype, int dest,         \
                            int tag, MPI_Comm comm, MPI_Request* request) {                        \
    return PointToPoint::SHAPE(                                                                    \
        MpiFunction::NAME, SendMode::MODE,                                                         \
        MessageArguments<COUNT>{count, datatype, dest, tag, comm}, request,                        \
        [&] { return PMPI_##NAME(buf, count, datatype, dest, tag, comm, request); });              \
  }

#define VCMON_RECV(NAME, COUNT)                                                                    \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int source, int tag,    \
                            MPI_Comm comm, MPI_Status* status) {                                   \
    return PointToPoint::recv(MpiFunction::NAME,                                                   \
                              MessageArguments<COUNT>{count, datatype, source, tag, comm}, status, \
                              [&](int from, MPI_Status* st) {                                      \
                                return PMPI_##NAME(buf, count, datatype, from, tag, comm, st);     \
                              });                                                                  \
  }

#define VCMON_IRECV(NAME, COUNT)                                                                   \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int source, int tag,    \
                            MPI_Comm comm, MPI_Request* request) {                                 \
    return PointToPoint::irecv(                                                                    \
        MpiFunction::NAME, buf, MessageArguments<COUNT>{count, datatype, source, tag, comm},       \
        request, [&] { return PMPI_##NAME(buf, count, datatype, source, tag, comm, request); });   \
  }

#define VCMON_RECV_INIT(NAME, COUNT)                                                               \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int source, int tag,    \
                            MPI_Comm comm, MPI_Request* request) {                                 \
    return PointToPoint::recv_init(MpiFunction::NAME, source, tag, comm, request, [&] {            \
      return PMPI_##NAME(buf, count, datatype, source, tag, comm, request);                        \
    });                                                                                            \
  }

#define VCMON_SENDRECV(NAME, COUNT, ISEND, RECV)                                                   \
  extern "C" int MPI_##NAME(const void* sendbuf, COUNT sendcount, MPI_Datatype sendtype, int dest, \
                            int sendtag, void* recvbuf, COUNT recvcount, MPI_Datatype recvtype,    \
                            int source, int recvtag, MPI_Comm comm, MPI_Status* status) {          \
    return PointToPoint::sendrecv(                                                                 \
        MpiFunction::NAME, MessageArguments<COUNT>{sendcount, sendtype, dest, sendtag, comm},      \
        MessageArguments<COUNT>{recvcount, recvtype, source, recvtag, comm}, status,               \
        [&](int from, MPI_Status* st) {                                                            \
          return PMPI_##NAME(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,      \
                             recvtype, from, recvtag, comm, st);                                   \
        },                                                                                         \
        [&](MPI_Request* r) {                                                                      \
          return PMPI_##ISEND(sendbuf, sendcount, sendtype, dest, sendtag, comm, r);               \
        },                                                                                         \
        [&](int from, MPI_Status* st) {                                                            \
          return PMPI_##RECV(recvbuf, recvcount, recvtype, from, recvtag, comm, st);               \
        });                                                                                        \
  }

// The send half of a wildcard Sendrecv_replace leaves from a packed copy (the buffer receives).
// MPICH's Sendrecv_replace writes the status's MPI_ERROR (Sendrecv and Recv leave it), so its
// receive half does too.
#define VCMON_SENDRECV_REPLACE(NAME, COUNT, RECV)                                                  \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int dest, int sendtag,  \
                            int source, int recvtag, MPI_Comm comm, MPI_Status* status) {          \
    return PointToPoint::sendrecv(                                                                 \
        MpiFunction::NAME, MessageArguments<COUNT>{count, datatype, dest, sendtag, comm},          \
        MessageArguments<COUNT>{count, datatype, source, recvtag, comm}, status,                   \
        [&](int from, MPI_Status* st) {                                                            \
          return PMPI_##NAME(buf, count, datatype, dest, sendtag, from, recvtag, comm, st);        \
        },                                                                                         \
        [&](MPI_Request* r) {                                                                      \
          return PointToPoint::isend_copy(buf, count, datatype, dest, sendtag, comm, r);           \
        },                                                                                         \
        [&](int from, MPI_Status* st) {                                                            \
          const int rc = PMPI_##RECV(buf, count, datatype, from, recvtag, comm, st);               \
          st->MPI_ERROR = rc;                                                                      \
          return rc;                                                                               \
        });                                                                                        \
  }

#define VCMON_ISENDRECV(NAME, COUNT)                                                               \
  extern "C" int MPI_##NAME(const void* sendbuf, COUNT sendcount, MPI_Datatype sendtype, int dest, \
                            int sendtag, void* recvbuf, COUNT recvcount, MPI_Datatype recvtype,    \
                            int source, int recvtag, MPI_Comm comm, MPI_Request* request) {        \
    return PointToPoint::isendrecv(                                                                \
        MpiFunction::NAME, sendbuf,                                                                \
        MessageArguments<COUNT>{sendcount, sendtype, dest, sendtag, comm}, recvbuf,                \
        MessageArguments<COUNT>{recvcount, recvtype, source, recvtag, comm}, request, [&] {        \
          return PMPI_##NAME(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,      \
                             recvtype, source, recvtag, comm, request);                            \
        });                                                                                        \
  }

#define VCMON_ISENDRECV_REPLACE(NAME, COUNT)                                                       \
  extern "C" int MPI_##NAME(void* buf, COUNT count, MPI_Datatype datatype, int dest, int sendtag,  \
                            int source, int recvtag, MPI_Comm comm, MPI_Request* request) {        \
    return PointToPoint::isendrecv(                                                                \
        MpiFunction::NAME, nullptr, MessageArguments<COUNT>{count, datatype, dest, sendtag, comm}, \
        buf, MessageArguments<COUNT>{count, datatype, source, recvtag, comm}, request, [&] {       \
          return PMPI_##NAME(buf, count, datatype, dest, sendtag, source, recvtag, comm, request); \
        });                                                                                        \
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

VCMON_SEND(Send, Isend, int, Standard)
VCMON_SEND(Send_c, Isend_c, MPI_Count, Standard)
VCMON_SEND(Bsend, Ibsend, int, Buffered)
VCMON_SEND(Bsend_c, Ibsend_c, MPI_Count, Buffered)
VCMON_SEND(Rsend, Irsend, int, Standard)
VCMON_SEND(Rsend_c, Irsend_c, MPI_Count, Standard)
VCMON_SEND(Ssend, Issend, int, Synchronous)
VCMON_SEND(Ssend_c, Issend_c, MPI_Count, Synchronous)
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
VCMON_SENDRECV(Sendrecv, int, Isend, Recv)
VCMON_SENDRECV(Sendrecv_c, MPI_Count, Isend_c, Recv_c)
VCMON_SENDRECV_REPLACE(Sendrecv_replace, int, Recv)
VCMON_SENDRECV_REPLACE(Sendrecv_replace_c, MPI_Count, Recv_c)
VCMON_BOTH_COUNTS(VCMON_ISENDRECV, Isendrecv)
VCMON_BOTH_COUNTS(VCMON_ISENDRECV_REPLACE, Isendrecv_replace)
VCMON_BOTH_COUNTS(VCMON_MRECV, Mrecv)
VCMON_BOTH_COUNTS(VCMON_IMRECV, Imrecv)

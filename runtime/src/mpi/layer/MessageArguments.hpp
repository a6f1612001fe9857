// A point-to-point call's message, as the program passed it: what the layer checks, stamps and
// tracks. One object instead of five parameters through every shape of PointToPoint.
#pragma once

#include <mpi.h>

namespace vcmon::runtime::mpi {

template <typename Count> struct MessageArguments {
  Count count;
  MPI_Datatype datatype;
  int peer; // the destination of a send, the source of a receive: a rank of `comm`
  int tag;
  MPI_Comm comm;
};

} // namespace vcmon::runtime::mpi

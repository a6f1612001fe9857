// The MPI classifier: communication functions only.
#include "MpiClassifier.hpp"

#include "vcmon/tables/MpiFunctions.hpp"

#include <gtest/gtest.h>

namespace vcmon::preprocessor {
namespace {

TEST(MpiClassifier, CommunicationFunctionsByCategory) {
  EXPECT_EQ(classify_mpi_function("MPI_Send"), MpiCategory::PointToPoint);
  EXPECT_EQ(classify_mpi_function("MPI_Irecv"), MpiCategory::PointToPoint);
  EXPECT_EQ(classify_mpi_function("MPI_Allreduce"), MpiCategory::Collective);
  EXPECT_EQ(classify_mpi_function("MPI_Iprobe"), MpiCategory::Probe);
  EXPECT_EQ(classify_mpi_function("MPI_Waitany"), MpiCategory::Completion);
  EXPECT_EQ(classify_mpi_function("MPI_Testsome"), MpiCategory::Completion);
}

// The classifier is expanded from vcmon/tables/MpiFunctions.hpp, the list the runtime wraps:
// persistent requests and their starts, MPI_Isendrecv and the large-count functions (once
// missing here while the runtime wrapped them) are communication statements.
TEST(MpiClassifier, PersistentIsendrecvAndLargeCountCallsAreCommunication) {
  for (const char* name : {"MPI_Send_init", "MPI_Recv_init", "MPI_Ssend_init", "MPI_Start",
                           "MPI_Startall", "MPI_Isendrecv", "MPI_Isendrecv_replace", "MPI_Send_c",
                           "MPI_Irecv_c", "MPI_Mrecv_c", "MPI_Ineighbor_alltoallw"}) {
    EXPECT_TRUE(classify_mpi_function(name).has_value()) << name;
  }
  EXPECT_EQ(classify_mpi_function("MPI_Send_init"), MpiCategory::PointToPoint);
  EXPECT_EQ(classify_mpi_function("MPI_Isendrecv_c"), MpiCategory::PointToPoint);
  EXPECT_EQ(classify_mpi_function("MPI_Mprobe"), MpiCategory::Probe);
}

TEST(MpiClassifier, EveryCommunicationListOfTheSpecificationClassifies) {
#define VCMON_EXPECT_NAMED(NAME, CATEGORY)                                                         \
  EXPECT_EQ(classify_mpi_function("MPI_" #NAME), MpiCategory::CATEGORY) << #NAME;
#define VCMON_EXPECT_P2P(NAME)                                                                     \
  VCMON_EXPECT_NAMED(NAME, PointToPoint) VCMON_EXPECT_NAMED(NAME##_c, PointToPoint)
#define VCMON_EXPECT_PROBE(NAME) VCMON_EXPECT_NAMED(NAME, Probe)
#define VCMON_EXPECT_START(NAME) VCMON_EXPECT_NAMED(NAME, PointToPoint)
#define VCMON_EXPECT_COMPLETION(NAME) VCMON_EXPECT_NAMED(NAME, Completion)
#define VCMON_EXPECT_COLLECTIVE(NAME, lower)                                                       \
  VCMON_EXPECT_NAMED(NAME, Collective)                                                             \
  VCMON_EXPECT_NAMED(I##lower, Collective) VCMON_EXPECT_NAMED(NAME##_init, Collective)
  VCMON_MPI_POINT_TO_POINT(VCMON_EXPECT_P2P)
  VCMON_MPI_PROBES(VCMON_EXPECT_PROBE)
  VCMON_MPI_STARTS(VCMON_EXPECT_START)
  VCMON_MPI_COMPLETION(VCMON_EXPECT_COMPLETION)
  VCMON_MPI_COLLECTIVES(VCMON_EXPECT_COLLECTIVE)
#define VCMON_EXPECT_COLLECTIVE_C(NAME, lower)                                                     \
  VCMON_EXPECT_NAMED(NAME##_c, Collective)                                                         \
  VCMON_EXPECT_NAMED(I##lower##_c, Collective) VCMON_EXPECT_NAMED(NAME##_init_c, Collective)
  VCMON_MPI_COUNTED_COLLECTIVES(VCMON_EXPECT_COLLECTIVE_C)
#define VCMON_EXPECT_NOT(NAME, ...) EXPECT_FALSE(classify_mpi_function("MPI_" #NAME)) << #NAME;
  VCMON_MPI_LIFECYCLE(VCMON_EXPECT_NOT)
  VCMON_MPI_MANAGEMENT(VCMON_EXPECT_NOT)
  VCMON_MPI_LOCAL_OBJECTS(VCMON_EXPECT_NOT)
}

TEST(MpiClassifier, SetUpAndQueryCallsAreNotCommunication) {
  for (const char* name :
       {"MPI_Init", "MPI_Finalize", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Wtime", "MPI_Get_count",
        "MPI_Type_commit", "MPI_Barrier_c", "MPI_Sendx", "MPI_send", "send"}) {
    EXPECT_FALSE(classify_mpi_function(name).has_value()) << name;
  }
}

TEST(MpiClassifier, MpiNamespace) {
  EXPECT_TRUE(is_mpi_name("MPI_Comm_rank"));
  EXPECT_TRUE(is_mpi_name("PMPI_Send"));
  EXPECT_FALSE(is_mpi_name("my_MPI_Send"));
}

} // namespace
} // namespace vcmon::preprocessor

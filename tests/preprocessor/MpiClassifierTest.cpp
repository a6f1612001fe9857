// The MPI classifier: communication functions only.
#include "MpiClassifier.hpp"

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

TEST(MpiClassifier, SetUpAndQueryCallsAreNotCommunication) {
  for (const char* name :
       {"MPI_Init", "MPI_Finalize", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Wtime", "MPI_Get_count",
        "MPI_Type_commit", "MPI_Sendx", "MPI_send", "send"}) {
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

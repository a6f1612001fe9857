// What the layer leaves for later calls to settle (PendingWork), without MPI: the pool and
// deferred list of the layer's own requests (LayerRequests) and the receives the program freed
// while active (OrphanedReceives). Each process's layer has its own (LayerContext), so two of
// each are made side by side here as two ranks' would be.
#include "MpichHandles.hpp"

#include "mpi/requests/LayerRequests.hpp"
#include "mpi/requests/RequestCompletion.hpp"
#include "mpi/requests/RequestTable.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>

using vcmon::runtime::mpi::LayerRequest;
using vcmon::runtime::mpi::LayerRequests;
using vcmon::runtime::mpi::OrphanedReceives;
using vcmon::runtime::mpi::RequestTable;
using vcmon::runtime::mpi::testing::request;

namespace {

TEST(PendingWork, AcquiredSlotIsReadyForUseThoughThePoolIsZeroed) {
  LayerRequests rank0;
  LayerRequest& slot = rank0.acquire();
  EXPECT_TRUE(slot.in_use.load());
  EXPECT_EQ(slot.request, MPI_REQUEST_NULL);
  EXPECT_TRUE(slot.settle);
  EXPECT_EQ(slot.completion_site, vcmon::tables::kNoSite);
  EXPECT_EQ(slot.owner, &rank0);
  EXPECT_TRUE(slot.pooled);
}

TEST(PendingWork, EachRankHasItsOwnPool) {
  LayerRequests rank0;
  LayerRequests rank1;
  std::set<const LayerRequest*> taken;
  for (std::size_t i = 0; i < LayerRequests::kPoolSize; ++i) {
    LayerRequest& slot = rank0.acquire();
    EXPECT_TRUE(slot.pooled);
    EXPECT_EQ(slot.owner, &rank0);
    taken.insert(&slot);
  }
  EXPECT_EQ(taken.size(), LayerRequests::kPoolSize);
  // Rank 0's pool is used up; rank 1's is untouched.
  LayerRequest& other = rank1.acquire();
  EXPECT_TRUE(other.pooled);
  EXPECT_EQ(other.owner, &rank1);
  EXPECT_EQ(taken.count(&other), 0u);
}

TEST(PendingWork, ForgottenRequestWaitsInItsOwnersDeferredList) {
  LayerRequests rank0;
  LayerRequests rank1;
  LayerRequest& first = rank0.acquire();
  LayerRequest& second = rank0.acquire();
  LayerRequests::forget(first);
  LayerRequests::forget(second);
  EXPECT_EQ(rank0.deferred(), 2u);
  EXPECT_EQ(rank1.deferred(), 0u);
  // Withdrawn unused: it completes without a correction.
  EXPECT_FALSE(first.settle);
  // Still the pool's until it completes: the next acquire takes another slot.
  LayerRequest& third = rank0.acquire();
  EXPECT_NE(&third, &first);
  EXPECT_NE(&third, &second);
}

TEST(PendingWork, EachRankHasItsOwnOrphans) {
  auto table0 = std::make_unique<RequestTable>();
  auto table1 = std::make_unique<RequestTable>();
  OrphanedReceives rank0;
  OrphanedReceives rank1;
  rank0.add(*table0, request(1));
  rank0.add(*table0, request(2));
  rank1.add(*table1, request(1));
  EXPECT_EQ(rank0.count(), 2u);
  EXPECT_EQ(rank1.count(), 1u);
}

} // namespace

// What the layer remembers of a user request until it completes (RequestTable), without MPI:
// tracked and found by handle, erased, MPICH's shared built-in handles left untracked, entries
// hidden while MPI may give their handle to another thread's request. Each process's layer has
// its own table (LayerContext), so two are made side by side here as two ranks' would be.
#include "MpichHandles.hpp"

#include "mpi/requests/RequestTable.hpp"

#include "mpi/layer/CallerCounters.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

using vcmon::runtime::mpi::CallerCounters;
using vcmon::runtime::mpi::RequestTable;
using vcmon::runtime::mpi::TrackedRequest;
using vcmon::runtime::mpi::testing::request;

namespace {

// Kind bits 01: a built-in handle, which MPICH shares among operations complete at once.
MPI_Request built_in(int index) {
  return static_cast<MPI_Request>(static_cast<std::int32_t>(0x6c000000u) + index);
}

TrackedRequest receive_from(int peer, int tag) {
  TrackedRequest tracked;
  tracked.kind = TrackedRequest::Kind::Receive;
  tracked.peer = peer;
  tracked.tag = tag;
  return tracked;
}

// A table is a few MB: on the heap, as the LayerContext that holds it.
std::unique_ptr<RequestTable> table() {
  return std::make_unique<RequestTable>();
}

// Sets whether several threads may call MPI at once, restoring the layer's default after.
class ConcurrentCallers {
public:
  explicit ConcurrentCallers(bool concurrent) {
    CallerCounters::set_concurrent_callers(concurrent);
  }
  ~ConcurrentCallers() { CallerCounters::set_concurrent_callers(true); }
  ConcurrentCallers(const ConcurrentCallers&) = delete;
  ConcurrentCallers& operator=(const ConcurrentCallers&) = delete;
};

TEST(RequestTable, FindsATrackedRequestUntilItIsErased) {
  const auto requests = table();
  TrackedRequest* const tracked = requests->insert(request(1), receive_from(2, 7));
  ASSERT_NE(tracked, nullptr);
  EXPECT_EQ(requests->find(request(1)), tracked);
  EXPECT_EQ(tracked->peer, 2);
  EXPECT_EQ(tracked->tag, 7);
  EXPECT_EQ(requests->find(request(2)), nullptr);
  requests->erase(*tracked);
  EXPECT_EQ(requests->find(request(1)), nullptr);
}

TEST(RequestTable, BuiltInHandlesStayUntracked) {
  const auto requests = table();
  EXPECT_EQ(requests->insert(built_in(1), receive_from(0, 0)), nullptr);
  EXPECT_EQ(requests->find(built_in(1)), nullptr);
  EXPECT_FALSE(requests->any_of([](const TrackedRequest&) { return true; }));
}

TEST(RequestTable, AnEntryCompletingIsHiddenAndShownAgainUnderItsHandleAfter) {
  const ConcurrentCallers concurrent(true);
  const auto requests = table();
  TrackedRequest* const tracked = requests->insert(request(1), receive_from(1, 0));
  requests->hide_while_completing(tracked);
  EXPECT_EQ(requests->find(request(1)), nullptr);
  // Another thread's new request got the handle meanwhile: it does not overwrite the entry.
  TrackedRequest* const other = requests->insert(request(1), receive_from(3, 0));
  ASSERT_NE(other, nullptr);
  EXPECT_NE(other, tracked);
  requests->erase(*other);
  // A persistent request lives on under the program's handle after the call.
  requests->show_if_alive(request(1), tracked);
  EXPECT_EQ(requests->find(request(1)), tracked);
  EXPECT_EQ(tracked->peer, 1);
}

TEST(RequestTable, ACompletedEntryStaysHiddenUntilErased) {
  const ConcurrentCallers concurrent(true);
  const auto requests = table();
  TrackedRequest* const tracked = requests->insert(request(1), receive_from(1, 0));
  requests->hide_while_completing(tracked);
  requests->show_if_alive(MPI_REQUEST_NULL, tracked);
  EXPECT_EQ(requests->find(request(1)), nullptr);
  EXPECT_FALSE(requests->any_of([](const TrackedRequest&) { return true; }));
  requests->erase(*tracked);
  EXPECT_EQ(requests->find(request(1)), nullptr);
}

TEST(RequestTable, OneCallerAtATimeHidesNothing) {
  const ConcurrentCallers concurrent(false);
  const auto requests = table();
  TrackedRequest* const tracked = requests->insert(request(1), receive_from(1, 0));
  requests->hide_while_completing(tracked);
  EXPECT_EQ(requests->find(request(1)), tracked);
  requests->show_if_alive(MPI_REQUEST_NULL, tracked);
  EXPECT_EQ(requests->find(request(1)), tracked);
}

TEST(RequestTable, UntrackedRequestsNeedNothingAroundTheirCompletion) {
  const ConcurrentCallers concurrent(true);
  const auto requests = table();
  requests->hide_while_completing(nullptr);
  requests->show_if_alive(request(1), nullptr);
  EXPECT_EQ(requests->find(request(1)), nullptr);
}

// Before the layer's state was one object per process, every rank's requests went to one
// process-wide table.
TEST(RequestTable, TwoRanksTrackTheirOwnRequests) {
  const auto rank0 = table();
  const auto rank1 = table();
  rank0->insert(request(1), receive_from(1, 4));
  rank1->insert(request(1), receive_from(0, 4));
  ASSERT_NE(rank0->find(request(1)), nullptr);
  ASSERT_NE(rank1->find(request(1)), nullptr);
  EXPECT_EQ(rank0->find(request(1))->peer, 1);
  EXPECT_EQ(rank1->find(request(1))->peer, 0);
  rank1->erase(*rank1->find(request(1)));
  EXPECT_EQ(rank1->find(request(1)), nullptr);
  EXPECT_NE(rank0->find(request(1)), nullptr);
  EXPECT_TRUE(rank0->any_of([](const TrackedRequest& tracked) { return tracked.peer == 1; }));
  EXPECT_FALSE(rank1->any_of([](const TrackedRequest&) { return true; }));
}

} // namespace

// The messages Mprobe took out of matching (ProbedMessages), without MPI: what a matched probe
// left for its Mrecv (its communicator and stamp), taken once, and which communicators it keeps
// alive. Each process's layer
// has its own (LayerContext), so two are made side by side here as two ranks' would be.
#include "MpichHandles.hpp"

#include "mpi/wrappers/ProbedMessages.hpp"

#include <gtest/gtest.h>

#include <cstdint>

using vcmon::runtime::mpi::PendingStamp;
using vcmon::runtime::mpi::ProbedMessage;
using vcmon::runtime::mpi::ProbedMessages;
using vcmon::runtime::mpi::Shadow;
using vcmon::runtime::mpi::testing::message;

namespace {

PendingStamp stamp_from(int source, int tag, std::uint64_t send_vt_ns = 0) {
  PendingStamp stamp;
  stamp.source = source;
  stamp.tag = tag;
  stamp.stamp.send_vt_ns = send_vt_ns;
  return stamp;
}

TEST(ProbedMessages, MrecvTakesWhatItsProbeMatchedOnce) {
  ProbedMessages probed;
  const Shadow comm;
  probed.remember_matched(message(1), comm, stamp_from(3, 17, 4200));
  const ProbedMessage taken = probed.take_matched(message(1));
  EXPECT_EQ(taken.shadow, &comm);
  EXPECT_EQ(taken.stamp.source, 3);
  EXPECT_EQ(taken.stamp.tag, 17);
  EXPECT_EQ(taken.stamp.stamp.send_vt_ns, 4200U);
  EXPECT_EQ(probed.take_matched(message(1)).shadow, nullptr);
}

TEST(ProbedMessages, AMessageNoProbeMatchedHasNoCommunicator) {
  ProbedMessages probed;
  const Shadow comm;
  probed.remember_matched(message(1), comm, stamp_from(0, 0));
  const ProbedMessage unknown = probed.take_matched(message(2));
  EXPECT_EQ(unknown.shadow, nullptr);
  EXPECT_EQ(unknown.stamp.source, MPI_ANY_SOURCE);
  EXPECT_EQ(unknown.stamp.tag, MPI_ANY_TAG);
  EXPECT_EQ(probed.take_matched(message(1)).shadow, &comm);
}

TEST(ProbedMessages, ACommunicatorIsInUseUntilItsLastMessageIsTaken) {
  ProbedMessages probed;
  const Shadow comm;
  const Shadow other;
  probed.remember_matched(message(1), comm, stamp_from(1, 5));
  probed.remember_matched(message(2), comm, stamp_from(2, 5));
  EXPECT_TRUE(probed.refers_to(comm));
  EXPECT_FALSE(probed.refers_to(other));
  probed.take_matched(message(1));
  EXPECT_TRUE(probed.refers_to(comm));
  probed.take_matched(message(2));
  EXPECT_FALSE(probed.refers_to(comm));
}

// Before the layer's state was one object per process, every rank's probes went to one
// process-wide table.
TEST(ProbedMessages, TwoRanksKeepTheirOwnMessages) {
  ProbedMessages rank0;
  ProbedMessages rank1;
  const Shadow comm0;
  const Shadow comm1;
  rank0.remember_matched(message(1), comm0, stamp_from(1, 9));
  rank1.remember_matched(message(1), comm1, stamp_from(0, 9));
  EXPECT_FALSE(rank0.refers_to(comm1));
  EXPECT_FALSE(rank1.refers_to(comm0));
  EXPECT_EQ(rank1.take_matched(message(1)).shadow, &comm1);
  EXPECT_EQ(rank1.take_matched(message(1)).shadow, nullptr);
  const ProbedMessage kept = rank0.take_matched(message(1));
  EXPECT_EQ(kept.shadow, &comm0);
  EXPECT_EQ(kept.stamp.source, 1);
}

} // namespace

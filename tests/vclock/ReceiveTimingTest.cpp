#include "vcmon/vclock/MessageStamp.hpp"

#include <gtest/gtest.h>

namespace vcmon::vclock {
namespace {

MessageStamp sent_at(std::uint64_t vt) {
  MessageStamp stamp;
  stamp.send_vt_ns = vt;
  stamp.bytes = 8;
  return stamp;
}

TEST(ReceiveTiming, LateMessageWaitsForTheSenderThenTheTransfer) {
  // Posted at 10, sent at 100, transfer 5: waits 90 for the sender and 5 for the data.
  const ReceiveTiming t = receive_timing(10, sent_at(100), 5);
  EXPECT_EQ(t.arrival_vt_ns, 105u);
  EXPECT_EQ(t.sync_delay_ns, 90u);
  EXPECT_EQ(t.transmission_ns, 5u);
  EXPECT_EQ(t.resume_vt_ns, 105u);
}

TEST(ReceiveTiming, EarlyMessageCostsTheReceiverNothing) {
  // Already complete at 105 when the receive is posted at 200.
  const ReceiveTiming t = receive_timing(200, sent_at(100), 5);
  EXPECT_EQ(t.arrival_vt_ns, 105u);
  EXPECT_EQ(t.sync_delay_ns, 0u);
  EXPECT_EQ(t.transmission_ns, 0u);
  EXPECT_EQ(t.resume_vt_ns, 200u);
}

TEST(ReceiveTiming, PostedDuringTheTransferWaitsForItsRemainder) {
  const ReceiveTiming t = receive_timing(102, sent_at(100), 5);
  EXPECT_EQ(t.sync_delay_ns, 0u);
  EXPECT_EQ(t.transmission_ns, 3u);
  EXPECT_EQ(t.resume_vt_ns, 105u);
}

TEST(ReceiveTiming, DelayAndTransmissionAddUpToTheReceiveDuration) {
  for (std::uint64_t post : {0u, 50u, 99u, 100u, 101u, 104u, 105u, 106u, 1000u}) {
    const ReceiveTiming t = receive_timing(post, sent_at(100), 5);
    EXPECT_EQ(t.sync_delay_ns + t.transmission_ns, t.resume_vt_ns - post) << "post " << post;
    EXPECT_GE(t.resume_vt_ns, post);
  }
}

} // namespace
} // namespace vcmon::vclock

// The shared-memory stamp ring (StampRing) on plain memory: FIFO order, a full ring refusing
// until the consumer takes, the diverted count, and a producer and a consumer in two threads,
// each with its own view of the memory, as the two processes of a node have.
#include "mpi/stamps/StampRing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>

using vcmon::runtime::mpi::StampMessage;
using vcmon::runtime::mpi::StampRing;

namespace {

// Zeroed, line-aligned memory for a ring of `slots`.
struct RingMemory {
  explicit RingMemory(std::uint32_t slots)
      : bytes(StampRing::bytes(slots)),
        memory(static_cast<char*>(std::aligned_alloc(StampRing::kLine, bytes)), &std::free) {
    std::fill(memory.get(), memory.get() + bytes, 0);
  }
  std::size_t bytes;
  std::unique_ptr<char, decltype(&std::free)> memory;
};

StampMessage message(std::uint64_t n) {
  StampMessage m;
  m.sequence = n;
  m.communicator = 7;
  m.source = static_cast<std::int32_t>(n % 5);
  m.tag = static_cast<std::int32_t>(n % 11);
  m.stamp.send_vt_ns = n * 3;
  m.stamp.send_rt_ns = n * 3 + 1;
  m.stamp.bytes = n * 8;
  m.stamp.flags = static_cast<std::uint32_t>(n % 2);
  return m;
}

void expect_message(const StampMessage* m, std::uint64_t n) {
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->sequence, n);
  EXPECT_EQ(m->communicator, 7u);
  EXPECT_EQ(m->source, static_cast<std::int32_t>(n % 5));
  EXPECT_EQ(m->tag, static_cast<std::int32_t>(n % 11));
  EXPECT_EQ(m->stamp.send_vt_ns, n * 3);
  EXPECT_EQ(m->stamp.send_rt_ns, n * 3 + 1);
  EXPECT_EQ(m->stamp.bytes, n * 8);
  EXPECT_EQ(m->stamp.flags, static_cast<std::uint32_t>(n % 2));
}

TEST(StampRing, EmptyRingHasNothingToTake) {
  RingMemory memory(4);
  const StampRing consumer(memory.memory.get(), 4);
  EXPECT_EQ(consumer.peek(), nullptr);
  EXPECT_EQ(consumer.diverted(), 0u);
}

TEST(StampRing, TakesInOrderAndRefusesWhenFull) {
  RingMemory memory(4);
  StampRing producer(memory.memory.get(), 4);
  StampRing consumer(memory.memory.get(), 4);
  for (std::uint64_t n = 1; n <= 4; ++n) {
    ASSERT_TRUE(producer.push(message(n)));
  }
  EXPECT_FALSE(producer.push(message(5)));
  expect_message(consumer.peek(), 1);
  consumer.pop();
  ASSERT_TRUE(producer.push(message(5))); // the freed slot is reused
  EXPECT_FALSE(producer.push(message(6)));
  for (std::uint64_t n = 2; n <= 5; ++n) {
    expect_message(consumer.peek(), n);
    consumer.pop();
  }
  EXPECT_EQ(consumer.peek(), nullptr);
}

TEST(StampRing, CountsDivertedStampsForTheConsumer) {
  RingMemory memory(2);
  StampRing producer(memory.memory.get(), 2);
  const StampRing consumer(memory.memory.get(), 2);
  producer.note_diverted();
  producer.note_diverted();
  EXPECT_EQ(consumer.diverted(), 2u);
}

TEST(StampRing, ProducerAndConsumerThreadsAgreeOnEveryStamp) {
  constexpr std::uint32_t kSlots = 8;
  constexpr std::uint64_t kCount = 200'000;
  RingMemory memory(kSlots);
  std::thread producing([&] {
    StampRing producer(memory.memory.get(), kSlots);
    for (std::uint64_t n = 1; n <= kCount; ++n) {
      while (!producer.push(message(n))) { // full: wait for the consumer
        std::this_thread::yield();
      }
    }
  });
  StampRing consumer(memory.memory.get(), kSlots);
  std::uint64_t taken = 0;
  bool intact = true;
  while (taken < kCount) {
    const StampMessage* m = consumer.peek();
    if (m == nullptr) {
      std::this_thread::yield();
      continue;
    }
    const std::uint64_t n = taken + 1;
    intact = intact && m->sequence == n && m->stamp.send_vt_ns == n * 3 &&
             m->stamp.bytes == n * 8 && m->tag == static_cast<std::int32_t>(n % 11);
    consumer.pop();
    ++taken;
  }
  producing.join();
  EXPECT_TRUE(intact);
  EXPECT_EQ(taken, kCount);
  EXPECT_EQ(consumer.peek(), nullptr);
}

} // namespace

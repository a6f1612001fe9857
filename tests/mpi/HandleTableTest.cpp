// The fixed handle table behind the request, communicator and message lookups of the PMPI
// layer: O(1) insert/find/erase, erased slots reused, a full table refusing, concurrent inserts,
// entries hidden while MPI may reuse their handle.
#include "mpi/layer/HandleTable.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

using vcmon::runtime::mpi::HandleTable;

namespace {

// Handles shaped like MPICH's (kind and object bits high, index low).
constexpr std::int32_t handle(int index) {
  return static_cast<std::int32_t>(0xac000000u) + index;
}

TEST(HandleTable, FindsWhatWasInsertedAndNothingElse) {
  HandleTable<int, 64> table;
  for (int i = 0; i < 40; ++i) {
    ASSERT_NE(table.insert(handle(i), i * 10), nullptr);
  }
  for (int i = 0; i < 40; ++i) {
    ASSERT_NE(table.find(handle(i)), nullptr);
    EXPECT_EQ(*table.find(handle(i)), i * 10);
  }
  EXPECT_EQ(table.find(handle(40)), nullptr);
}

TEST(HandleTable, ErasedHandlesAreGoneAndTheirNeighboursStay) {
  HandleTable<int, 16> table;
  for (int i = 0; i < 12; ++i) {
    table.insert(handle(i), i);
  }
  for (int i = 0; i < 12; i += 2) {
    table.erase(handle(i));
  }
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(table.find(handle(i)) != nullptr, i % 2 == 1) << i;
  }
}

TEST(HandleTable, ReusesErasedSlotsIndefinitely) {
  HandleTable<int, 8> table;
  for (int round = 0; round < 10'000; ++round) {
    const std::int32_t h = handle(round % 1000);
    ASSERT_NE(table.insert(h, round), nullptr) << round;
    ASSERT_EQ(*table.find(h), round);
    table.erase(h);
    ASSERT_EQ(table.find(h), nullptr);
  }
}

// MPI_THREAD_MULTIPLE: MPI completed one thread's request and gave its handle to another
// thread's new request before the first thread erased its entry.
TEST(HandleTable, AHiddenEntryIsNeitherFoundNorOverwrittenByItsHandlesNextUse) {
  HandleTable<int, 8> table;
  int* const completing = table.insert(handle(3), 1);
  ASSERT_NE(completing, nullptr);
  table.hide(*completing);
  EXPECT_EQ(table.find(handle(3)), nullptr);
  int* const reused = table.insert(handle(3), 2);
  ASSERT_NE(reused, nullptr);
  EXPECT_NE(reused, completing);
  EXPECT_EQ(*completing, 1);
  table.erase_entry(*completing);
  ASSERT_NE(table.find(handle(3)), nullptr);
  EXPECT_EQ(*table.find(handle(3)), 2);
}

TEST(HandleTable, AHiddenEntryShownAgainIsFoundUnderItsHandle) {
  HandleTable<int, 8> table;
  int* const entry = table.insert(handle(5), 7);
  table.hide(*entry);
  table.show(handle(5), *entry);
  EXPECT_EQ(table.find(handle(5)), entry);
  table.erase_entry(*entry);
  EXPECT_EQ(table.find(handle(5)), nullptr);
}

TEST(HandleTable, AFullTableRefusesAndStillFinds) {
  HandleTable<int, 8> table;
  for (int i = 0; i < 8; ++i) {
    ASSERT_NE(table.insert(handle(i), i), nullptr);
  }
  EXPECT_EQ(table.insert(handle(8), 8), nullptr);
  EXPECT_EQ(table.find(handle(9)), nullptr);
  EXPECT_EQ(*table.find(handle(7)), 7);
}

// Handles whose probes all start at one slot: an insert looks no further than kMaxProbes
// slots, so the one beyond is refused though most of the table is free, and every lookup stays
// that short.
TEST(HandleTable, ACollisionChainLongerThanTheProbeBoundIsRefused) {
  using Table = HandleTable<int, 1024>;
  static Table table;
  std::vector<std::int32_t> colliding;
  for (int i = 0; colliding.size() <= Table::kMaxProbes; ++i) {
    if (Table::home(handle(i)) == Table::home(handle(0))) {
      colliding.push_back(handle(i));
    }
  }
  for (std::size_t i = 0; i < Table::kMaxProbes; ++i) {
    ASSERT_NE(table.insert(colliding[i], static_cast<int>(i)), nullptr) << i;
  }
  EXPECT_EQ(table.insert(colliding.back(), -1), nullptr);
  EXPECT_EQ(table.find(colliding.back()), nullptr);
  for (std::size_t i = 0; i < Table::kMaxProbes; ++i) {
    ASSERT_NE(table.find(colliding[i]), nullptr) << i;
    EXPECT_EQ(*table.find(colliding[i]), static_cast<int>(i));
  }
  // Erasing one makes room within the bound again.
  table.erase(colliding[7]);
  EXPECT_NE(table.insert(colliding.back(), -1), nullptr);
  EXPECT_EQ(*table.find(colliding.back()), -1);
  // A handle homed elsewhere is unaffected.
  std::int32_t elsewhere = handle(1);
  for (int i = 1; Table::home(elsewhere) == Table::home(handle(0)); ++i) {
    elsewhere = handle(i);
  }
  EXPECT_NE(table.insert(elsewhere, 5), nullptr);
}

TEST(HandleTable, ConcurrentInsertsOfDistinctHandlesAllLand) {
  static HandleTable<int, 4096> table;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kPerThread; ++i) {
        table.insert(handle(t * kPerThread + i), t);
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kPerThread; ++i) {
      const int* value = table.find(handle(t * kPerThread + i));
      ASSERT_NE(value, nullptr);
      EXPECT_EQ(*value, t);
    }
  }
}

} // namespace

#include "vcmon/vclock/VirtualClock.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace vcmon::vclock {
namespace {

void busy_wait_ns(const ClockSource& source, std::uint64_t ns) {
  const std::uint64_t start = source.now_ns();
  while (source.now_ns() - start < ns) {
  }
}

TEST(VirtualClock, WithoutIntrusionVirtualTimeIsRealTime) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 1'000'000);
  const std::uint64_t now = source.now_ns();
  EXPECT_EQ(clock.intrusion_ns(), 0u);
  EXPECT_EQ(clock.virtual_at(now), clock.real_at(now));
  EXPECT_GE(clock.real_at(now), 1'000'000u);
}

TEST(VirtualClock, ChargeMovesVirtualTimeBackByTheCharge) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 2'000'000);
  clock.charge(700'000);
  clock.charge(300'000);
  const std::uint64_t now = source.now_ns();
  EXPECT_EQ(clock.intrusion_ns(), 1'000'000u);
  EXPECT_EQ(clock.real_at(now) - clock.virtual_at(now), 1'000'000u);
}

TEST(VirtualClock, ChargesFromSeveralThreadsAllCount) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&clock] {
      for (int i = 0; i < 10000; ++i) {
        clock.charge(3);
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(clock.intrusion_ns(), 4u * 10000u * 3u);
}

TEST(VirtualClock, ContinueFromAnEarlierTimeTurnsTheWaitingIntoIntrusion) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 5'000'000);
  // The receiver waited in real time, but the message's virtual arrival was at 1 ms.
  clock.continue_from(1'000'000);
  const std::uint64_t rt = clock.real_ns();
  const std::uint64_t vt = clock.virtual_ns();
  EXPECT_GE(vt, 1'000'000u);
  EXPECT_LT(vt, 1'000'000u + (rt - 5'000'000u) + 1'000'000u); // only time since the call
  EXPECT_GE(clock.intrusion_ns(), 4'000'000u);
}

TEST(VirtualClock, ContinueFromALaterTimeRemovesIntrusion) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 4'000'000);
  clock.charge(3'000'000);
  clock.continue_from(2'500'000); // VT was about 1 ms: moves forward to 2.5 ms
  EXPECT_GE(clock.virtual_ns(), 2'500'000u);
  EXPECT_LE(clock.intrusion_ns(), clock.real_ns() - 2'500'000u);
}

TEST(VirtualClock, ContinueFromBeyondRealTimeClampsToRealTime) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  clock.charge(1'000);
  clock.continue_from(3'600'000'000'000u);
  EXPECT_EQ(clock.intrusion_ns(), 0u);
  const std::uint64_t now = source.now_ns();
  EXPECT_EQ(clock.virtual_at(now), clock.real_at(now));
}

TEST(VirtualClock, AdvanceShiftsRealAndVirtualTimeAlike) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 1'000'000); // RT well above I, so VT is not clamped at 0
  clock.charge(500);
  const std::uint64_t now = source.now_ns();
  const std::uint64_t rt = clock.real_at(now);
  const std::uint64_t vt = clock.virtual_at(now);
  clock.advance(3'000'000'000);
  EXPECT_EQ(clock.real_at(now), rt + 3'000'000'000u);
  EXPECT_EQ(clock.virtual_at(now), vt + 3'000'000'000u);
  clock.advance(-3'000'000'000);
  EXPECT_EQ(clock.real_at(now), rt);
}

TEST(VirtualClock, ShowNeverReturnsLessThanWhatWasShownBefore) {
  const ClockSource source = ClockSource::monotonic();
  for (const bool concurrent : {true, false}) { // the locked and the plain path alike
    VirtualClock clock(source);
    clock.set_concurrent_writers(concurrent);
    EXPECT_EQ(clock.show(5'000), 5'000u);
    EXPECT_EQ(clock.show(3'000), 5'001u); // a later send looks strictly later
    EXPECT_EQ(clock.show(5'001), 5'002u);
    EXPECT_EQ(clock.show(9'000), 9'000u);
    EXPECT_EQ(clock.floor_ns(), 9'000u);
  }
}

TEST(VirtualClock, WhatIsShownBesideBoundsEveryLaterShowAndResumption) {
  const ClockSource source = ClockSource::calibrate();
  for (const bool concurrent : {true, false}) {
    VirtualClock clock(source);
    clock.set_concurrent_writers(concurrent);
    busy_wait_ns(source, 3'000'000);
    EXPECT_EQ(clock.show(1'000'000), 1'000'000u);
    EXPECT_EQ(clock.show_beside(500'000), 1'000'001u); // strictly after what was shown
    EXPECT_EQ(clock.show_beside(2'000'000), 2'000'000u);
    EXPECT_EQ(clock.floor_ns(), 2'000'000u);
    EXPECT_EQ(clock.show(1'500'000), 2'000'001u);
    const std::uint64_t now = source.now_ns();
    clock.show_beside(2'500'000);
    clock.continue_from(1'000'000, now); // a resumption never goes below it either
    EXPECT_EQ(clock.virtual_at(now), 2'500'000u);
  }
}

// The caller updates the floor with plain stores; a time shown beside meanwhile must not be lost
// by a store that read the floor before it: every show that starts after show_beside returned
// is later than it.
TEST(VirtualClock, ShowBesideIsNotLostToTheCallersPlainStores) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  clock.set_concurrent_writers(false);
  std::atomic<std::uint64_t> shown_beside{0};
  std::atomic<bool> done{false};
  std::thread beside([&] {
    for (std::uint64_t vt = 1'000'000; vt < 1'200'000; vt += 10) {
      shown_beside.store(clock.show_beside(vt), std::memory_order_seq_cst);
    }
    done.store(true);
  });
  std::uint64_t violations = 0;
  for (std::uint64_t vt = 1; !done.load(); ++vt) {
    const std::uint64_t before = shown_beside.load(std::memory_order_seq_cst);
    violations += clock.show(vt) <= before ? 1 : 0;
  }
  beside.join();
  EXPECT_EQ(violations, 0u);
  EXPECT_GT(clock.show(0), shown_beside.load());
}

TEST(VirtualClock, ContinueFromAtAGivenReadingResumesExactlyThere) {
  const ClockSource source = ClockSource::calibrate();
  for (const bool concurrent : {true, false}) {
    VirtualClock clock(source);
    clock.set_concurrent_writers(concurrent);
    busy_wait_ns(source, 3'000'000);
    clock.charge(100'000);
    clock.charge_caller(200'000);
    const std::uint64_t now = source.now_ns();
    clock.continue_from(1'000'000, now);
    EXPECT_EQ(clock.virtual_at(now), 1'000'000u);
    EXPECT_EQ(clock.intrusion_ns(), clock.real_at(now) - 1'000'000u); // both charges replaced
    EXPECT_EQ(clock.floor_ns(), 1'000'000u);
    clock.continue_from(500'000, now); // below the floor: stays there
    EXPECT_EQ(clock.virtual_at(now), 1'000'000u);
  }
}

TEST(VirtualClock, CallerChargesAddToChargesOfOtherThreads) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  clock.set_concurrent_writers(false); // one caller: plain updates of its own counter
  std::vector<std::thread> probing;
  for (int t = 0; t < 3; ++t) {
    probing.emplace_back([&clock] {
      for (int i = 0; i < 10000; ++i) {
        clock.charge(3);
      }
    });
  }
  for (int i = 0; i < 10000; ++i) {
    clock.charge_caller(5);
  }
  for (std::thread& thread : probing) {
    thread.join();
  }
  EXPECT_EQ(clock.intrusion_ns(), 3u * 10000u * 3u + 10000u * 5u);
}

TEST(VirtualClock, ContinueFromNeverGoesBelowWhatWasShown) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 3'000'000);
  clock.show(2'000'000); // e.g. a stamp sent at 2 ms
  clock.continue_from(1'000'000);
  EXPECT_GE(clock.virtual_ns(), 2'000'000u);
  EXPECT_LE(clock.intrusion_ns(), clock.real_ns() - 2'000'000u);
}

TEST(VirtualClock, ContinueFromRaisesTheFloor) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 3'000'000);
  clock.continue_from(2'000'000); // a decider may have relied on this resumption
  EXPECT_EQ(clock.floor_ns(), 2'000'000u);
  clock.charge(2'500'000); // a charge moves VT below it; what is shown does not
  EXPECT_LT(clock.virtual_ns(), 2'000'000u);
  EXPECT_EQ(clock.show(clock.virtual_ns()), 2'000'001u);
}

TEST(VirtualClock, ChargeBesideHoldsTheClockAtWhatItRead) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 4'000'000);
  const std::uint64_t before = clock.virtual_ns();
  clock.charge_beside(3'600'000'000'000u); // an hour: never moves VT back, only stops it
  const std::uint64_t held = clock.virtual_ns();
  EXPECT_GE(held, before);
  busy_wait_ns(source, 2'000'000);
  EXPECT_EQ(clock.virtual_ns(), held);
  EXPECT_GE(clock.intrusion_ns(), 3'600'000'000'000u);
  // A resumption re-derives the clock: it may go back below the time held.
  clock.continue_from(1'000'000);
  EXPECT_GE(clock.virtual_ns(), 1'000'000u);
  EXPECT_LT(clock.virtual_ns(), held);
}

TEST(VirtualClock, AChargeDoesNotMoveVTBelowATimeHeld) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  busy_wait_ns(source, 2'000'000);
  const std::uint64_t read = clock.virtual_ns(); // a probe's reading
  clock.hold(read);
  clock.charge(3'600'000'000'000u); // a constant far above what the probe cost
  EXPECT_EQ(clock.virtual_ns(), read);
  clock.hold(read - 1'000'000); // an earlier time held changes nothing
  EXPECT_EQ(clock.virtual_ns(), read);
}

TEST(VirtualClock, ChargeBesideIsPaidAsTimePasses) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  busy_wait_ns(source, 1'000'000);
  const std::uint64_t before = clock.virtual_ns();
  clock.charge_beside(1'000'000);
  busy_wait_ns(source, 3'000'000);
  // 3 ms of RT passed, 1 ms of it was the charge's.
  const std::uint64_t vt = clock.virtual_ns();
  const std::uint64_t rt = clock.real_ns(); // read after VT
  EXPECT_GE(vt, before + 2'000'000u);
  EXPECT_LE(vt, rt - 1'000'000u);
}

// Runs `clock` 2 ms, then charges an hour beside the program: returns the VT it holds.
std::uint64_t held_by_charge_beside(const ClockSource& source, VirtualClock& clock) {
  busy_wait_ns(source, 2'000'000);
  clock.charge_beside(3'600'000'000'000u);
  return clock.virtual_ns();
}

TEST(VirtualClock, TheTimeHeldMovesWithTheTimeBase) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  const std::uint64_t held = held_by_charge_beside(source, clock);
  clock.advance(5'000'000);
  EXPECT_EQ(clock.virtual_ns(), held + 5'000'000u);
}

// Runs `work` on a thread of its own and waits for it.
template <typename Work> void on_another_thread(Work&& work) {
  std::thread thread(std::forward<Work>(work));
  thread.join();
}

TEST(VirtualClockLanes, EachThreadIsChargedItsOwnWorkOnly) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  busy_wait_ns(source, 2'000'000);
  clock.charge(100'000); // before the lanes: every thread's
  clock.start_thread_lanes();
  clock.charge(200'000);
  std::uint64_t other = 0;
  on_another_thread([&] {
    clock.charge(3'600'000'000'000u); // an hour of another thread's work
    other = clock.intrusion_ns();
  });
  EXPECT_EQ(clock.intrusion_ns(), 300'000u);
  EXPECT_EQ(other, 3'600'000'000'000u + 300'000u); // it started from the starter's
  const std::uint64_t now = source.now_ns();
  EXPECT_EQ(clock.real_at(now) - clock.virtual_at(now), 300'000u);
}

// Four threads inside the monitor at once, each most of the time: summed into one intrusion
// they charge more than the real time that passes, and VT stands still (a polling thread then
// never reaches its message's arrival). Each on its own lane goes on.
TEST(VirtualClockLanes, ThreadsInsideTheMonitorAtOnceEachKeepTheirClockMoving) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  clock.start_thread_lanes();
  std::vector<std::thread> threads;
  std::vector<std::uint64_t> moved(4, 0);
  for (std::size_t t = 0; t < moved.size(); ++t) {
    threads.emplace_back([&, t] {
      const std::uint64_t start = clock.virtual_ns();
      for (int i = 0; i < 200; ++i) {
        IntrusionScope work(clock, 0);
        busy_wait_ns(source, 9'000); // the monitor's part
        work.finish();
        busy_wait_ns(source, 1'000); // the program's part
      }
      moved[t] = clock.virtual_ns() - start;
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  for (const std::uint64_t vt : moved) {
    EXPECT_GE(vt, 200u * 1'000u);
  }
}

TEST(VirtualClockLanes, AResumptionMovesTheCallersLaneOnly) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  busy_wait_ns(source, 5'000'000);
  clock.start_thread_lanes();
  std::uint64_t resumed = 0;
  on_another_thread([&] {
    clock.continue_from(1'000'000); // it waited from 1 ms on for a message
    resumed = clock.virtual_ns();
  });
  EXPECT_GE(resumed, 1'000'000u);
  EXPECT_LT(resumed, 5'000'000u);
  EXPECT_GE(clock.virtual_ns(), 5'000'000u); // this thread did not wait
}

TEST(VirtualClockLanes, NoThreadReadsBehindATimeAnotherResumedFrom) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  busy_wait_ns(source, 4'000'000);
  clock.start_thread_lanes();
  clock.charge(3'000'000); // this thread's lane is at about 1 ms
  on_another_thread([&] { clock.continue_from(3'000'000); });
  EXPECT_GE(clock.virtual_ns(), 3'000'000u);
}

TEST(VirtualClockLanes, StartingTheLanesKeepsTheStartersTimeHeld) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  const std::uint64_t held = held_by_charge_beside(source, clock);
  clock.start_thread_lanes();
  EXPECT_GE(clock.virtual_ns(), held);
  clock.hold(held + 1); // a probe's reading holds the thread's lane
  clock.charge(3'600'000'000'000u);
  EXPECT_EQ(clock.virtual_ns(), held + 1);
}

TEST(VirtualClockLanes, ChargeBesideIsTheHelpersOwn) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  busy_wait_ns(source, 2'000'000);
  clock.start_thread_lanes();
  on_another_thread([&] { clock.charge_beside(1'000'000); });
  EXPECT_EQ(clock.intrusion_ns(), 0u);
}

// What a thread beside the program may answer for the process: the least of the charged
// threads' clocks, so that showing it raises none of them; a helper's own work and an ended
// thread's lane do not hold it back.
TEST(VirtualClockLanes, TheEarliestReadingIsTheMostChargedLiveThreads) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  busy_wait_ns(source, 2'000'000);
  clock.start_thread_lanes();
  clock.charge(1'000);
  std::mutex mutex;
  std::condition_variable changed;
  int step = 0; // 1: the other thread charged; 2: it may end
  std::thread charged([&] {
    clock.charge(3'600'000'000'000u); // an hour: its clock stays at 0
    std::unique_lock lock(mutex);
    step = 1;
    changed.notify_all();
    changed.wait(lock, [&] { return step == 2; });
    clock.end_thread_lane();
  });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return step == 1; });
  }
  EXPECT_EQ(clock.earliest_virtual_at(source.now_ns()), 0u);
  {
    std::lock_guard lock(mutex);
    step = 2;
  }
  changed.notify_all();
  charged.join();
  on_another_thread([&] { clock.charge_beside(3'600'000'000'000u); });
  const std::uint64_t now = source.now_ns();
  const std::optional<std::uint64_t> earliest = clock.earliest_virtual_at(now);
  ASSERT_TRUE(earliest.has_value());
  EXPECT_EQ(*earliest, clock.virtual_at(now)); // this thread's: the only one charged left
  EXPECT_GE(*earliest, 2'000'000u - 1'000u);
}

TEST(VirtualClockLanes, WithoutLanesTheEarliestReadingIsTheClock) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  busy_wait_ns(source, 1'000'000);
  clock.charge(500'000);
  const std::uint64_t now = source.now_ns();
  EXPECT_EQ(clock.earliest_virtual_at(now), clock.virtual_at(now));
}

TEST(VirtualClockLanes, MoreThreadsThanSlotsAreNotAnsweredFor) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  clock.start_thread_lanes();
  for (std::size_t i = 0; i < VirtualClock::kLaneSlots; ++i) {
    on_another_thread([&] { clock.charge(1); }); // each keeps its slot: it never ends its lane
  }
  EXPECT_FALSE(clock.earliest_virtual_at(source.now_ns()).has_value());
}

TEST(IntrusionScope, ChargesMeasuredWorkPlusTheConstant) {
  const ClockSource source = ClockSource::calibrate();
  VirtualClock clock(source);
  {
    IntrusionScope scope(clock, 12'345);
    busy_wait_ns(source, 2'000'000);
  }
  EXPECT_GE(clock.intrusion_ns(), 2'000'000u + 12'345u);
  EXPECT_LE(clock.intrusion_ns(), clock.real_ns() + 12'345u); // nothing but the scope
}

TEST(IntrusionScope, StartsAtTheGivenReadingAndFinishReturnsTheEnd) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  const std::uint64_t start = source.now_ns();
  busy_wait_ns(source, 1'000'000); // work before the scope object exists still counts
  IntrusionScope scope(clock, 7, start, IntrusionScope::ChargedBy::Caller);
  const std::uint64_t end = scope.finish();
  EXPECT_EQ(clock.intrusion_ns(), end - start + 7);
  EXPECT_GE(end - start, 1'000'000u);
}

TEST(IntrusionScope, FinishWithoutChargeChargesNothingAndEndsTheScope) {
  const ClockSource source = ClockSource::monotonic();
  VirtualClock clock(source);
  {
    IntrusionScope scope(clock, 7);
    busy_wait_ns(source, 100'000);
    scope.finish(false); // the caller re-derives the intrusion itself
  }                      // and the destructor does not charge either
  EXPECT_EQ(clock.intrusion_ns(), 0u);
}

} // namespace
} // namespace vcmon::vclock

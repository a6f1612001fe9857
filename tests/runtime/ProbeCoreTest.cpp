// The probe logic on its own records: activating call sites, recursion charged once, exits
// that skip activations (longjmp), activations folded beyond the stack, and the overflow
// table.
#include "core/ProbeCore.hpp"
#include "core/RankRecordsCollector.hpp"
#include "core/SiteRegistry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <memory>

namespace vcmon::runtime {
namespace {

using tables::kNoSite;
using tables::SiteKind;

class ProbeCoreTest : public ::testing::Test {
protected:
  ProbeCoreTest()
      : source_(vclock::ClockSource::calibrate()), clock_(source_), overflow_(64),
        core_(clock_, overflow_, ProbeCosts{0, 0, 0}) {
    thread_ = std::make_unique<ThreadState>();
    thread_->records = threads_.acquire(1024);
  }

  // The unit: proc p (0), call site c1 (1) and c2 (2) in p, loop l (3) in p, proc q (4),
  // comm m (5) in q.
  void register_unit() {
    static const vcmon_site_desc sites[] = {
        {VCMON_SITE_PROCEDURE, 1, 1, -1, "p", "p", VCMON_PROBING_TIMED},
        {VCMON_SITE_CALL, 2, 1, 0, "q", "q", VCMON_PROBING_TIMED},
        {VCMON_SITE_CALL, 3, 1, 0, "q", "q", VCMON_PROBING_TIMED},
        {VCMON_SITE_LOOP, 4, 1, 0, "for", "", VCMON_PROBING_TIMED},
        {VCMON_SITE_PROCEDURE, 5, 1, -1, "q", "q", VCMON_PROBING_TIMED},
        {VCMON_SITE_COMM, 6, 1, 4, "MPI_Send", "", VCMON_PROBING_TIMED},
    };
    static const vcmon_unit_desc unit = {VCMON_PROBE_ABI_VERSION, "unit.c", 6, sites};
    ASSERT_EQ(registry_.register_unit(unit), 0u);
  }

  tables::RankRecords collect() {
    return collect_records(registry_, threads_, overflow_, 0).records;
  }

  vclock::ClockSource source_;
  vclock::VirtualClock clock_;
  OverflowRecords overflow_;
  ProbeCore core_;
  SiteRegistry registry_;
  ThreadRecordsList threads_;
  std::unique_ptr<ThreadState> thread_;
};

TEST_F(ProbeCoreTest, ProcRecordsAreKeyedByTheActivatingCallSite) {
  register_unit();
  ThreadState& t = *thread_;
  core_.enter_procedure(t, 0, 0); // p from uninstrumented code
  for (int i = 0; i < 3; ++i) {
    core_.enter_statement(t, 1, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, 1, SiteKind::Call);
  }
  core_.enter_statement(t, 2, SiteKind::Call);
  core_.enter_procedure(t, 4, 1);
  core_.exit_procedure(t, 4);
  core_.exit_statement(t, 2, SiteKind::Call);
  core_.exit_procedure(t, 0);
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.procs.size(), 3u);
  EXPECT_EQ(r.procs[0].proc, 0u);
  EXPECT_EQ(r.procs[0].call_site, kNoSite);
  EXPECT_EQ(r.procs[0].count, 1u);
  EXPECT_EQ(r.procs[1].call_site, 1u);
  EXPECT_EQ(r.procs[1].count, 3u);
  EXPECT_EQ(r.procs[2].call_site, 2u);
  EXPECT_EQ(r.procs[2].count, 1u);
  EXPECT_GE(r.procs[0].time_ns, r.procs[1].time_ns + r.procs[2].time_ns);
  EXPECT_EQ(t.stack.depth, 0u);
}

TEST_F(ProbeCoreTest, RecursiveActivationsCountButAddNoTime) {
  register_unit();
  ThreadState& t = *thread_;
  core_.enter_procedure(t, 4, 1);
  for (int depth = 0; depth < 5; ++depth) {
    core_.enter_statement(t, 1, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
  }
  const std::uint64_t start = source_.now_ns();
  while (source_.now_ns() - start < 1'000'000) {
  }
  for (int depth = 0; depth < 5; ++depth) {
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, 1, SiteKind::Call);
  }
  core_.exit_procedure(t, 4);
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.procs.size(), 2u);
  EXPECT_EQ(r.procs[0].call_site, 1u);
  EXPECT_EQ(r.procs[0].count, 5u);
  EXPECT_EQ(r.procs[0].time_ns, 0u);
  EXPECT_EQ(r.procs[1].call_site, kNoSite);
  EXPECT_EQ(r.procs[1].count, 1u);
  EXPECT_GE(r.procs[1].time_ns, 1'000'000u);
}

TEST_F(ProbeCoreTest, AnExitClosesActivationsLeftOpenAboveIt) {
  register_unit();
  ThreadState& t = *thread_;
  core_.enter_procedure(t, 0, 0);
  core_.enter_loop(t, 3, 0);
  core_.enter_statement(t, 1, SiteKind::Call);
  core_.enter_procedure(t, 4, 1); // a longjmp leaves q, the call and the loop without exits
  core_.exit_procedure(t, 0);
  EXPECT_EQ(t.stack.depth, 0u);
  core_.exit_procedure(t, 4); // nothing open: counted, ignored
  EXPECT_EQ(t.records->unmatched_exits.load(), 1u);
  // q is not active any more: a new activation adds its time again.
  core_.enter_procedure(t, 4, 1);
  core_.exit_procedure(t, 4);
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].count, 1u);
}

TEST_F(ProbeCoreTest, ActivationsBeyondTheStackAreFoldedAndCounted) {
  register_unit();
  ThreadState& t = *thread_;
  constexpr std::uint32_t kExtra = 10;
  for (std::uint32_t i = 0; i < ActivationStack::kMaxDepth + kExtra; ++i) {
    core_.enter_loop(t, 3, 0);
  }
  EXPECT_EQ(t.stack.depth, ActivationStack::kMaxDepth);
  EXPECT_EQ(t.stack.folded, kExtra);
  EXPECT_EQ(t.records->folded_activations.load(), kExtra);
  for (std::uint32_t i = 0; i < ActivationStack::kMaxDepth + kExtra; ++i) {
    core_.exit_loop(t, 3);
  }
  EXPECT_EQ(t.stack.depth, 0u);
  EXPECT_EQ(t.stack.folded, 0u);
  EXPECT_EQ(t.records->unmatched_exits.load(), 0u);
  const CollectedRecords collected = collect_records(registry_, threads_, overflow_, 0);
  EXPECT_EQ(collected.folded_activations, kExtra);
  ASSERT_EQ(collected.records.loops.size(), 1u);
  EXPECT_EQ(collected.records.loops[0].count, ActivationStack::kMaxDepth + kExtra);
}

// q recursing through call c1 far beyond the stack: every activation is counted under its own
// call site; at the bottom, a comm statement is the innermost statement, q entered from
// uninstrumented code has no call site, and q called twice under one call c2 (a callback) has
// it both times.
TEST_F(ProbeCoreTest, FoldedActivationsKeepTheirCallSites) {
  register_unit();
  ThreadState& t = *thread_;
  constexpr std::uint64_t kLevels = 1000;
  core_.enter_procedure(t, 0, 0);
  for (std::uint64_t i = 0; i < kLevels; ++i) {
    core_.enter_statement(t, 1, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
  }
  ASSERT_GT(t.stack.folded, 0u);
  core_.enter_statement(t, 5, SiteKind::Comm);
  EXPECT_EQ(t.stack.innermost_statement(SiteKind::Comm), 5u);
  EXPECT_EQ(t.stack.innermost_statement(SiteKind::Call), kNoSite);
  core_.exit_statement(t, 5, SiteKind::Comm);
  EXPECT_EQ(t.stack.innermost_statement(SiteKind::Comm), kNoSite);
  core_.enter_procedure(t, 4, 1); // from uninstrumented code inside q
  core_.exit_procedure(t, 4);
  core_.enter_statement(t, 2, SiteKind::Call);
  for (int i = 0; i < 2; ++i) {
    core_.enter_procedure(t, 4, 1);
    core_.exit_procedure(t, 4);
  }
  core_.exit_statement(t, 2, SiteKind::Call);
  for (std::uint64_t i = 0; i < kLevels; ++i) {
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, 1, SiteKind::Call);
  }
  core_.exit_procedure(t, 0);
  EXPECT_EQ(t.stack.depth, 0u);
  EXPECT_EQ(t.stack.folded, 0u);
  EXPECT_EQ(t.records->unmatched_exits.load(), 0u);
  const std::uint64_t frames = 1 + 2 * kLevels; // p, then a call and a q per level
  EXPECT_EQ(t.records->folded_activations.load(),
            frames - ActivationStack::kMaxDepth + 1 + 1 + 1 + 2);
  const tables::RankRecords r = collect(); // sorted by (procedure, call site), kNoSite last
  ASSERT_EQ(r.procs.size(), 4u);
  EXPECT_EQ(r.procs[0].proc, 0u);
  EXPECT_EQ(r.procs[0].count, 1u);
  EXPECT_EQ(r.procs[1].call_site, 1u);
  EXPECT_EQ(r.procs[1].count, kLevels);
  EXPECT_EQ(r.procs[2].call_site, 2u);
  EXPECT_EQ(r.procs[2].count, 2u);
  EXPECT_EQ(r.procs[3].call_site, kNoSite);
  EXPECT_EQ(r.procs[3].count, 1u);
  EXPECT_GE(r.procs[0].time_ns, r.procs[1].time_ns);
}

// Probes charge calibrated constants, so the clock's raw reading can step back below what a
// thread already saw; a thread keeps its own readings monotonic, and a thread that joined it
// must not end before it: main's time covers a worker's.
TEST_F(ProbeCoreTest, AProcedureCoversAThreadThatEndedBeforeItsExit) {
  register_unit();
  ThreadState& joiner = *thread_;
  ThreadState worker{};
  worker.records = threads_.acquire(1024);
  core_.enter_procedure(joiner, 0, 0); // p, on the joining thread
  core_.enter_procedure(worker, 4, 1); // q, on the worker
  const auto busy_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(3);
  while (std::chrono::steady_clock::now() < busy_until) {
  }
  core_.exit_procedure(worker, 4);
  clock_.charge(20'000'000); // more than really elapsed: the clock steps back 20 ms
  core_.thread_ended(worker);
  core_.exit_procedure(joiner, 0);
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.procs.size(), 2u);
  EXPECT_GE(r.procs[1].time_ns, 3'000'000u) << "expected q's 3 ms";
  EXPECT_GE(r.procs[0].time_ns, r.procs[1].time_ns) << "expected p to cover q";
  threads_.release(worker.records);
}

TEST_F(ProbeCoreTest, PartnersBeyondTheInlineSlotsGoToTheOverflowTable) {
  register_unit();
  ComSlots& slots = *thread_->records->coms.get(0);
  for (std::int32_t partner = -1; partner < 9; ++partner) {
    ProbeCore::add_com(core_.find_com(slots, 5, partner), 10, 20,
                       100 + static_cast<std::uint64_t>(partner));
    ProbeCore::add_com(core_.find_com(slots, 5, partner), 1, 2, 3);
  }
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.coms.size(), 10u);
  for (std::size_t i = 0; i < r.coms.size(); ++i) {
    const tables::ComRecord& c = r.coms[i];
    EXPECT_EQ(c.comm, 5u);
    EXPECT_EQ(c.count, 2u);
    EXPECT_EQ(c.transmission_ns, 11u);
    EXPECT_EQ(c.sync_delay_ns, 22u);
    EXPECT_EQ(c.bytes, 103u + static_cast<std::uint64_t>(c.partner));
    // Message sizes, from the thread's own slots and the shared table alike.
    EXPECT_EQ(c.sizes.min_bytes, 3u);
    EXPECT_EQ(c.sizes.max_bytes, 100u + static_cast<std::uint64_t>(c.partner));
    EXPECT_EQ(c.sizes.classes[tables::size_class(3)], 1u);
    EXPECT_EQ(c.sizes.classes[tables::size_class(c.sizes.max_bytes)], 1u);
    EXPECT_EQ(c.sizes.messages(), 2u);
  }
}

TEST_F(ProbeCoreTest, WaitingWithoutAMessageHasNoSize) {
  register_unit();
  ComSlots& slots = *thread_->records->coms.get(0);
  ProbeCore::add_com(core_.find_com(slots, 5, 1), 10, 20, 0, false); // a completion call's
  ProbeCore::add_com(core_.find_com(slots, 5, 1), 10, 20, 70000);
  ProbeCore::add_com(core_.find_com(slots, 5, 2), 10, 20, 0, false);
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.coms.size(), 2u);
  EXPECT_EQ(r.coms[0].count, 2u);
  EXPECT_EQ(r.coms[0].sizes.messages(), 1u);
  EXPECT_EQ(r.coms[0].sizes.min_bytes, 70000u);
  EXPECT_EQ(r.coms[0].sizes.max_bytes, 70000u);
  EXPECT_EQ(r.coms[0].sizes.classes[5], 1u); // [64 KiB, 1 MiB)
  EXPECT_EQ(r.coms[1].count, 1u);
  EXPECT_EQ(r.coms[1].sizes.messages(), 0u);
  EXPECT_EQ(r.coms[1].sizes.min_bytes, 0u);
  EXPECT_EQ(r.coms[1].sizes.max_bytes, 0u);
}

TEST_F(ProbeCoreTest, AComRecordFoundButNeverAddedToIsNotCollected) {
  register_unit();
  ComSlots& slots = *thread_->records->coms.get(0);
  core_.find_com(slots, 5, 3); // a receive that found its record, then failed
  ProbeCore::add_com(core_.find_com(slots, 5, 4), 7, 8, 9);
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.coms.size(), 1u);
  EXPECT_EQ(r.coms[0].partner, 4);
  EXPECT_EQ(r.coms[0].count, 1u);
  EXPECT_EQ(r.coms[0].bytes, 9u);
}

TEST_F(ProbeCoreTest, AFullOverflowTableDropsAndCounts) {
  register_unit();
  ComSlots& slots = *thread_->records->coms.get(0);
  for (std::int32_t partner = 0; partner < 200; ++partner) {
    ProbeCore::add_com(core_.find_com(slots, 5, partner), 1, 1, 1);
  }
  EXPECT_GT(overflow_.dropped(), 0u);
  const CollectedRecords collected = collect_records(registry_, threads_, overflow_, 0);
  EXPECT_EQ(collected.records.coms.size() + collected.dropped_records, 200u);
}

TEST_F(ProbeCoreTest, InjectedCostIsChargedInFull) {
  register_unit();
  core_.set_costs(ProbeCosts{7, 3, 200'000});
  core_.enter_procedure(*thread_, 0, 0);
  core_.exit_procedure(*thread_, 0);
  EXPECT_GE(clock_.intrusion_ns(), 2 * (200'000u + 7u));
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.procs.size(), 1u);
  EXPECT_LT(r.procs[0].time_ns, 200'000u); // the injected cost is not the procedure's
}

TEST_F(ProbeCoreTest, ThrottledProcedureKeepsExactCountsAndChargesItsProbes) {
  register_unit();
  // q throttles at its 10th activation when the 9 before took under 1 s each (they did).
  core_.set_throttle({10, 1'000'000'000});
  core_.set_costs(ProbeCosts{5, 3, 0, 2});
  ThreadState& t = *thread_;
  core_.enter_procedure(t, 0, 0);
  const std::uint64_t before = clock_.intrusion_ns();
  for (int i = 0; i < 25; ++i) {
    core_.enter_statement(t, 1, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, 1, SiteKind::Call);
  }
  // 9 timed pairs, 16 throttled pairs, and 50 call markers.
  EXPECT_EQ(clock_.intrusion_ns() - before, 9u * 2 * 5 + 16u * 2 * 2 + 50u * 3);
  core_.exit_procedure(t, 0);
  EXPECT_EQ(t.stack.depth, 0u);

  const tables::RankRecords r = collect();
  ASSERT_EQ(r.procs.size(), 2u);
  EXPECT_EQ(r.procs[0].untimed, 0u);
  EXPECT_EQ(r.procs[1].count, 25u);
  EXPECT_EQ(r.procs[1].untimed, 16u);
  EXPECT_LE(r.procs[1].time_ns, r.procs[0].time_ns);
}

TEST_F(ProbeCoreTest, SlowProcedureIsNeverThrottled) {
  register_unit();
  core_.set_throttle({3, 1}); // throttles only below 1 ns per activation
  ThreadState& t = *thread_;
  for (int i = 0; i < 10; ++i) {
    core_.enter_procedure(t, 4, 1);
    const std::uint64_t start = source_.now_ns();
    while (source_.now_ns() - start < 1000) {
    }
    core_.exit_procedure(t, 4);
  }
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.procs.size(), 1u);
  EXPECT_EQ(r.procs[0].count, 10u);
  EXPECT_EQ(r.procs[0].untimed, 0u);
  EXPECT_GE(r.procs[0].time_ns, 10u * 1000);
}

// The node reached from the root through `path` (sites), or nullptr.
const ContextNode* context_at(const ContextTree& tree, std::initializer_list<std::uint32_t> path) {
  std::uint32_t at = ContextTree::kRoot;
  for (const std::uint32_t site : path) {
    std::uint32_t found = 0;
    for (std::uint32_t i = 1; i < tree.size() && found == 0; ++i) {
      found = tree.at(i).parent == at && tree.at(i).site == site ? i : 0;
    }
    if (found == 0) {
      return nullptr;
    }
    at = found;
  }
  return &tree.at(at);
}

void busy_wait_ns(const vclock::ClockSource& source, std::uint64_t ns) {
  const std::uint64_t start = source.now_ns();
  while (source.now_ns() - start < ns) {
  }
}

// Once throttled, q's loop is counted but not timed; q stays untimed unless something that
// records time opens inside it (a timed procedure, a communication statement): from then on
// that activation is timed, so that what it holds never exceeds it (a negative self time).
TEST_F(ProbeCoreTest, AThrottledActivationIsTimedOnceWhatItHoldsRecordsTime) {
  register_unit();
  core_.set_throttle({10, 1'000'000'000});
  core_.set_costs(ProbeCosts{5, 3, 0, 2});
  ThreadState& t = *thread_;
  const auto call_q = [&](auto&& inside) {
    core_.enter_statement(t, 1, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
    inside();
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, 1, SiteKind::Call);
  };
  // The real time around each timed loop bounds what the loop may hold; the untimed loops
  // wait ten times longer, so that timing any of them would exceed that bound whatever the
  // host's load did to the timed ones.
  std::uint64_t timed_loops_ns = 0;
  const auto loop_in_q = [&](std::uint64_t wait_ns) {
    const std::uint64_t start = source_.now_ns();
    core_.enter_loop(t, 3, 0);
    busy_wait_ns(source_, wait_ns);
    core_.exit_loop(t, 3);
    return source_.now_ns() - start;
  };
  for (int i = 0; i < 20; ++i) {
    // the 10th and later: q and its loop untimed
    call_q([&] {
      if (i < 9) {
        timed_loops_ns += loop_in_q(2'000);
      } else {
        loop_in_q(20'000);
      }
    });
  }
  const std::uint64_t before = clock_.intrusion_ns();
  call_q([&] {
    loop_in_q(20'000);
    core_.enter_statement(t, 5, SiteKind::Comm); // times q from here on
    busy_wait_ns(source_, 1'000'000);
    core_.exit_statement(t, 5, SiteKind::Comm);
  });
  // q's pair (throttled entry, made timed, timed exit), the loop's untimed pair, the call and
  // comm markers.
  EXPECT_EQ(clock_.intrusion_ns() - before, 2u + (5u - 2u) + 5u + 2u * 2 + 4u * 3);
  call_q([&] {
    core_.enter_statement(t, 2, SiteKind::Call);
    core_.enter_procedure(t, 0, 0); // p is timed: so is q from here on
    busy_wait_ns(source_, 1'000'000);
    core_.exit_procedure(t, 0);
    core_.exit_statement(t, 2, SiteKind::Call);
  });
  EXPECT_EQ(t.stack.depth, 0u);

  const ContextTree& tree = t.records->contexts;
  const ContextNode* q = context_at(tree, {1, 4});
  const ContextNode* loop = context_at(tree, {1, 4, 3});
  const ContextNode* p_in_q = context_at(tree, {1, 4, 2, 0});
  ASSERT_NE(q, nullptr);
  ASSERT_NE(loop, nullptr);
  ASSERT_NE(p_in_q, nullptr);
  EXPECT_EQ(q->count.load(), 22u);
  EXPECT_EQ(q->untimed.load(), 11u); // the 10th to 20th
  EXPECT_EQ(loop->count.load(), 21u);
  EXPECT_GE(q->time_ns.load(), loop->time_ns.load() + p_in_q->time_ns.load());
  EXPECT_GE(q->time_ns.load(), 2'000'000u) << "the two activations made timed";
  EXPECT_LE(loop->time_ns.load(), timed_loops_ns) << "only the 9 timed q's loops";
  const tables::RankRecords r = collect();
  const auto q_record =
      std::find_if(r.procs.begin(), r.procs.end(),
                   [](const tables::ProcRecord& record) { return record.proc == 4; });
  ASSERT_NE(q_record, r.procs.end());
  EXPECT_EQ(q_record->count, 22u);
  EXPECT_EQ(q_record->untimed, 11u);
}

// Settling (the live publication's count of open activations, docs/query.md) restarts the
// open frames at a time; a frame entered after that time keeps its own entry.
TEST_F(ProbeCoreTest, SettlingLeavesAFrameEnteredAfterItsTimeAlone) {
  register_unit();
  ThreadState& t = *thread_;
  core_.enter_procedure(t, 0, 0);
  busy_wait_ns(source_, 1'000'000);
  const std::uint64_t settled_at = clock_.virtual_ns();
  busy_wait_ns(source_, 1'000'000);
  core_.enter_statement(t, 1, SiteKind::Call);
  const std::uint64_t before_q = clock_.virtual_ns();
  core_.enter_procedure(t, 4, 1);
  busy_wait_ns(source_, 1'000'000);
  core_.settle_open_activations(t, settled_at);
  core_.exit_procedure(t, 4);
  const std::uint64_t after_q = clock_.virtual_ns();
  core_.exit_statement(t, 1, SiteKind::Call);
  core_.exit_procedure(t, 0);
  const ContextNode* q = context_at(t.records->contexts, {0, 1, 4});
  ASSERT_NE(q, nullptr);
  EXPECT_LE(q->time_ns.load(), after_q - before_q)
      << "expected q's time within its own activation, not from the earlier settling time";
}

// A settled time bounds the thread's later readings: were the clock to read below it (a wait
// taken back by a receive or collective), a sibling entered afterwards would overlap the time
// the settled frames kept, and the children would add up to more than their parent.
TEST_F(ProbeCoreTest, ReadingsAfterSettlingNeverFallBelowIt) {
  register_unit();
  ThreadState& t = *thread_;
  const auto call_q = [&](std::uint32_t call, auto&& inside) {
    core_.enter_statement(t, call, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
    inside();
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, call, SiteKind::Call);
  };
  core_.enter_procedure(t, 0, 0);
  call_q(1, [&] { core_.settle_open_activations(t, clock_.virtual_ns() + 5'000'000); });
  call_q(2, [&] { busy_wait_ns(source_, 1'000'000); });
  core_.exit_procedure(t, 0);
  const ContextTree& tree = t.records->contexts;
  const ContextNode* p = context_at(tree, {0});
  const ContextNode* first = context_at(tree, {0, 1, 4});
  const ContextNode* second = context_at(tree, {0, 2, 4});
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_GE(first->time_ns.load(), 5'000'000u) << "expected the settled 5 ms kept";
  EXPECT_GE(p->time_ns.load(), first->time_ns.load() + second->time_ns.load())
      << "expected p to cover both calls of q";
}

// q called from c1 with one unit of work and from c2 twice with ten: each calling context
// holds its own exact count, time, loop iterations and communication, where the per-site
// records (the paper's) hold q's sum.
TEST_F(ProbeCoreTest, EachCallingContextHoldsItsOwnExactRecords) {
  register_unit();
  ThreadState& t = *thread_;
  const auto work = [&](std::uint32_t call, std::uint64_t units) {
    core_.enter_statement(t, call, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
    core_.enter_loop(t, 3, 0);
    busy_wait_ns(source_, units * 500'000);
    core_.exit_loop_after(t, 3, 0, units);
    core_.enter_statement(t, 5, SiteKind::Comm);
    ProbeCore::add_com({nullptr, nullptr, ProbeCore::com_context(t, 5, false)}, 10, 20, units);
    core_.exit_statement(t, 5, SiteKind::Comm);
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, call, SiteKind::Call);
  };
  core_.enter_procedure(t, 0, 0);
  work(1, 1);
  work(2, 10);
  work(2, 10);
  core_.exit_procedure(t, 0);

  const ContextTree& tree = t.records->contexts;
  const ContextNode* once = context_at(tree, {0, 1, 4});
  const ContextNode* twice = context_at(tree, {0, 2, 4});
  ASSERT_NE(once, nullptr);
  ASSERT_NE(twice, nullptr);
  EXPECT_EQ(once->count.load(), 1u);
  EXPECT_EQ(twice->count.load(), 2u);
  // Lower bounds only: a busy wait the scheduler interrupts lasts longer, never shorter (on a
  // loaded host the 0.5 ms of `once` took 4.8 ms).
  EXPECT_GE(once->time_ns.load(), 500'000u);
  EXPECT_GE(twice->time_ns.load(), 10'000'000u);
  const ContextNode* once_loop = context_at(tree, {0, 1, 4, 3});
  const ContextNode* twice_loop = context_at(tree, {0, 2, 4, 3});
  ASSERT_NE(once_loop, nullptr);
  ASSERT_NE(twice_loop, nullptr);
  EXPECT_EQ(once_loop->count.load(), 1u);
  EXPECT_EQ(once_loop->iterations.load(), 1u);
  EXPECT_LE(once_loop->time_ns.load(), once->time_ns.load());
  EXPECT_EQ(twice_loop->count.load(), 2u);
  EXPECT_EQ(twice_loop->iterations.load(), 20u);
  EXPECT_LE(twice_loop->time_ns.load(), twice->time_ns.load());
  const ContextNode* twice_comm = context_at(tree, {0, 2, 4, 5});
  ASSERT_NE(twice_comm, nullptr);
  EXPECT_EQ(twice_comm->count.load(), 2u);
  EXPECT_EQ(twice_comm->bytes.load(), 20u);
  EXPECT_EQ(twice_comm->sync_delay_ns.load(), 40u);
  EXPECT_EQ(context_at(tree, {0, 1, 4, 5})->bytes.load(), 1u);
  EXPECT_EQ(context_at(tree, {0, 2})->count.load(), 2u); // the call statement's executions
  const ContextNode* p = context_at(tree, {0});
  EXPECT_GE(p->time_ns.load(), once->time_ns.load() + twice->time_ns.load());
  // The per-site record of q sums both contexts.
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].count, 3u);
  EXPECT_EQ(r.loops[0].iterations, 21u);
}

// q recursing through c1 to depth 10 000: the recursive activations count in one leaf below the
// outermost q, and what they contain hangs under that q again, so the tree has four nodes; q's
// time is charged once; activations beyond the stack fold into its deepest context, counted.
TEST_F(ProbeCoreTest, DirectRecursionFoldsIntoTheOutermostActivation) {
  register_unit();
  ThreadState& t = *thread_;
  constexpr std::uint64_t kDepth = 10'000;
  const std::uint64_t start = source_.now_ns();
  core_.enter_procedure(t, 4, 1);
  for (std::uint64_t level = 1; level < kDepth; ++level) {
    core_.enter_statement(t, 1, SiteKind::Call);
    core_.enter_procedure(t, 4, 1);
  }
  busy_wait_ns(source_, 2'000'000);
  for (std::uint64_t level = 1; level < kDepth; ++level) {
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, 1, SiteKind::Call);
  }
  core_.exit_procedure(t, 4);
  const std::uint64_t elapsed = source_.now_ns() - start;

  const ContextTree& tree = t.records->contexts;
  EXPECT_EQ(tree.size(), 4u); // root, q, c1 below q, the recursive q below c1
  const ContextNode* q = context_at(tree, {4});
  const ContextNode* call = context_at(tree, {4, 1});
  const ContextNode* recursive = context_at(tree, {4, 1, 4});
  ASSERT_NE(recursive, nullptr);
  EXPECT_EQ(q->count.load(), 1u);
  EXPECT_GE(q->time_ns.load(), 2'000'000u);
  EXPECT_LE(q->time_ns.load(), elapsed); // once, not once per level
  EXPECT_EQ(recursive->time_ns.load(), 0u);
  // Every activation is accounted for: in its context while the stack holds it, else folded.
  const std::uint64_t frames = 2 * kDepth - 1;
  EXPECT_EQ(q->count.load() + call->count.load() + recursive->count.load() + call->folded.load(),
            frames);
  EXPECT_EQ(call->folded.load(), frames - ActivationStack::kMaxDepth);
  EXPECT_EQ(t.records->unmatched_exits.load(), 0u);
}

// p and q calling each other (p -c1-> q -c2-> p ...) to depth 10 000, with loop l in every q:
// the tree stays p, c1, q, l, c2 and a recursive p; p, q and l are each timed once.
TEST_F(ProbeCoreTest, MutualRecursionFoldsIntoTheOutermostActivations) {
  register_unit();
  ThreadState& t = *thread_;
  constexpr std::uint64_t kDepth = 10'000; // activations of p and q together
  const std::uint64_t start = source_.now_ns();
  core_.enter_procedure(t, 0, 0);
  for (std::uint64_t level = 1; level < kDepth; ++level) {
    const bool into_q = level % 2 == 1;
    core_.enter_statement(t, into_q ? 1 : 2, SiteKind::Call);
    core_.enter_procedure(t, into_q ? 4 : 0, into_q ? 1 : 0);
    if (into_q) {
      core_.enter_loop(t, 3, 0);
    }
  }
  busy_wait_ns(source_, 2'000'000);
  for (std::uint64_t level = kDepth - 1; level >= 1; --level) {
    const bool from_q = level % 2 == 1;
    if (from_q) {
      core_.exit_loop(t, 3);
    }
    core_.exit_procedure(t, from_q ? 4 : 0);
    core_.exit_statement(t, from_q ? 1 : 2, SiteKind::Call);
  }
  core_.exit_procedure(t, 0);
  const std::uint64_t elapsed = source_.now_ns() - start;

  const ContextTree& tree = t.records->contexts;
  EXPECT_EQ(tree.size(), 7u);
  const ContextNode* p = context_at(tree, {0});
  const ContextNode* q = context_at(tree, {0, 1, 4});
  const ContextNode* loop = context_at(tree, {0, 1, 4, 3});
  const ContextNode* recursive_p = context_at(tree, {0, 1, 4, 3, 2, 0});
  ASSERT_NE(loop, nullptr);
  ASSERT_NE(recursive_p, nullptr);
  EXPECT_GT(q->count.load(), 1u); // q re-entered from the recursive p finds its own node
  EXPECT_EQ(recursive_p->time_ns.load(), 0u);
  EXPECT_GE(loop->time_ns.load(), 2'000'000u);
  EXPECT_LE(loop->time_ns.load(), q->time_ns.load());
  EXPECT_LE(q->time_ns.load(), p->time_ns.load());
  EXPECT_LE(p->time_ns.load(), elapsed);
  EXPECT_EQ(t.stack.depth, 0u);
  EXPECT_EQ(t.records->unmatched_exits.load(), 0u);
}

// A tree of 64 contexts and loops nested 100 deep: the contexts beyond fold into the last one
// that fitted, which counts them and keeps their time.
TEST_F(ProbeCoreTest, ContextsBeyondTheBoundFoldIntoTheirParent) {
  register_unit();
  ThreadState small{};
  small.records = threads_.acquire(64);
  constexpr std::uint32_t kNesting = 100;
  for (std::uint32_t i = 0; i < kNesting; ++i) {
    core_.enter_loop(small, 3, 0);
  }
  busy_wait_ns(source_, 1'000'000);
  for (std::uint32_t i = 0; i < kNesting; ++i) {
    core_.exit_loop(small, 3);
  }
  const ContextTree& tree = small.records->contexts;
  ASSERT_EQ(tree.size(), 64u);
  const ContextNode& last = tree.at(63);
  EXPECT_EQ(last.folded.load(), kNesting - 63);
  EXPECT_EQ(last.count.load(), 1u);
  EXPECT_GE(last.time_ns.load(), 1'000'000u);
  threads_.release(small.records);
}

// Two threads' trees merge by path: p -c1-> q on both sums, q at the top of one thread is
// another context; parents come before their children.
TEST_F(ProbeCoreTest, TheRanksContextsAreTheThreadsMergedByPath) {
  register_unit();
  ThreadState& first = *thread_;
  ThreadState second{};
  second.records = threads_.acquire(1024);
  for (ThreadState* t : {&first, &second}) {
    core_.enter_procedure(*t, 0, 0);
    core_.enter_statement(*t, 1, SiteKind::Call);
    core_.enter_procedure(*t, 4, 1);
    core_.exit_procedure(*t, 4);
    core_.exit_statement(*t, 1, SiteKind::Call);
    core_.exit_procedure(*t, 0);
  }
  core_.enter_procedure(second, 4, 1);
  core_.exit_procedure(second, 4);
  const tables::RankRecords r = collect();
  ASSERT_EQ(r.contexts.size(), 4u);
  EXPECT_EQ(r.contexts[0].parent, 0u);
  EXPECT_EQ(r.contexts[0].site, 0u);
  EXPECT_EQ(r.contexts[0].count, 2u);
  EXPECT_EQ(r.contexts[1].parent, 1u); // c1 under p
  EXPECT_EQ(r.contexts[1].site, 1u);
  EXPECT_EQ(r.contexts[2].parent, 2u); // q under c1
  EXPECT_EQ(r.contexts[2].site, 4u);
  EXPECT_EQ(r.contexts[2].count, 2u);
  EXPECT_EQ(r.contexts[3].parent, 0u); // q at the top of the second thread
  EXPECT_EQ(r.contexts[3].site, 4u);
  EXPECT_EQ(r.contexts[3].count, 1u);
  threads_.release(second.records);
}

TEST(SiteRegistry, RejectsProbingThatDoesNotFitTheKind) {
  SiteRegistry registry;
  const vcmon_site_desc folded_loop[] = {
      {VCMON_SITE_PROCEDURE, 1, 1, -1, "f", "f", VCMON_PROBING_TIMED},
      {VCMON_SITE_LOOP, 2, 1, 0, "for", "", VCMON_PROBING_FOLDED}};
  const vcmon_site_desc unknown[] = {{VCMON_SITE_PROCEDURE, 1, 1, -1, "f", "f", 7u}};
  const vcmon_site_desc counted_loop[] = {
      {VCMON_SITE_PROCEDURE, 1, 1, -1, "f", "f", VCMON_PROBING_FOLDED},
      {VCMON_SITE_LOOP, 2, 1, 0, "for", "", VCMON_PROBING_COUNTED}};
  const vcmon_unit_desc bad = {VCMON_PROBE_ABI_VERSION, "a.c", 2, folded_loop};
  const vcmon_unit_desc worse = {VCMON_PROBE_ABI_VERSION, "b.c", 1, unknown};
  const vcmon_unit_desc good = {VCMON_PROBE_ABI_VERSION, "c.c", 2, counted_loop};
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(registry.register_unit(bad), SiteRegistry::kRejectedBase);
  EXPECT_EQ(registry.register_unit(worse), SiteRegistry::kRejectedBase);
  EXPECT_EQ(registry.register_unit(good), 0u);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "vcmon: ignoring the probes of a.c: a site's probing does not fit its kind\n"
            "vcmon: ignoring the probes of b.c: a site's probing does not fit its kind\n");
  EXPECT_EQ(registry.program_graph({}).site(1).probing, tables::SiteProbing::Counted);
}

TEST(SiteRegistry, RejectsMalformedUnitsAndNumbersTheRest) {
  SiteRegistry registry;
  const vcmon_site_desc good[] = {{VCMON_SITE_PROCEDURE, 1, 1, -1, "f", "f", VCMON_PROBING_TIMED},
                                  {VCMON_SITE_LOOP, 2, 1, 0, "for", "", VCMON_PROBING_TIMED}};
  const vcmon_site_desc bad_parent[] = {{VCMON_SITE_CALL, 1, 1, -1, "g", "g", VCMON_PROBING_TIMED},
                                        {VCMON_SITE_LOOP, 2, 1, 0, "for", "", VCMON_PROBING_TIMED}};
  const vcmon_unit_desc first = {VCMON_PROBE_ABI_VERSION, "a.c", 2, good};
  const vcmon_unit_desc old_abi = {VCMON_PROBE_ABI_VERSION + 1, "b.c", 2, good};
  const vcmon_unit_desc malformed = {VCMON_PROBE_ABI_VERSION, "c.c", 2, bad_parent};
  const vcmon_unit_desc second = {VCMON_PROBE_ABI_VERSION, "d.c", 2, good};
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(registry.register_unit(first), 0u);
  EXPECT_EQ(registry.register_unit(old_abi), SiteRegistry::kRejectedBase);
  EXPECT_EQ(registry.register_unit(malformed), SiteRegistry::kRejectedBase);
  EXPECT_EQ(registry.register_unit(second), 2u);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(messages, "vcmon: ignoring the probes of b.c: it was instrumented for another probe "
                      "ABI version\n"
                      "vcmon: ignoring the probes of c.c: a site's parent is neither a procedure "
                      "nor a loop\n");
  EXPECT_EQ(registry.site_count(), 4u);
  EXPECT_EQ(registry.find(SiteRegistry::kRejectedBase), nullptr);
  ASSERT_NE(registry.find(3), nullptr);
  EXPECT_EQ(registry.find(3)->kind, SiteKind::Loop);
  EXPECT_EQ(registry.find(3)->kind_index, 1u);

  const tables::ProgramGraph graph = registry.program_graph({"MPI_Send", "MPI_Recv"});
  ASSERT_EQ(graph.size(), 6u);
  EXPECT_EQ(graph.site(2).pos.file, "d.c");
  EXPECT_EQ(graph.site(3).parent, 2u);
  EXPECT_EQ(graph.site(5).name, "MPI_Recv");
  EXPECT_EQ(graph.site(5).kind, SiteKind::Comm);
  EXPECT_TRUE(graph.site(5).pos.file.empty());
}

} // namespace
} // namespace vcmon::runtime

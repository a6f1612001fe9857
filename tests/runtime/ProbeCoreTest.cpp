// The probe logic on its own records: activating call sites, recursion charged once, exits
// that skip activations (longjmp), activations folded beyond the stack, and the overflow
// table.
#include "core/ProbeCore.hpp"
#include "core/RankRecordsCollector.hpp"
#include "core/SiteRegistry.hpp"

#include <gtest/gtest.h>

#include <chrono>
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
    thread_->records = threads_.acquire();
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
  worker.records = threads_.acquire();
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
    EXPECT_EQ(c.min_bytes, 3u);
    EXPECT_EQ(c.max_bytes, 100u + static_cast<std::uint64_t>(c.partner));
    EXPECT_EQ(c.size_classes[tables::size_class(3)], 1u);
    EXPECT_EQ(c.size_classes[tables::size_class(c.max_bytes)], 1u);
    EXPECT_EQ(c.messages(), 2u);
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
  EXPECT_EQ(r.coms[0].messages(), 1u);
  EXPECT_EQ(r.coms[0].min_bytes, 70000u);
  EXPECT_EQ(r.coms[0].max_bytes, 70000u);
  EXPECT_EQ(r.coms[0].size_classes[5], 1u); // [64 KiB, 1 MiB)
  EXPECT_EQ(r.coms[1].count, 1u);
  EXPECT_EQ(r.coms[1].messages(), 0u);
  EXPECT_EQ(r.coms[1].min_bytes, 0u);
  EXPECT_EQ(r.coms[1].max_bytes, 0u);
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
    core_.enter_statement(t, 5, SiteKind::Comm); // what q holds still finds its frame
    EXPECT_EQ(t.stack.innermost_statement(SiteKind::Comm), 5u);
    core_.exit_statement(t, 5, SiteKind::Comm);
    core_.exit_procedure(t, 4);
    core_.exit_statement(t, 1, SiteKind::Call);
  }
  // 9 timed pairs, 16 throttled pairs, and 50 call and 50 comm markers.
  EXPECT_EQ(clock_.intrusion_ns() - before, 9u * 2 * 5 + 16u * 2 * 2 + 100u * 3);
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

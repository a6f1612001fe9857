// What MPI_Pcontrol excludes (query::RecordsExclusion) taken out of the calling contexts as out of
// the per-site records: matched by path, whatever each collection's numbering, and contexts
// left empty dropped with everything under them.
#include "query/RecordsExclusion.hpp"

#include <gtest/gtest.h>

namespace {

using vcmon::runtime::query::RecordsExclusion;
using vcmon::tables::ContextRecord;
using vcmon::tables::RankRecords;

// Sites of a small program: main calls work from two call sites; work holds a loop.
enum : vcmon::tables::SiteId { kMain, kCallA, kCallB, kWork, kLoop };

ContextRecord context(std::uint32_t parent, vcmon::tables::SiteId site, std::uint64_t count,
                      std::uint64_t time_ns, std::uint64_t iterations = 0) {
  return {
      .parent = parent, .site = site, .count = count, .time_ns = time_ns, .iterations = iterations};
}

RankRecords with_contexts(std::vector<ContextRecord> contexts) {
  RankRecords records;
  records.contexts = std::move(contexts);
  return records;
}

TEST(RecordsExclusion, LeavesContextsAloneWithoutPcontrol) {
  const RankRecords raw = with_contexts({context(0, kMain, 0, 0), context(1, kCallA, 1, 0),
                                         context(2, kWork, 1, 50), context(3, kLoop, 1, 40, 9)});
  RankRecords shown = raw;
  RecordsExclusion().apply(shown);
  EXPECT_EQ(shown, raw);
}

TEST(RecordsExclusion, ResetTakesContextsOutByPath) {
  RecordsExclusion exclusion;
  // Before the reset: work called at A, its loop run once with 10 iterations.
  exclusion.reset(with_contexts({context(0, kMain, 0, 100), context(1, kCallA, 1, 0),
                                 context(2, kWork, 1, 60), context(3, kLoop, 1, 50, 10)}));
  // Later the collection numbers them otherwise (call B's contexts first) and A ran again.
  RankRecords now =
      with_contexts({context(0, kMain, 0, 400), context(1, kCallB, 1, 0), context(2, kWork, 1, 200),
                     context(1, kCallA, 2, 0), context(4, kWork, 2, 90),
                     context(3, kLoop, 1, 150, 30), context(5, kLoop, 2, 70, 14)});
  exclusion.apply(now);
  EXPECT_EQ(now.contexts,
            (std::vector<ContextRecord>{context(0, kMain, 0, 300), context(1, kCallB, 1, 0),
                                        context(2, kWork, 1, 200), context(1, kCallA, 1, 0),
                                        context(4, kWork, 1, 30), context(3, kLoop, 1, 150, 30),
                                        context(5, kLoop, 1, 20, 4)}));
}

TEST(RecordsExclusion, PauseLeavesOutContextsGainedMeanwhile) {
  RecordsExclusion exclusion;
  const RankRecords before = with_contexts(
      {context(0, kMain, 0, 100), context(1, kCallA, 1, 0), context(2, kWork, 1, 60)});
  exclusion.pause(before);
  // While paused: work called at B for the first time, and main's time grew.
  const RankRecords at_resume = with_contexts(
      {context(0, kMain, 0, 300), context(1, kCallA, 1, 0), context(2, kWork, 1, 60),
       context(1, kCallB, 1, 0), context(4, kWork, 1, 150), context(5, kLoop, 1, 140, 7)});
  RankRecords while_paused = at_resume;
  exclusion.apply(while_paused);
  EXPECT_EQ(while_paused.contexts, before.contexts);
  exclusion.resume(at_resume);
  // After resuming: work called at A again.
  RankRecords now = with_contexts({context(0, kMain, 0, 500), context(1, kCallA, 2, 0),
                                   context(2, kWork, 2, 110), context(1, kCallB, 1, 0),
                                   context(4, kWork, 1, 150), context(5, kLoop, 1, 140, 7)});
  exclusion.apply(now);
  // Call B's contexts, all of them from the pause, are gone; A keeps both activations.
  EXPECT_EQ(now.contexts,
            (std::vector<ContextRecord>{context(0, kMain, 0, 300), context(1, kCallA, 2, 0),
                                        context(2, kWork, 2, 110)}));
}

TEST(RecordsExclusion, ResetTakesOutThrottledActivations) {
  // A throttled procedure: untimed activations are among its count, and must stay so (the
  // profile reader refuses a record with more untimed activations than activations).
  RecordsExclusion exclusion;
  RankRecords before;
  before.procs = {{.proc = kWork, .call_site = kCallA, .time_ns = 10, .count = 100, .untimed = 90}};
  exclusion.reset(before);
  RankRecords now;
  now.procs = {{.proc = kWork, .call_site = kCallA, .time_ns = 15, .count = 130, .untimed = 115}};
  exclusion.apply(now);
  EXPECT_EQ(now.procs,
            (std::vector<vcmon::tables::ProcRecord>{
                {.proc = kWork, .call_site = kCallA, .time_ns = 5, .count = 30, .untimed = 25}}));
}

} // namespace

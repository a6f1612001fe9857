#include "core/Monitor.hpp"

#include "core/CollectiveProfileWriter.hpp"
#include "core/Log.hpp"
#include "core/MonitorEvents.hpp"
#include "core/MpiFunctionTable.hpp"
#include "core/ProfileOutput.hpp"
#include "core/ProfileReductions.hpp"
#include "core/RankRecordsCollector.hpp"
#include "core/RecordsGather.hpp"
#include "core/TerminationHandlers.hpp"
#include "vcmon/tables/Profile.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <pthread.h>
#include <set>
#include <type_traits>
#include <unistd.h>

namespace vcmon::runtime {

__thread ThreadState* this_thread_state
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

namespace {

template <std::size_t N> std::uint64_t median(std::array<std::uint64_t, N> values) {
  std::nth_element(values.begin(), values.begin() + N / 2, values.end());
  return values[N / 2];
}

// Cost of one clock read: what an action measured with IntrusionScope cannot see of itself.
std::uint64_t measure_clock_read_ns(const vclock::ClockSource& source) {
  std::array<std::uint64_t, 101> samples{};
  for (std::uint64_t& sample : samples) {
    const std::uint64_t a = source.now_ns();
    const std::uint64_t b = source.now_ns();
    sample = b - a;
  }
  return median(samples);
}

// The cost of one probe, from 1000 runs in a row of `pair` (an enter and its exit).
template <typename Pair>
std::uint64_t per_probe_ns(const vclock::ClockSource& source, Pair&& pair) {
  constexpr std::uint64_t kPairs = 1000;
  const std::uint64_t start = source.now_ns();
  for (std::uint64_t i = 0; i < kPairs; ++i) {
    pair();
  }
  return (source.now_ns() - start + kPairs) / (2 * kPairs);
}

// Runs the real probe code on scratch records and clock: the median cost of a timed probe
// (procedure enter/exit), of an untimed one (statement markers) and of a throttled
// procedure's.
ProbeCosts calibrate_probe_costs(const vclock::ClockSource& source, std::uint64_t inject_ns) {
  vclock::VirtualClock scratch_clock(source);
  OverflowRecords scratch_overflow(64);
  auto scratch_records = std::make_unique<ThreadRecords>();
  scratch_records->contexts.reserve(8);
  auto thread = std::make_unique<ThreadState>();
  thread->records = scratch_records.get();
  ProbeCore core(scratch_clock, scratch_overflow, ProbeCosts{});
  ProbeCore throttling(scratch_clock, scratch_overflow, ProbeCosts{});
  throttling.set_throttle({1, ~std::uint64_t{0} >> 1}); // throttled from the first call
  // Batches of the three kinds interleave, so that a busy moment of the machine weighs on all.
  std::array<std::uint64_t, 9> timed{};
  std::array<std::uint64_t, 9> untimed{};
  std::array<std::uint64_t, 9> throttled{};
  for (std::size_t batch = 0; batch < timed.size(); ++batch) {
    timed[batch] = per_probe_ns(source, [&] {
      core.enter_procedure(*thread, 0, 0);
      core.exit_procedure(*thread, 0);
    });
    untimed[batch] = per_probe_ns(source, [&] {
      core.enter_statement(*thread, 1, tables::SiteKind::Call);
      core.exit_statement(*thread, 1, tables::SiteKind::Call);
    });
    throttled[batch] = per_probe_ns(source, [&] {
      throttling.enter_procedure(*thread, 2, 1);
      throttling.exit_procedure(*thread, 2);
    });
  }
  return ProbeCosts{median(timed), median(untimed), inject_ns, median(throttled)};
}

pthread_key_t thread_end_key;

// A thread ends: its open activations will never exit, and its record set goes to the next
// new thread.
void on_thread_end(void* state_pointer) {
  auto* state = static_cast<ThreadState*>(state_pointer);
  ProbeCore::abandon_open_activations(*state);
  Monitor::instance().probes().thread_ended(*state);
  Monitor::instance().clock().end_thread_lane();
  ThreadRecords* records = state->records;
  this_thread_state = nullptr; // a later probe of this thread (a TLS destructor) attaches anew
  Monitor::instance().thread_records_list().release(records); // the state goes with them
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) {
    return "unknown";
  }
  return name;
}

// The rank that ran longest in virtual time stands for the job.
void print_summary(const RankTimes& longest, const std::filesystem::path& path) {
  log_line(LogLevel::Info, "virtual %.3f s, real %.3f s, intrusion %.3f s, profile %s",
           static_cast<double>(longest.virtual_ns) * 1e-9,
           static_cast<double>(longest.real_ns) * 1e-9,
           static_cast<double>(longest.intrusion_ns) * 1e-9, path.c_str());
}

RankTimes times_of(const tables::RankRecords& r) {
  return {r.virtual_ns, r.real_ns, r.intrusion_ns};
}

} // namespace

Monitor& Monitor::construct_instance() {
  // Constructed in place and never destroyed: probes may still run in exit handlers and
  // in other threads while the process ends.
  alignas(Monitor) static unsigned char storage[sizeof(Monitor)];
  static Monitor* const monitor = [] {
    auto* constructed = new (storage) Monitor();
    instance_.store(constructed, std::memory_order_release);
    constructed->add_dispatch_cost(); // calls the probe ABI, which needs the instance
    return constructed;
  }();
  return *monitor;
}

void Monitor::add_dispatch_cost() {
  if (config_.disabled) {
    return;
  }
  // What instrumented code pays before the probe logic runs: the call through the PLT, the
  // scope functions, the monitor and the site lookup. Measured on a site id no unit has, so
  // nothing is recorded (the ids of rejected units); every probe pays it once.
  const vclock::IntrusionScope calibration(clock_, 0);
  std::array<std::uint64_t, 9> batches{};
  for (std::uint64_t& batch : batches) {
    batch = per_probe_ns(source_, [] {
      vcmon_scope scope = vcmon_call_scope(SiteRegistry::kRejectedBase);
      vcmon_scope_end(&scope);
    });
  }
  const std::uint64_t dispatch_ns = median(batches);
  ProbeCosts costs = probes_.costs();
  costs.timed_ns += dispatch_ns;
  costs.untimed_ns += dispatch_ns;
  costs.throttled_ns += dispatch_ns;
  probes_.set_costs(costs);
}

Monitor::Monitor()
    : config_(Config::from_environment(is_first_process())),
      source_(config_.disabled ? vclock::ClockSource::monotonic()
                               : vclock::ClockSource::calibrate()),
      clock_(source_), overflow_(config_.disabled ? 64 : config_.overflow_records),
      probes_(clock_, overflow_, ProbeCosts{}) {
  start_unix_ns_ = unix_time_ns();
  process_id_ = ::getpid();
  if (config_.disabled) {
    return;
  }
  action_cost_ns_ = measure_clock_read_ns(source_);
  const vclock::IntrusionScope calibration(clock_, 0);
  probes_.set_costs(calibrate_probe_costs(source_, config_.inject_probe_ns));
  probes_.set_throttle({config_.throttle_calls, config_.throttle_mean_ns});
  pthread_key_create(&thread_end_key, on_thread_end);
  install_termination_handlers(*this);
}

void Monitor::adopt_job_settings(bool monitored, DeadlockMode deadlock, ProfileIo profile_io) {
  config_.deadlock = deadlock;
  config_.profile_io = profile_io;
  if (!monitored) {
    enabled_.store(false, std::memory_order_relaxed);
  }
}

ThreadState* Monitor::attach_thread() {
  const vclock::IntrusionScope attach(clock_, action_cost_ns_);
  ThreadRecords* records = threads_.acquire(config_.max_contexts);
  // Pages for every site registered so far, so that probes do not allocate later.
  records->procs.reserve(registry_.kind_count(tables::SiteKind::Procedure));
  records->loops.reserve(registry_.kind_count(tables::SiteKind::Loop));
  records->coms.reserve(registry_.kind_count(tables::SiteKind::Comm));
  records->synthetic_coms.reserve(mpi_function_count());
  // As a new thread's (a set handed on keeps its last thread's state), cleared in place: a
  // 12 KB temporary would not fit the stack of a thread started with a small one.
  ThreadState& state = records->thread;
  static_assert(std::is_trivially_copyable_v<ThreadState>);
  std::memset(static_cast<void*>(&state), 0, sizeof state);
  state.records = records;
  this_thread_state = &state;
  pthread_setspecific(thread_end_key, &state);
  return &state;
}

void Monitor::on_mpi_init(int world_rank, int world_size) {
  world_rank_ = world_rank;
  world_size_ = world_size;
  mpi_initialized_.store(true);
  if (config_.test_clock_offset_ns != 0) {
    shift_time_base(config_.test_clock_offset_ns * world_rank);
  }
  MonitorEvents::raise_mpi_started(*this);
}

void Monitor::set_clock_offset(std::int64_t offset_ns) {
  shift_time_base(-offset_ns);
  clock_offset_ns_ = offset_ns;
}

void Monitor::shift_time_base(std::int64_t delta_ns) {
  clock_.advance(delta_ns);
  // The calling thread's open activations (main, the caller of MPI_Init) began in the old
  // base; other threads rarely have any before MPI_Init, and theirs keep the shift.
  ProbeCore::rebase_open_activations(this_thread(), delta_ns);
  probes_.rebase_ended_threads(delta_ns);
}

tables::SiteId Monitor::comm_site(unsigned function_index) {
  const std::uint32_t site = this_thread().stack.innermost_statement(tables::SiteKind::Comm);
  return site != tables::kNoSite ? site : kSyntheticCommBase + function_index;
}

void Monitor::record_com(tables::SiteId site, std::int32_t partner, std::uint64_t transmission_ns,
                         std::uint64_t sync_delay_ns, std::uint64_t bytes, bool message) {
  ProbeCore::add_com(com_record(site, partner), transmission_ns, sync_delay_ns, bytes, message);
}

ProbeCore::ComRecordRef Monitor::com_record(tables::SiteId site, std::int32_t partner) {
  if (partner < tables::ComRecord::kCollective) {
    return {};
  }
  return com_record(site, partner, statement_context(site));
}

StatementContext Monitor::statement_context(tables::SiteId site) {
  ThreadState& thread = this_thread();
  return {ProbeCore::com_context(thread, site, site >= kSyntheticCommBase), &thread};
}

ProbeCore::ComRecordRef Monitor::com_record(tables::SiteId site, std::int32_t partner,
                                            const StatementContext& opened) {
  ThreadState& thread = this_thread();
  ++thread.mpi_events;
  if (partner < tables::ComRecord::kCollective) {
    return {};
  }
  ThreadRecords& records = *thread.records;
  ComSlots* slots = nullptr;
  if (site >= kSyntheticCommBase) {
    if (site - kSyntheticCommBase < mpi_function_count()) {
      slots = records.synthetic_coms.get(site - kSyntheticCommBase);
    }
  } else if (const SiteEntry* entry = registry_.find(site);
             entry != nullptr && entry->kind == tables::SiteKind::Comm) {
    slots = records.coms.get(entry->kind_index);
  }
  ProbeCore::ComRecordRef record =
      slots != nullptr ? probes_.find_com(*slots, site, partner) : ProbeCore::ComRecordRef{};
  record.context = opened.thread == &thread ? opened.node : nullptr;
  return record;
}

CollectedRecords Monitor::collect_with_totals(bool settle_this_thread, vclock::Moment at) {
  // The records' moment `at` was taken before collecting them: the collection is the
  // monitor's work (its caller's scope charges it afterwards), and a moment taken after it
  // counted that work as the program's time, open activations (main) and totals alike. Its
  // virtual time too was read then: derived later from its real time, it would count what the
  // clock was charged in between (the publisher's last publication, as it is stopped), and
  // main ended before the MPI_Finalize statement it holds.
  const std::uint64_t real_ns = at.rt;
  // The thread that settles (main's) ends its open activations no earlier than its own
  // probes and every ended thread saw: main covers the threads it joined.
  const std::uint64_t seen =
      settle_this_thread ? probes_.virtual_floor(this_thread()) : std::uint64_t{0};
  const std::uint64_t virtual_ns = std::min(std::max(at.vt, seen), real_ns);
  if (settle_this_thread) {
    probes_.settle_open_activations(this_thread(), virtual_ns);
  }
  CollectedRecords collected =
      collect_records(registry_, threads_, overflow_, mpi_function_count());
  tables::RankRecords& records = collected.records;
  records.rank = world_rank_;
  records.host = host_name();
  records.real_ns = real_ns;
  records.virtual_ns = virtual_ns;
  records.intrusion_ns = real_ns - virtual_ns;
  records.clock_offset_ns = clock_offset_ns_;
  records.counters = counters_.snapshot();
  records.counters.probe_events += collected.probe_events;
  records.counters.folded_activations = collected.folded_activations;
  records.counters.folded_contexts = collected.folded_contexts;
  return collected;
}

tables::RankRecords Monitor::local_rank_records(bool settle_this_thread) {
  return std::move(collect_with_totals(settle_this_thread, vclock::Moment::now(clock_)).records);
}

tables::RankRecords Monitor::collect_rank_records(vclock::Moment at) {
  CollectedRecords collected = collect_with_totals(true, at);
  if (collected.folded_activations + collected.unmatched_exits + collected.dropped_records > 0) {
    log_line(LogLevel::Warning,
             "rank %d: %llu activations beyond depth %u were folded, %llu unmatched "
             "exits, %llu records dropped (VCMON_OVERFLOW_RECORDS)",
             world_rank_, static_cast<unsigned long long>(collected.folded_activations),
             ActivationStack::kMaxDepth, static_cast<unsigned long long>(collected.unmatched_exits),
             static_cast<unsigned long long>(collected.dropped_records));
  }
  if (collected.folded_contexts > collected.folded_activations) {
    log_line(
        LogLevel::Warning,
        "rank %d: %llu activations got no calling context of their own "
        "(VCMON_MAX_CONTEXTS=%u): their time is their caller's context's",
        world_rank_,
        static_cast<unsigned long long>(collected.folded_contexts - collected.folded_activations),
        config_.max_contexts);
  }
  MonitorEvents::raise_records_collected(collected.records);
  return std::move(collected.records);
}

namespace {

std::vector<std::string> synthetic_comm_names() {
  std::vector<std::string> names;
  for (unsigned i = 0; i < mpi_function_count(); ++i) {
    names.emplace_back(mpi_function_name(i));
  }
  return names;
}

tables::RunMetadata run_metadata(const Monitor& monitor, std::int64_t start_unix_ns,
                                 const std::vector<tables::RankRecords>& ranks,
                                 std::int32_t rank_count) {
  tables::RunMetadata meta;
  meta.command = command_line();
  meta.ranks = rank_count;
  std::set<std::string> hosts;
  for (const tables::RankRecords& r : ranks) {
    hosts.insert(r.host);
  }
  meta.hosts.assign(hosts.begin(), hosts.end());
  meta.start_unix_ns = start_unix_ns;
  meta.end_unix_ns = unix_time_ns();
  meta.clock.source = std::string(monitor.clock_source().name());
  meta.clock.ticks_per_ns = monitor.clock_source().ticks_per_ns();
  meta.clock.probe_cost_ns = monitor.probe_costs().timed_ns;
  meta.activation_depth = ActivationStack::kMaxDepth;
  return meta;
}

} // namespace

tables::Profile Monitor::profile_of(std::vector<tables::RankRecords> ranks,
                                    std::int32_t rank_count) const {
  tables::Profile profile;
  std::sort(ranks.begin(), ranks.end(),
            [](const auto& a, const auto& b) { return a.rank < b.rank; });
  profile.ranks = std::move(ranks);
  profile.meta = run_metadata(*this, start_unix_ns_, profile.ranks, rank_count);
  profile.graph = registry_.program_graph(synthetic_comm_names());
  return profile;
}

void Monitor::write_profile_of(std::vector<tables::RankRecords> ranks, std::int32_t rank_count,
                               std::string_view partial_reason, std::string_view suffix) {
  tables::Profile profile = profile_of(std::move(ranks), rank_count);
  profile.meta.partial = !partial_reason.empty();
  profile.meta.partial_reason = std::string(partial_reason);
  const auto path = write_profile(profile, config_.output_dir, suffix);
  if (!path) {
    return;
  }
  if (profile.meta.partial) {
    log_line(LogLevel::Info, "rank %d: partial profile (%s) %s", world_rank_,
             profile.meta.partial_reason.c_str(), path->c_str());
  } else if (!profile.ranks.empty()) {
    print_summary(
        times_of(*std::ranges::max_element(profile.ranks, {}, &tables::RankRecords::virtual_ns)),
        *path);
  }
}

void Monitor::write_job_profile(bool final_profile, vclock::Moment at) {
  const bool written_before = final_profile && profile_written_.exchange(true);
  const tables::RankRecords mine = collect_rank_records(at);
  const MPI_Comm comm = monitor_communicator();
  tables::RunMetadata meta;
  // Every rank's: the job's summary is reduced over the ranks, each naming its records' sites.
  const tables::ProgramGraph graph = registry_.program_graph(synthetic_comm_names());
  ProfileDestination destination;
  if (world_rank_ == 0) {
    meta = run_metadata(*this, start_unix_ns_, {}, world_size_);
    // Snapshots are told from the final profile by name; the final one is named as ever.
    const std::string suffix =
        final_profile ? std::string() : "-snapshot-" + std::to_string(++snapshots_written_);
    destination = {config_.output_dir, profile_stem(meta.end_unix_ns, suffix), !written_before};
  }
  const RankTimes longest = longest_rank_at_rank0(comm, times_of(mine));
  const auto path = write_profile_collectively(comm, config_.profile_io, mine, std::move(meta),
                                               graph, destination);
  if (path) {
    print_summary(longest, *path);
  }
}

void Monitor::on_mpi_finalize() {
  if (!enabled() || mpi_finalized_.exchange(true)) {
    return;
  }
  const std::uint64_t entry_ns = source_.now_ns();
  const vclock::Moment entry = vclock::Moment::at(clock_, entry_ns);
  const vclock::IntrusionScope finalize(clock_, action_cost_ns_, entry_ns);
  MonitorEvents::raise_mpi_ending(); // stops the publisher: the monitor's work too
  try {
    write_job_profile(true, entry);
  } catch (const std::exception& error) {
    log_line(LogLevel::Error, "the profile was not written: %s", error.what());
  }
}

void Monitor::write_profile_now() {
  if (!enabled() || !mpi_initialized_.load() || mpi_finalized_.load()) {
    return;
  }
  const std::uint64_t entry_ns = source_.now_ns();
  const vclock::Moment entry = vclock::Moment::at(clock_, entry_ns);
  const vclock::IntrusionScope now(clock_, action_cost_ns_, entry_ns);
  try {
    write_job_profile(false, entry);
  } catch (const std::exception& error) {
    log_line(LogLevel::Error, "the profile was not written: %s", error.what());
  }
}

void Monitor::write_partial_profile(std::string_view reason, vclock::Moment at) {
  if (!enabled() || profile_written_.exchange(true)) {
    return;
  }
  try {
    write_profile_of({collect_rank_records(at)}, world_size_, reason);
  } catch (const std::exception& error) {
    log_line(LogLevel::Error, "the partial profile was not written: %s", error.what());
  }
}

void Monitor::on_abort(std::string_view reason) {
  const vclock::Moment at = vclock::Moment::now(clock_); // before stopping the publisher
  MonitorEvents::raise_mpi_ending();
  write_partial_profile(reason, at);
}

void Monitor::on_exit() {
  // A child forked without exec inherits the monitor and this handler: its records are the
  // parent's up to the fork, so it writes nothing.
  if (!enabled() || mpi_finalized_.load() || ::getpid() != process_id_) {
    return;
  }
  const vclock::Moment at = vclock::Moment::now(clock_); // before stopping the publisher
  MonitorEvents::raise_mpi_ending();
  if (mpi_initialized_.load()) {
    write_partial_profile("exit without MPI_Finalize", at);
    return;
  }
  // A program that never initialised MPI ran completely: its one process is the whole job.
  if (profile_written_.exchange(true)) {
    return;
  }
  try {
    write_profile_of({collect_rank_records(at)}, 1, {});
  } catch (const std::exception& error) {
    log_line(LogLevel::Error, "the profile was not written: %s", error.what());
  }
}

} // namespace vcmon::runtime

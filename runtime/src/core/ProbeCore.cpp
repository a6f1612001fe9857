#include "core/ProbeCore.hpp"

#include <algorithm>
#include <time.h>

namespace vcmon::runtime {

using tables::SiteKind;

void ProbeCore::charge(std::uint64_t start_ns, std::uint64_t constant_ns) {
  if (costs_.inject_ns == 0) [[likely]] {
    clock_.charge(constant_ns);
    return;
  }
  // Injected cost stands for probe work. Up to kSpinAtMostNs it is spent spinning, like a
  // real probe; longer costs (the millisecond costs of experiments) sleep most of the way: on
  // a machine shared by more processes than cores, a process that spins for milliseconds is
  // scheduled later afterwards, which would slow the program itself in ways no clock sees.
  // Whatever really elapsed is charged.
  constexpr std::uint64_t kSpinAtMostNs = 100'000;
  std::uint64_t now = now_ns();
  if (costs_.inject_ns > kSpinAtMostNs) {
    const std::uint64_t sleep_ns = costs_.inject_ns - kSpinAtMostNs;
    const timespec duration{static_cast<time_t>(sleep_ns / 1'000'000'000),
                            static_cast<long>(sleep_ns % 1'000'000'000)};
    nanosleep(&duration, nullptr);
    now = now_ns();
  }
  while (now - start_ns < costs_.inject_ns) {
    now = now_ns();
  }
  clock_.charge(now - start_ns + constant_ns);
}

std::uint64_t ProbeCore::thread_virtual_at(ThreadState& thread, std::uint64_t real_ns) const {
  thread.last_vt_ns = std::max(virtual_floor(thread), clock_.virtual_at(real_ns));
  // The MPI layer's readings (a statement's start) come after it: the probe's own charge, a
  // calibrated constant, must not put them before it.
  clock_.hold(thread.last_vt_ns);
  return thread.last_vt_ns;
}

void ProbeCore::thread_ended(const ThreadState& thread) {
  std::uint64_t seen = ended_threads_vt_.load(std::memory_order_relaxed);
  while (thread.last_vt_ns > seen && !ended_threads_vt_.compare_exchange_weak(
                                         seen, thread.last_vt_ns, std::memory_order_relaxed)) {
  }
}

void ProbeCore::rebase_ended_threads(std::int64_t delta_ns) {
  const std::uint64_t seen = ended_threads_vt_.load(std::memory_order_relaxed);
  const std::int64_t shifted = static_cast<std::int64_t>(seen) + delta_ns;
  ended_threads_vt_.store(seen != 0 && shifted > 0 ? static_cast<std::uint64_t>(shifted) : 0,
                          std::memory_order_relaxed);
}

Frame* ProbeCore::push(ThreadState& thread, std::uint32_t site, SiteKind kind) {
  ActivationStack& stack = thread.stack;
  if (stack.depth == ActivationStack::kMaxDepth) [[unlikely]] {
    ++stack.folded;
    if (kind == SiteKind::Call || kind == SiteKind::Comm) {
      stack.folded_statement_site = site;
      stack.folded_statement_kind = kind;
      stack.folded_statement_level = stack.folded;
    }
    add_owned(thread.records->folded_activations, 1);
    // Its context too is folded, into the deepest one the stack holds.
    add_owned(stack.frames[ActivationStack::kMaxDepth - 1].context->folded, 1);
    return nullptr;
  }
  ContextNode* enclosing =
      stack.depth > 0 ? stack.frames[stack.depth - 1].context : &thread.records->contexts.root();
  Frame& frame = stack.frames[stack.depth++];
  frame.site = site;
  frame.kind = kind;
  frame.adds_time = false;
  frame.shared_record = false;
  frame.entry_vt_ns = 0;
  frame.time_ns = nullptr;
  frame.proc = nullptr;
  frame.context = enclosing;
  frame.node = nullptr;
  frame.times_node = false;
  frame.throttled = false;
  return &frame;
}

ContextNode* ProbeCore::enter_context(ThreadRecords& records, Frame& frame) {
  ContextNode& enclosing = *frame.context;
  ContextNode& node = records.contexts.child(enclosing, frame.site, frame.kind);
  if (&node == &enclosing) [[unlikely]] {
    add_owned(enclosing.folded, 1);
    return nullptr;
  }
  frame.context = &node;
  frame.node = &node;
  return &node;
}

void ProbeCore::time_loop_node(Frame& frame) {
  if (frame.node != nullptr && frame.node->timing == 0) {
    ++frame.node->timing;
    frame.times_node = true;
  }
}

void ProbeCore::add_elapsed(const Frame& frame, std::uint64_t end_vt_ns) {
  const std::uint64_t elapsed = end_vt_ns > frame.entry_vt_ns ? end_vt_ns - frame.entry_vt_ns : 0;
  if (frame.times_node) {
    add_owned(frame.node->time_ns, elapsed);
  }
  if (!frame.adds_time || frame.time_ns == nullptr) {
    return;
  }
  if (frame.proc != nullptr) {
    frame.proc->measured_ns += elapsed;
  }
  if (frame.shared_record) {
    frame.time_ns->fetch_add(elapsed, std::memory_order_relaxed);
  } else {
    add_owned(*frame.time_ns, elapsed);
  }
}

void ProbeCore::release_frame(const Frame& frame) {
  if (frame.proc != nullptr) {
    --frame.proc->active;
  }
  if (frame.times_node && frame.kind == SiteKind::Loop) {
    --frame.node->timing;
  }
}

void ProbeCore::close_frame(const Frame& frame, std::uint64_t end_vt_ns) {
  release_frame(frame);
  add_elapsed(frame, end_vt_ns);
}

void ProbeCore::abandon_open_activations(ThreadState& thread) {
  for (std::uint32_t i = 0; i < thread.stack.depth; ++i) {
    release_frame(thread.stack.frames[i]);
  }
  thread.stack.depth = 0;
  thread.stack.folded = 0;
  thread.stack.folded_statement_level = 0;
}

void ProbeCore::close_activation(ThreadState& thread, std::uint32_t site, SiteKind kind,
                                 std::uint64_t end_vt_ns) {
  ActivationStack& stack = thread.stack;
  if (stack.folded > 0) [[unlikely]] {
    // The innermost activations are the folded ones; nesting says this exit closes the
    // innermost of them.
    if (stack.folded_statement_level == stack.folded) {
      stack.folded_statement_level = 0;
    }
    --stack.folded;
    return;
  }
  std::uint32_t match = stack.depth;
  while (match > 0 &&
         (stack.frames[match - 1].site != site || stack.frames[match - 1].kind != kind)) {
    --match;
  }
  if (match == 0) [[unlikely]] {
    add_owned(thread.records->unmatched_exits, 1);
    return;
  }
  while (stack.depth >= match) {
    close_frame(stack.frames[--stack.depth], end_vt_ns);
  }
}

void ProbeCore::time_enclosing(ActivationStack& stack, std::uint64_t now_vt_ns) {
  for (std::uint32_t i = stack.depth; i > 0; --i) {
    Frame& frame = stack.frames[i - 1];
    if (frame.kind == SiteKind::Call) {
      continue;
    }
    if (!frame.throttled) {
      return;
    }
    frame.throttled = false;
    frame.adds_time = true;
    frame.entry_vt_ns = now_vt_ns;
    if (frame.kind == SiteKind::Loop) {
      time_loop_node(frame);
    } else {
      // A procedure's: no longer among the untimed activations.
      frame.times_node = frame.node != nullptr;
      if (frame.untimed != nullptr && frame.shared_record) {
        frame.untimed->fetch_sub(1, std::memory_order_relaxed);
      } else if (frame.untimed != nullptr) {
        add_owned(*frame.untimed, ~std::uint64_t{0}); // minus one
      }
      if (frame.node != nullptr) {
        add_owned(frame.node->untimed, ~std::uint64_t{0});
      }
    }
    // Its entry was charged as an untimed one's; its exit will be a timed one's.
    clock_.charge(costs_.timed_ns > costs_.throttled_ns ? costs_.timed_ns - costs_.throttled_ns
                                                        : 0);
  }
}

bool ProbeCore::timed_activation(ProcSlots& proc) const {
  if (proc.throttled) [[unlikely]] {
    return false;
  }
  // Decided once, at the threshold: O(1), and a procedure that was slow so far stays timed.
  if (++proc.activations == throttle_.calls &&
      proc.measured_ns < throttle_.calls * throttle_.mean_ns) [[unlikely]] {
    proc.throttled = true;
    return false;
  }
  return true;
}

void ProbeCore::enter_procedure(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index) {
  ThreadRecords& records = *thread.records;
  ProcSlots* proc = records.procs.get(kind_index);
  // A recursive activation adds no time (the outermost one covers it): it reads no clock and
  // does not count towards throttling.
  const bool recursive = proc != nullptr && proc->active > 0;
  const bool timed = proc == nullptr || (!recursive && timed_activation(*proc));
  const std::uint64_t start = timed || costs_.inject_ns != 0 ? now_ns() : 0;
  add_owned(records.probe_events, 1);
  const std::uint64_t entry_vt = timed ? thread_virtual_at(thread, start) : 0;
  if (timed && encloses_untimed(thread.stack)) [[unlikely]] {
    time_enclosing(thread.stack, entry_vt);
  }
  const std::uint32_t call_site = thread.stack.innermost_statement(SiteKind::Call);
  Frame* frame = push(thread, site, SiteKind::Procedure);
  if (proc != nullptr) [[likely]] {
    // A folded activation (no frame) is counted too; its time stays in the stored ones.
    const bool throttled = !timed && !recursive;
    std::atomic<std::uint64_t>* time_ns = nullptr;
    std::atomic<std::uint64_t>* untimed = nullptr;
    bool shared_record = false;
    if (KeyedRecord* record = proc->by_call_site.find_or_claim(call_site)) [[likely]] {
      add_owned(record->count, 1);
      if (throttled) {
        add_owned(record->untimed, 1);
        untimed = &record->untimed;
      }
      time_ns = &record->time_ns;
    } else if (OverflowRecords::Entry* entry = overflow_.find_or_claim(site, call_site)) {
      entry->count.fetch_add(1, std::memory_order_relaxed);
      if (throttled) {
        entry->untimed.fetch_add(1, std::memory_order_relaxed);
        untimed = &entry->untimed;
      }
      time_ns = &entry->time_ns;
      shared_record = true;
    }
    if (frame != nullptr) [[likely]] {
      frame->proc = proc;
      ++proc->active;
      frame->adds_time = timed;
      frame->throttled = throttled;
      frame->untimed = untimed;
      frame->entry_vt_ns = entry_vt;
      frame->time_ns = time_ns;
      frame->shared_record = shared_record;
      ContextNode* node = enter_context(records, *frame);
      if (node != nullptr) [[likely]] {
        add_owned(node->count, 1);
        if (throttled) {
          add_owned(node->untimed, 1);
        }
      }
      if (recursive) {
        // What the recursive activation contains hangs under the outermost one's context, so
        // that the tree stays finite (docs/runtime.md, "Calling contexts").
        frame->context = proc->outermost_context;
      } else {
        proc->outermost_context = frame->context;
        // No open activation times this node: it would have made the procedure active.
        frame->times_node = timed && node != nullptr;
      }
    }
  }
  charge(start, timed ? costs_.timed_ns : costs_.throttled_ns);
}

bool ProbeCore::closes_untimed(const ActivationStack& stack, std::uint32_t site, SiteKind kind) {
  const Frame* top = stack.top();
  return stack.folded > 0 ||
         (top != nullptr && top->site == site && top->kind == kind && !top->adds_time);
}

void ProbeCore::close_untimed(ThreadState& thread, std::uint32_t site, SiteKind kind) {
  ActivationStack& stack = thread.stack;
  const std::uint64_t start = costs_.inject_ns != 0 ? now_ns() : 0;
  add_owned(thread.records->probe_events, 1);
  // Two direct cases rather than close_activation: inlining its search here made every
  // procedure exit 1 ns slower (bench_probe, 17.7 -> 18.8 ns a pair).
  if (stack.folded > 0) {
    close_activation(thread, site, kind, 0); // the innermost folded one
  } else {
    close_frame(*stack.top(), 0);
    --stack.depth;
  }
  charge(start, costs_.throttled_ns);
}

void ProbeCore::exit_procedure(ThreadState& thread, std::uint32_t site) {
  // A throttled, recursive or folded activation adds no time: closing it needs no clock, and
  // charging it as a timed exit would charge a clock read it did not make (the clock would
  // run behind, and a parent on another thread could end before its child).
  if (closes_untimed(thread.stack, site, SiteKind::Procedure)) {
    close_untimed(thread, site, SiteKind::Procedure);
    return;
  }
  const std::uint64_t start = now_ns();
  add_owned(thread.records->probe_events, 1);
  close_activation(thread, site, SiteKind::Procedure, thread_virtual_at(thread, start));
  charge(start, costs_.timed_ns);
}

void ProbeCore::enter_loop(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index) {
  // A loop of a throttled procedure's untimed activation is as fast: it is counted, not timed
  // (its time stays the activation's, which is the caller's), unless something timed opens
  // inside it (time_enclosing).
  const bool timed = !encloses_untimed(thread.stack);
  const std::uint64_t start = timed || costs_.inject_ns != 0 ? now_ns() : 0;
  ThreadRecords& records = *thread.records;
  add_owned(records.probe_events, 1);
  Frame* frame = push(thread, site, SiteKind::Loop);
  if (LoopCounters* loop = records.loops.get(kind_index)) [[likely]] {
    add_owned(loop->count, 1); // folded or not
    if (frame != nullptr) [[likely]] {
      frame->adds_time = timed;
      frame->throttled = !timed;
      frame->untimed = nullptr;
      frame->time_ns = &loop->time_ns;
      frame->entry_vt_ns = timed ? thread_virtual_at(thread, start) : 0;
      if (ContextNode* node = enter_context(records, *frame)) [[likely]] {
        add_owned(node->count, 1);
        if (timed) {
          time_loop_node(*frame);
        }
      }
    }
  }
  charge(start, timed ? costs_.timed_ns : costs_.throttled_ns);
}

ContextNode* ProbeCore::innermost_loop_node(ThreadState& thread, std::uint32_t site) {
  const Frame* top = thread.stack.top();
  const bool innermost = top != nullptr && thread.stack.folded == 0 && top->site == site &&
                         top->kind == SiteKind::Loop;
  return innermost ? top->node : nullptr;
}

void ProbeCore::iterate_loop(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index) {
  const std::uint64_t start = costs_.inject_ns != 0 ? now_ns() : 0;
  ThreadRecords& records = *thread.records;
  add_owned(records.probe_events, 1);
  if (LoopCounters* loop = records.loops.get(kind_index)) {
    add_owned(loop->iterations, 1);
  }
  if (ContextNode* node = innermost_loop_node(thread, site)) {
    add_owned(node->iterations, 1);
  }
  charge(start, costs_.untimed_ns);
}

void ProbeCore::exit_loop(ThreadState& thread, std::uint32_t site) {
  if (closes_untimed(thread.stack, site, SiteKind::Loop)) {
    close_untimed(thread, site, SiteKind::Loop);
    return;
  }
  const std::uint64_t start = now_ns();
  add_owned(thread.records->probe_events, 1);
  close_activation(thread, site, SiteKind::Loop, thread_virtual_at(thread, start));
  charge(start, costs_.timed_ns);
}

void ProbeCore::exit_loop_after(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index,
                                std::uint64_t iterations) {
  if (LoopCounters* loop = thread.records->loops.get(kind_index)) [[likely]] {
    add_owned(loop->iterations, iterations);
  }
  if (ContextNode* node = innermost_loop_node(thread, site)) [[likely]] {
    add_owned(node->iterations, iterations);
  }
  exit_loop(thread, site);
}

void ProbeCore::add_counted_loop(ThreadState& thread, std::uint32_t site, std::uint32_t kind_index,
                                 std::uint64_t executions, std::uint64_t iterations) {
  const std::uint64_t start = costs_.inject_ns != 0 ? now_ns() : 0;
  ThreadRecords& records = *thread.records;
  add_owned(records.probe_events, 1);
  if (LoopCounters* loop = records.loops.get(kind_index)) [[likely]] {
    add_owned(loop->count, executions);
    add_owned(loop->iterations, iterations);
  }
  // Under the activation that flushes it (its enclosing timed loop), whose time holds it.
  if (Frame* top = thread.stack.top(); top != nullptr && thread.stack.folded == 0) [[likely]] {
    ContextNode& enclosing = *top->context;
    ContextNode& node = records.contexts.child(enclosing, site, SiteKind::Loop);
    if (&node != &enclosing) [[likely]] {
      add_owned(node.count, executions);
      add_owned(node.iterations, iterations);
    } else {
      add_owned(enclosing.folded, executions);
    }
  }
  charge(start, costs_.untimed_ns);
}

void ProbeCore::enter_statement(ThreadState& thread, std::uint32_t site, SiteKind kind) {
  const std::uint64_t start = costs_.inject_ns != 0 ? now_ns() : 0;
  add_owned(thread.records->probe_events, 1);
  // A communication statement's MPI calls record their time under it.
  if (kind == SiteKind::Comm && encloses_untimed(thread.stack)) [[unlikely]] {
    time_enclosing(thread.stack, thread_virtual_at(thread, now_ns()));
  }
  if (Frame* frame = push(thread, site, kind)) [[likely]] {
    ContextNode* node = enter_context(*thread.records, *frame);
    // A communication statement's node counts its operations, as its com records do (add_com).
    if (node != nullptr && kind == SiteKind::Call) [[likely]] {
      add_owned(node->count, 1);
    }
  }
  charge(start, costs_.untimed_ns);
}

void ProbeCore::exit_statement(ThreadState& thread, std::uint32_t site, SiteKind kind) {
  const std::uint64_t start = costs_.inject_ns != 0 ? now_ns() : 0;
  add_owned(thread.records->probe_events, 1);
  // Statement frames carry no time; an end time matters only when the exit also closes
  // procedures or loops left open above it, which is rare enough to read the clock for.
  const Frame* top = thread.stack.top();
  const bool closes_only_itself =
      top != nullptr && top->site == site && top->kind == kind && thread.stack.folded == 0;
  if (closes_only_itself) [[likely]] {
    --thread.stack.depth;
  } else {
    close_activation(thread, site, kind, thread_virtual_at(thread, now_ns()));
  }
  charge(start, costs_.untimed_ns);
}

void ProbeCore::settle_open_activations(ThreadState& thread, std::uint64_t now_vt_ns) {
  for (std::uint32_t i = 0; i < thread.stack.depth; ++i) {
    Frame& frame = thread.stack.frames[i];
    // A frame entered after `now_vt_ns` keeps its entry: moving it back would count time
    // before the activation began.
    if (now_vt_ns > frame.entry_vt_ns) {
      add_elapsed(frame, now_vt_ns);
      frame.entry_vt_ns = now_vt_ns;
    }
  }
  // The thread's later readings start there, so its exits never fall below what was settled.
  thread.last_vt_ns = std::max(thread.last_vt_ns, now_vt_ns);
}

void ProbeCore::rebase_open_activations(ThreadState& thread, std::int64_t delta_ns) {
  const auto moved = [delta_ns](std::uint64_t vt) {
    const std::int64_t shifted = static_cast<std::int64_t>(vt) + delta_ns;
    return shifted > 0 ? static_cast<std::uint64_t>(shifted) : 0;
  };
  for (std::uint32_t i = 0; i < thread.stack.depth; ++i) {
    thread.stack.frames[i].entry_vt_ns = moved(thread.stack.frames[i].entry_vt_ns);
  }
  thread.last_vt_ns = moved(thread.last_vt_ns);
}

ProbeCore::ComRecordRef ProbeCore::find_com(ComSlots& slots, std::uint32_t site,
                                            std::int32_t partner) {
  const auto key = static_cast<std::uint32_t>(partner);
  if (ComKeyedRecord* record = slots.find_or_claim(key)) [[likely]] {
    return {record, nullptr};
  }
  return {nullptr, overflow_.find_or_claim(site, key)};
}

ContextNode* ProbeCore::com_context(ThreadState& thread, std::uint32_t site, bool synthetic) {
  ActivationStack& stack = thread.stack;
  Frame* top = stack.top();
  if (stack.folded > 0) [[unlikely]] {
    return nullptr;
  }
  if (top != nullptr && top->site == site && top->kind == SiteKind::Comm) [[likely]] {
    return top->node;
  }
  if (!synthetic) {
    return nullptr;
  }
  ContextTree& contexts = thread.records->contexts;
  ContextNode& enclosing = top != nullptr ? *top->context : contexts.root();
  ContextNode& node = contexts.child(enclosing, site, SiteKind::Comm);
  if (&node == &enclosing) [[unlikely]] {
    add_owned(enclosing.folded, 1);
    return nullptr;
  }
  return &node;
}

void ProbeCore::add_com(const ComRecordRef& record, std::uint64_t transmission_ns,
                        std::uint64_t sync_delay_ns, std::uint64_t bytes, bool message) {
  if (ContextNode* node = record.context) [[likely]] {
    add_owned(node->count, 1);
    add_owned(node->time_ns, transmission_ns);
    add_owned(node->sync_delay_ns, sync_delay_ns);
    add_owned(node->bytes, bytes);
  }
  if (ComKeyedRecord* owned = record.owned) [[likely]] {
    add_owned(owned->count, 1);
    add_owned(owned->time_ns, transmission_ns);
    add_owned(owned->sync_delay_ns, sync_delay_ns);
    add_owned(owned->bytes, bytes);
    if (message) {
      owned->sizes.add_owned(bytes);
    }
  } else if (OverflowRecords::Entry* entry = record.shared) {
    entry->count.fetch_add(1, std::memory_order_relaxed);
    entry->time_ns.fetch_add(transmission_ns, std::memory_order_relaxed);
    entry->sync_delay_ns.fetch_add(sync_delay_ns, std::memory_order_relaxed);
    entry->bytes.fetch_add(bytes, std::memory_order_relaxed);
    if (message) {
      entry->sizes.add_shared(bytes);
    }
  }
}

} // namespace vcmon::runtime

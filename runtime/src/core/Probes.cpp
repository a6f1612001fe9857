// The probe ABI (vcmon/probes.h): checks the site id against the registry, then hands the
// probe to ProbeCore with this thread's state. Ids of unregistered or mismatched sites are
// ignored, so a stale or foreign id never corrupts records.
#include "vcmon/probes.h"
#include "core/Monitor.hpp"

#include <atomic>

namespace {

using vcmon::runtime::Monitor;
using vcmon::runtime::SiteEntry;
using vcmon::tables::SiteKind;

// Hands a probe of `site` to ProbeCore: probe(probes, thread, kind_index) when the monitor is
// enabled and `site` is a registered site of `Kind`. Inlined into each probe. `Reentrant`:
// the probe pushes, pops and creates nothing (a loop iteration), so a signal handler may run
// probes in its middle.
template <SiteKind Kind, bool Reentrant = false, typename Probe>
inline void on_site(unsigned site, Probe&& probe) {
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled()) [[unlikely]] {
    return;
  }
  const SiteEntry* entry = monitor.registry().find(site);
  if (entry == nullptr || entry->kind != Kind) {
    return;
  }
  auto& thread = monitor.this_thread();
  if constexpr (Reentrant) {
    probe(monitor.probes(), thread, entry->kind_index);
    return;
  }
  // Not reentrant: a handler that interrupts a probe (a timer signal's, say) ran on a frame
  // pushed but not filled in, and crashed. Its activation is left out, its enter and exit
  // alike, since both run before the interrupted probe goes on.
  if (thread.in_probe) [[unlikely]] {
    return;
  }
  thread.in_probe = true;
  std::atomic_signal_fence(std::memory_order_seq_cst); // set before the probe's first change
  probe(monitor.probes(), thread, entry->kind_index);
  std::atomic_signal_fence(std::memory_order_seq_cst); // cleared after its last
  thread.in_probe = false;
}

template <SiteKind Kind> void statement_enter(unsigned site) {
  on_site<Kind>(site, [&](auto& probes, auto& thread, unsigned) {
    probes.enter_statement(thread, site, Kind);
  });
}

template <SiteKind Kind> void statement_exit(unsigned site) {
  on_site<Kind>(site, [&](auto& probes, auto& thread, unsigned) {
    probes.exit_statement(thread, site, Kind);
  });
}

} // namespace

extern "C" {

void vcmon_register_unit(const vcmon_unit_desc* unit, unsigned* base) {
  Monitor& monitor = Monitor::instance();
  const unsigned assigned = unit != nullptr ? monitor.registry().register_unit(*unit)
                                            : vcmon::runtime::SiteRegistry::kRejectedBase;
  if (base != nullptr) {
    *base = assigned;
  }
}

void vcmon_proc_enter(unsigned site) {
  on_site<SiteKind::Procedure>(site, [&](auto& probes, auto& thread, unsigned index) {
    probes.enter_procedure(thread, site, index);
  });
}

void vcmon_proc_exit(unsigned site) {
  on_site<SiteKind::Procedure>(
      site, [&](auto& probes, auto& thread, unsigned) { probes.exit_procedure(thread, site); });
}

void vcmon_loop_enter(unsigned site) {
  on_site<SiteKind::Loop>(site, [&](auto& probes, auto& thread, unsigned index) {
    probes.enter_loop(thread, site, index);
  });
}

void vcmon_loop_iter(unsigned site) {
  on_site<SiteKind::Loop, true>(site, [&](auto& probes, auto& thread, unsigned index) {
    probes.iterate_loop(thread, site, index);
  });
}

void vcmon_loop_exit(unsigned site) {
  on_site<SiteKind::Loop>(
      site, [&](auto& probes, auto& thread, unsigned) { probes.exit_loop(thread, site); });
}

void vcmon_loop_exit_after(unsigned site, unsigned long iterations) {
  on_site<SiteKind::Loop>(site, [&](auto& probes, auto& thread, unsigned index) {
    probes.exit_loop_after(thread, site, index, iterations);
  });
}

void vcmon_loop_add(unsigned site, unsigned long executions, unsigned long iterations) {
  on_site<SiteKind::Loop>(site, [&](auto& probes, auto& thread, unsigned index) {
    probes.add_counted_loop(thread, site, index, executions, iterations);
  });
}

void vcmon_call_enter(unsigned site) {
  statement_enter<SiteKind::Call>(site);
}
void vcmon_call_exit(unsigned site) {
  statement_exit<SiteKind::Call>(site);
}
void vcmon_comm_enter(unsigned site) {
  statement_enter<SiteKind::Comm>(site);
}
void vcmon_comm_exit(unsigned site) {
  statement_exit<SiteKind::Comm>(site);
}

vcmon_scope vcmon_proc_scope(unsigned site) {
  vcmon_proc_enter(site);
  return {VCMON_SITE_PROCEDURE, site};
}

vcmon_scope vcmon_loop_scope(unsigned site) {
  vcmon_loop_enter(site);
  return {VCMON_SITE_LOOP, site};
}

vcmon_scope vcmon_call_scope(unsigned site) {
  vcmon_call_enter(site);
  return {VCMON_SITE_CALL, site};
}

vcmon_scope vcmon_comm_scope(unsigned site) {
  vcmon_comm_enter(site);
  return {VCMON_SITE_COMM, site};
}

void vcmon_scope_end(vcmon_scope* scope) {
  switch (scope->kind) {
  case VCMON_SITE_PROCEDURE:
    vcmon_proc_exit(scope->site);
    break;
  case VCMON_SITE_LOOP:
    vcmon_loop_exit(scope->site);
    break;
  case VCMON_SITE_CALL:
    vcmon_call_exit(scope->site);
    break;
  case VCMON_SITE_COMM:
    vcmon_comm_exit(scope->site);
    break;
  default:
    break;
  }
}

} // extern "C"

// The probe ABI (vcmon/probes.h): checks the site id against the registry, then hands the
// probe to ProbeCore with this thread's state. Ids of unregistered or mismatched sites are
// ignored, so a stale or foreign id never corrupts records.
#include "vcmon/probes.h"
#include "core/Monitor.hpp"

namespace {

using vcmon::runtime::Monitor;
using vcmon::runtime::SiteEntry;
using vcmon::tables::SiteKind;

// The monitor when enabled and `site` is a registered site of `kind`.
inline Monitor* monitor_for(unsigned site, SiteKind kind, const SiteEntry*& entry) {
  Monitor& monitor = Monitor::instance();
  if (!monitor.enabled()) [[unlikely]] {
    return nullptr;
  }
  entry = monitor.registry().find(site);
  return entry != nullptr && entry->kind == kind ? &monitor : nullptr;
}

template <SiteKind Kind> void statement_enter(unsigned site) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, Kind, entry)) {
    monitor->probes().enter_statement(monitor->this_thread(), site, Kind);
  }
}

template <SiteKind Kind> void statement_exit(unsigned site) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, Kind, entry)) {
    monitor->probes().exit_statement(monitor->this_thread(), site, Kind);
  }
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
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, SiteKind::Procedure, entry)) {
    monitor->probes().enter_procedure(monitor->this_thread(), site, entry->kind_index);
  }
}

void vcmon_proc_exit(unsigned site) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, SiteKind::Procedure, entry)) {
    monitor->probes().exit_procedure(monitor->this_thread(), site);
  }
}

void vcmon_loop_enter(unsigned site) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, SiteKind::Loop, entry)) {
    monitor->probes().enter_loop(monitor->this_thread(), site, entry->kind_index);
  }
}

void vcmon_loop_iter(unsigned site) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, SiteKind::Loop, entry)) {
    monitor->probes().iterate_loop(monitor->this_thread(), site, entry->kind_index);
  }
}

void vcmon_loop_exit(unsigned site) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, SiteKind::Loop, entry)) {
    monitor->probes().exit_loop(monitor->this_thread(), site);
  }
}

void vcmon_loop_exit_after(unsigned site, unsigned long iterations) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, SiteKind::Loop, entry)) {
    monitor->probes().exit_loop_after(monitor->this_thread(), site, entry->kind_index, iterations);
  }
}

void vcmon_loop_add(unsigned site, unsigned long executions, unsigned long iterations) {
  const SiteEntry* entry = nullptr;
  if (Monitor* monitor = monitor_for(site, SiteKind::Loop, entry)) {
    monitor->probes().add_counted_loop(monitor->this_thread(), site, entry->kind_index, executions,
                                       iterations);
  }
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

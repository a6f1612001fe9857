/* The probe ABI (vcmon/probes.h) as no-ops, for the plain builds of the conformance programs
 * that register instrumentation sites by hand: the same source runs without libvcmon. */
#include "vcmon/probes.h"

void vcmon_register_unit(const vcmon_unit_desc* unit, unsigned* base) {
  (void)unit;
  *base = 0;
}
void vcmon_proc_enter(unsigned site) { (void)site; }
void vcmon_proc_exit(unsigned site) { (void)site; }
void vcmon_loop_enter(unsigned site) { (void)site; }
void vcmon_loop_iter(unsigned site) { (void)site; }
void vcmon_loop_exit(unsigned site) { (void)site; }
void vcmon_call_enter(unsigned site) { (void)site; }
void vcmon_call_exit(unsigned site) { (void)site; }
void vcmon_comm_enter(unsigned site) { (void)site; }
void vcmon_comm_exit(unsigned site) { (void)site; }
vcmon_scope vcmon_proc_scope(unsigned site) { return (vcmon_scope){VCMON_SITE_PROCEDURE, site}; }
vcmon_scope vcmon_loop_scope(unsigned site) { return (vcmon_scope){VCMON_SITE_LOOP, site}; }
vcmon_scope vcmon_call_scope(unsigned site) { return (vcmon_scope){VCMON_SITE_CALL, site}; }
vcmon_scope vcmon_comm_scope(unsigned site) { return (vcmon_scope){VCMON_SITE_COMM, site}; }
void vcmon_scope_end(vcmon_scope* scope) { (void)scope; }

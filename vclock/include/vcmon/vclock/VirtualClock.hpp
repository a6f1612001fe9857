// A process's virtual clock (docs/runtime.md, "Virtual time"): VT = RT − I, where I is the
// monitor's intrusion.
//
// With thread lanes (start_thread_lanes(): a program whose threads call MPI at once), each
// thread has its own I: what was charged before the lanes began, plus what that thread itself
// was charged since (its probes, its layer work, its resumptions). Summed into one I, N threads
// inside the monitor at once would charge N times the real time that passed, and VT would stand
// still: a thread polling for a wildcard message would never see its virtual arrival.
//
// Other processes decide on the virtual times this one shows them (the send time of every
// stamp, the clock of every state reply, every null-message bound): a wildcard receiver takes
// a message once no sender can still send earlier. So whatever moves this clock back (work a
// helper thread charges while the program runs, concurrent charges of several threads, a
// continue_from that removes waiting) must never let a later send look earlier than what was
// shown: the clock keeps a *floor*, the latest time shown or resumed from, and what it shows
// is never below it.
#pragma once

#include "vcmon/vclock/ClockSource.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace vcmon::vclock {

struct ThreadLane; // a thread's own intrusion (VirtualClock.cpp)
struct LaneSlot;   // where a lane's intrusion is seen from other threads (VirtualClock.cpp)

class VirtualClock {
public:
  explicit VirtualClock(const ClockSource& source);
  ~VirtualClock();
  VirtualClock(const VirtualClock&) = delete;
  VirtualClock& operator=(const VirtualClock&) = delete;

  std::uint64_t real_ns() const;      // RT since the clock was started
  std::uint64_t intrusion_ns() const; // I
  std::uint64_t virtual_ns() const;   // RT − I

  // RT and VT at the instant the source read `now_ns` (ClockSource::now_ns()), so a probe
  // that has read the clock once derives both without reading it again.
  std::uint64_t real_at(std::uint64_t now_ns) const {
    // Modular difference: the origin may have been shifted before the source's origin.
    const auto rt = static_cast<std::int64_t>(now_ns - origin_ns_.load(std::memory_order_relaxed));
    return rt > 0 ? static_cast<std::uint64_t>(rt) : 0;
  }
  std::uint64_t virtual_at(std::uint64_t now_ns) const {
    if (thread_lanes_.load(std::memory_order_acquire)) [[unlikely]] {
      return lane_virtual_at(now_ns);
    }
    const std::uint64_t rt = real_at(now_ns);
    const std::uint64_t i = process_intrusion_ns();
    const std::uint64_t vt = rt > i ? rt - i : 0;
    return std::max(vt, std::min(held_vt_.load(std::memory_order_relaxed), rt));
  }

  // Adds monitoring cost to I. Thread-safe (several threads of one process may probe).
  void charge(std::uint64_t ns) {
    if (thread_lanes_.load(std::memory_order_acquire)) [[unlikely]] {
      charge_lane(ns);
      return;
    }
    intrusion_ns_.fetch_add(ns, std::memory_order_relaxed);
  }
  // The same for work of the thread that calls show() and continue_from() (the MPI layer's):
  // kept apart, so that while one thread at a time does (set_concurrent_writers(false)) it is
  // a plain load and store. A locked add right after MPI wrote a message into shared memory
  // waits for that store to leave the core: about 20 ns, twice per message.
  void charge_caller(std::uint64_t ns) {
    if (thread_lanes_.load(std::memory_order_acquire)) [[unlikely]] {
      charge_lane(ns);
    } else if (concurrent_writers_) {
      caller_intrusion_ns_.fetch_add(ns, std::memory_order_relaxed);
    } else {
      caller_intrusion_ns_.store(caller_intrusion_ns_.load(std::memory_order_relaxed) + ns,
                                 std::memory_order_relaxed);
    }
  }
  // Adds the cost of monitoring work done beside the program (by a helper thread, while the
  // program ran on). It is paid as time passes: VT is held at what it reads now (hold()) until
  // `ns` more of RT have passed. With thread lanes it is the helper's own, as every thread's
  // work is.
  void charge_beside(std::uint64_t ns);
  // From now on VT reads at least `vt` (never beyond RT), until continue_from() re-derives I:
  // a time the program was seen at (a probe's reading) stays behind every later reading,
  // whatever the clock is charged meanwhile (a probe's constant above its real cost, work beside
  // the program). Otherwise a statement the layer times could start before the probe that
  // preceded it, or end after its procedure. Thread-safe.
  void hold(std::uint64_t vt) {
    if (thread_lanes_.load(std::memory_order_acquire)) [[unlikely]] {
      hold_lane(vt);
      return;
    }
    raise_to(held_vt_, vt);
  }
  // Continues the clock from virtual time `vt` (e.g. after a receive): I becomes RT − vt,
  // so that real waiting caused by other processes' intrusion is not counted as the
  // program's. VT may move backwards (the waiting becomes intrusion), but not below the
  // floor, and never ahead of RT: a `vt` beyond RT is clamped to RT (I = 0). The time
  // continued from becomes the floor: a decider may have relied on it.
  void continue_from(std::uint64_t vt);
  // The same at the instant the source read `now_ns`: a caller that has just read the clock
  // saves a read (each costs several ns, and a message pays for every one).
  void continue_from(std::uint64_t vt, std::uint64_t now_ns);

  // Shows `vt` to other processes: returns what to show, the later of `vt` and just after the
  // floor, and raises the floor to it. Strictly after: two sends never show the same time,
  // and whatever follows a resumption is later than it, so a decider's tie with this
  // process never stands (the rule breaks ties by rank: docs/deadlock.md, "The rule"; a process
  // blocked on the same message as the decider would otherwise block it forever). Thread-safe.
  std::uint64_t show(std::uint64_t vt);
  // The same from a thread beside the one that moves the clock, which may then update the
  // floor with plain stores (set_concurrent_writers(false)) and so lose a raise made here: kept
  // apart, and taken into the floor by every later show() and continue_from(). Thread-safe.
  std::uint64_t show_beside(std::uint64_t vt);
  // The earliest VT a thread of the process that moves the clock reads at `now_ns`: what a
  // thread beside the program (RunningAnswerer) may show for all of them without raising any.
  // Without lanes the process's VT; with lanes the least over the lanes of the threads that
  // were charged (a helper's charges beside do not count), never behind the floor. nullopt for
  // good once a lane found no slot to be seen in (more than kLaneSlots such threads at once:
  // that lane may live on unseen). A lane made
  // by reading alone counts from its first charge: what it shows before is bounded by the
  // floor, as every time shown is. Thread-safe, O(kLaneSlots).
  std::optional<std::uint64_t> earliest_virtual_at(std::uint64_t now_ns) const;
  // The calling thread ends: its lane no longer counts in earliest_virtual_at().
  void end_thread_lane();
  static constexpr std::size_t kLaneSlots = 256;

  std::uint64_t floor_ns() const {
    return std::max(floor_ns_.load(std::memory_order_relaxed),
                    shown_beside_ns_.load(std::memory_order_relaxed));
  }

  // Whether several threads may call show(), continue_from() and charge_caller() at once (the
  // default). When only one thread at a time does (an MPI program without
  // MPI_THREAD_MULTIPLE: only threads inside MPI calls do), the floor and the caller's
  // intrusion are updated with a plain load and store instead of a locked instruction, which
  // every message would pay for.
  void set_concurrent_writers(bool concurrent) { concurrent_writers_ = concurrent; }

  // Gives each thread its own intrusion from now on (see the top of this file). The calling
  // thread goes on where it was; another thread's lane starts from the intrusion the calling
  // thread has then, as a thread it creates would. Threads then charge, hold and resume each
  // on its own lane; the floor stays one for all. Call it after the last advance(), which then
  // moves only the calling thread's lane.
  void start_thread_lanes();

  // Moves the origin so that every later RT (and VT) reads `delta_ns` more: used to put
  // ranks into one time base once their offsets are known, and for the testing offset.
  void advance(std::int64_t delta_ns);

  const ClockSource& source() const { return source_; }

private:
  // Read by every probe, written about never: a cache line apart from the counters that
  // threads write, so that reading them does not wait for another thread's write.
  const ClockSource& source_;
  std::atomic<std::uint64_t> origin_ns_;
  bool concurrent_writers_ = true;
  std::atomic<bool> thread_lanes_{false};
  const std::uint64_t id_;          // which clock a thread's lane belongs to
  std::uint64_t lanes_base_ns_ = 0; // I when the lanes began

  alignas(64) std::atomic<std::uint64_t> intrusion_ns_{0}; // charge(), charge_beside()
  std::atomic<std::uint64_t> caller_intrusion_ns_{0};      // charge_caller()
  std::atomic<std::uint64_t> floor_ns_{0};
  std::atomic<std::uint64_t> shown_beside_ns_{0}; // show_beside(); rarely written
  std::atomic<std::uint64_t> held_vt_{0};         // VT reads at least this (hold()), RT permitting
  std::atomic<std::int64_t> first_lane_ns_{0}; // the lanes' starter's own intrusion, for new lanes
  // With lanes, one per charged thread, each written by its own thread only (a cache line each).
  std::unique_ptr<LaneSlot[]> lane_slots_;
  std::atomic<bool> unseen_lane_{false}; // a lane found no free slot

  // I without lanes: what charge() and charge_caller() added since the last continue_from().
  std::uint64_t process_intrusion_ns() const {
    return intrusion_ns_.load(std::memory_order_relaxed) +
           caller_intrusion_ns_.load(std::memory_order_relaxed);
  }
  ThreadLane& lane() const;
  std::uint64_t lane_virtual_at(std::uint64_t now_ns) const;
  // VT at `now_ns` of a lane whose own intrusion is `own_ns`, at least `reached` (RT permitting).
  std::uint64_t lane_virtual_at(std::uint64_t now_ns, std::int64_t own_ns,
                                std::uint64_t reached) const;
  // Sets the calling thread's own intrusion (and, for the lanes' starter, what new lanes start
  // from). `seen`: the lane takes a slot, if it has none, for earliest_virtual_at().
  void set_lane_own(ThreadLane& lane, std::int64_t own_ns, bool seen = true);
  LaneSlot* claim_lane_slot();
  void charge_lane(std::uint64_t ns, bool seen = true);
  void hold_lane(std::uint64_t vt);

  // Raises `slot` to `value` if that is higher, from any thread; returns the slot after.
  static std::uint64_t raise_to(std::atomic<std::uint64_t>& slot, std::uint64_t value) {
    std::uint64_t seen = slot.load(std::memory_order_relaxed);
    while (value > seen && !slot.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
    return std::max(value, seen);
  }
  // Raises the floor to `raised(floor)` unless that is not higher; returns the floor after.
  // The floor it starts from includes what was shown beside.
  template <typename Raise> std::uint64_t raise_floor(Raise&& raised);
};

// Measures the monitor's own work from construction to destruction (or finish()) and charges
// it, plus a calibrated constant for what cannot be measured from inside (reading the clock
// itself).
class IntrusionScope {
public:
  // Who charges: any thread (charge()), or the thread that moves the clock (charge_caller()).
  enum class ChargedBy { AnyThread, Caller };

  IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns);
  // Starting at a reading the caller has just taken (ClockSource::now_ns()).
  IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns, std::uint64_t start_ns,
                 ChargedBy charged_by = ChargedBy::AnyThread);
  ~IntrusionScope();
  IntrusionScope(const IntrusionScope&) = delete;
  IntrusionScope& operator=(const IntrusionScope&) = delete;

  // Ends the scope now and returns the reading that ended it, for the caller to go on from.
  // `charge`: false when the caller is about to re-derive the intrusion anyway
  // (VirtualClock::continue_from), which makes a charge pointless.
  std::uint64_t finish(bool charge = true);

  VirtualClock& clock() const { return clock_; }

private:
  VirtualClock& clock_;
  std::uint64_t constant_ns_;
  std::uint64_t start_ns_;
  ChargedBy charged_by_ = ChargedBy::AnyThread;
  bool finished_ = false;
};

} // namespace vcmon::vclock

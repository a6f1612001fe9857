#include "vcmon/vclock/VirtualClock.hpp"

#include <algorithm>

namespace vcmon::vclock {

// A thread's intrusion on one clock: since the lanes began, relative to what was charged
// before (signed: a resumption may remove more than the thread was charged).
struct ThreadLane {
  std::uint64_t clock_id = 0; // 0: no clock's yet
  std::int64_t own_ns = 0;
  std::uint64_t held_vt = 0;
  bool starter = false;     // the thread that started the lanes: new lanes start from its own_ns
  LaneSlot* slot = nullptr; // where other threads see own_ns, once the lane was charged
};

// A lane's own_ns as other threads see it: the least VT of the process is the largest own.
struct alignas(64) LaneSlot {
  std::atomic<std::int64_t> own_ns{0};
  std::atomic<bool> used{false};
};

namespace {

std::atomic<std::uint64_t> next_clock_id{1};

thread_local ThreadLane this_thread_lane;

} // namespace

VirtualClock::VirtualClock(const ClockSource& source)
    : source_(source), origin_ns_(source.now_ns()),
      id_(next_clock_id.fetch_add(1, std::memory_order_relaxed)) {}

VirtualClock::~VirtualClock() = default;

ThreadLane& VirtualClock::lane() const {
  ThreadLane& lane = this_thread_lane;
  if (lane.clock_id != id_) {
    lane = {id_, first_lane_ns_.load(std::memory_order_relaxed), 0, false};
  }
  return lane;
}

void VirtualClock::start_thread_lanes() {
  lanes_base_ns_ = process_intrusion_ns();
  first_lane_ns_.store(0, std::memory_order_relaxed);
  lane_slots_ = std::make_unique<LaneSlot[]>(kLaneSlots);
  this_thread_lane = {id_, 0, held_vt_.load(std::memory_order_relaxed), true, claim_lane_slot()};
  thread_lanes_.store(true, std::memory_order_release);
}

LaneSlot* VirtualClock::claim_lane_slot() {
  for (std::size_t i = 0; i < kLaneSlots; ++i) {
    LaneSlot& slot = lane_slots_[i];
    bool free = false;
    if (!slot.used.load(std::memory_order_relaxed) &&
        slot.used.compare_exchange_strong(free, true, std::memory_order_acq_rel)) {
      return &slot;
    }
  }
  unseen_lane_.store(true, std::memory_order_relaxed);
  return nullptr;
}

void VirtualClock::end_thread_lane() {
  ThreadLane& lane = this_thread_lane;
  if (lane.clock_id == id_ && lane.slot != nullptr) {
    lane.slot->used.store(false, std::memory_order_release);
    lane.slot = nullptr;
  }
}

std::optional<std::uint64_t> VirtualClock::earliest_virtual_at(std::uint64_t now_ns) const {
  if (!thread_lanes_.load(std::memory_order_acquire)) {
    return virtual_at(now_ns);
  }
  if (unseen_lane_.load(std::memory_order_relaxed)) {
    return std::nullopt;
  }
  std::int64_t most_own = first_lane_ns_.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < kLaneSlots; ++i) {
    const LaneSlot& slot = lane_slots_[i];
    if (slot.used.load(std::memory_order_acquire)) {
      most_own = std::max(most_own, slot.own_ns.load(std::memory_order_relaxed));
    }
  }
  return lane_virtual_at(now_ns, most_own, floor_ns());
}

std::uint64_t VirtualClock::lane_virtual_at(std::uint64_t now_ns, std::int64_t own_ns,
                                            std::uint64_t reached) const {
  const auto rt = static_cast<std::int64_t>(real_at(now_ns));
  const std::int64_t vt = rt - static_cast<std::int64_t>(lanes_base_ns_) - own_ns;
  const auto clamped = static_cast<std::uint64_t>(std::clamp<std::int64_t>(vt, 0, rt));
  return std::max(clamped, std::min(reached, static_cast<std::uint64_t>(rt)));
}

std::uint64_t VirtualClock::lane_virtual_at(std::uint64_t now_ns) const {
  const ThreadLane& lane = this->lane();
  // Never behind the floor: the threads share one real timeline, and a time one of them has
  // resumed from or shown, every other has reached too (a thread whose own work kept its lane
  // behind would otherwise poll for a message another thread already saw arrive).
  return lane_virtual_at(now_ns, lane.own_ns, std::max(lane.held_vt, floor_ns()));
}

void VirtualClock::set_lane_own(ThreadLane& lane, std::int64_t own_ns, bool seen) {
  lane.own_ns = own_ns;
  if (lane.starter) {
    first_lane_ns_.store(own_ns, std::memory_order_relaxed);
  }
  // Once a lane went unseen the earliest reading is given up for good: no scan for a slot.
  if (lane.slot == nullptr && seen && !unseen_lane_.load(std::memory_order_relaxed)) {
    lane.slot = claim_lane_slot();
  }
  if (lane.slot != nullptr) {
    lane.slot->own_ns.store(own_ns, std::memory_order_relaxed);
  }
}

void VirtualClock::charge_lane(std::uint64_t ns, bool seen) {
  ThreadLane& lane = this->lane();
  set_lane_own(lane, lane.own_ns + static_cast<std::int64_t>(ns), seen);
}

void VirtualClock::hold_lane(std::uint64_t vt) {
  ThreadLane& lane = this->lane();
  lane.held_vt = std::max(lane.held_vt, vt);
}

std::uint64_t VirtualClock::real_ns() const {
  return real_at(source_.now_ns());
}

std::uint64_t VirtualClock::intrusion_ns() const {
  if (thread_lanes_.load(std::memory_order_acquire)) {
    const std::int64_t i = static_cast<std::int64_t>(lanes_base_ns_) + lane().own_ns;
    return i > 0 ? static_cast<std::uint64_t>(i) : 0;
  }
  return process_intrusion_ns();
}

std::uint64_t VirtualClock::virtual_ns() const {
  return virtual_at(source_.now_ns());
}

void VirtualClock::charge_beside(std::uint64_t ns) {
  if (thread_lanes_.load(std::memory_order_acquire)) {
    charge_lane(ns, false); // a helper's own: no program thread reads behind it
    return;
  }
  hold(virtual_ns());
  intrusion_ns_.fetch_add(ns, std::memory_order_relaxed);
}

void VirtualClock::advance(std::int64_t delta_ns) {
  origin_ns_.fetch_sub(static_cast<std::uint64_t>(delta_ns), std::memory_order_relaxed);
  const auto shifted = [delta_ns](std::uint64_t held) -> std::uint64_t {
    const auto moved = static_cast<std::int64_t>(held) + delta_ns;
    return held > 0 && moved > 0 ? static_cast<std::uint64_t>(moved) : 0;
  };
  held_vt_.store(shifted(held_vt_.load(std::memory_order_relaxed)), std::memory_order_relaxed);
  if (thread_lanes_.load(std::memory_order_acquire)) {
    ThreadLane& lane = this->lane();
    lane.held_vt = shifted(lane.held_vt);
  }
}

void VirtualClock::continue_from(std::uint64_t vt) {
  continue_from(vt, source_.now_ns());
}

template <typename Raise> std::uint64_t VirtualClock::raise_floor(Raise&& raised) {
  // Read first: a thread beside may show a time at any moment, and what it showed before this
  // load must bound what this raise shows (RunningAnswerer orders the two with a barrier).
  const std::uint64_t beside = shown_beside_ns_.load(std::memory_order_relaxed);
  std::uint64_t floor = floor_ns_.load(std::memory_order_relaxed);
  if (!concurrent_writers_) {
    const std::uint64_t known = std::max(floor, beside);
    const std::uint64_t target = raised(known);
    if (target > floor) {
      floor_ns_.store(target, std::memory_order_relaxed);
    }
    return std::max(target, known);
  }
  for (;;) {
    const std::uint64_t known = std::max(floor, beside);
    const std::uint64_t target = raised(known);
    if (target <= floor ||
        floor_ns_.compare_exchange_weak(floor, target, std::memory_order_relaxed)) {
      return std::max(target, known);
    }
  }
}

void VirtualClock::continue_from(std::uint64_t vt, std::uint64_t now_ns) {
  const std::uint64_t rt = real_at(now_ns);
  // Resumes at vt, never below the floor, never ahead of RT.
  const std::uint64_t floor =
      raise_floor([&](std::uint64_t known) { return std::min(std::max(vt, known), rt); });
  if (thread_lanes_.load(std::memory_order_acquire)) {
    ThreadLane& lane = this->lane();
    set_lane_own(lane, static_cast<std::int64_t>(rt - std::min(floor, rt)) -
                           static_cast<std::int64_t>(lanes_base_ns_));
    lane.held_vt = 0;
    return;
  }
  caller_intrusion_ns_.store(0, std::memory_order_relaxed);
  intrusion_ns_.store(rt - std::min(floor, rt), std::memory_order_relaxed);
  held_vt_.store(0, std::memory_order_relaxed);
}

std::uint64_t VirtualClock::show(std::uint64_t vt) {
  return raise_floor([&](std::uint64_t known) { return std::max(vt, known + 1); });
}

std::uint64_t VirtualClock::show_beside(std::uint64_t vt) {
  return raise_to(shown_beside_ns_, std::max(vt, floor_ns() + 1));
}

IntrusionScope::IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns)
    : clock_(clock), constant_ns_(constant_ns), start_ns_(clock.source().now_ns()) {}

IntrusionScope::IntrusionScope(VirtualClock& clock, std::uint64_t constant_ns,
                               std::uint64_t start_ns, ChargedBy charged_by)
    : clock_(clock), constant_ns_(constant_ns), start_ns_(start_ns), charged_by_(charged_by) {}

IntrusionScope::~IntrusionScope() {
  if (!finished_) {
    finish();
  }
}

std::uint64_t IntrusionScope::finish(bool charge) {
  const std::uint64_t end_ns = clock_.source().now_ns();
  finished_ = true;
  if (charge) {
    const std::uint64_t ns = (end_ns > start_ns_ ? end_ns - start_ns_ : 0) + constant_ns_;
    if (charged_by_ == ChargedBy::Caller) {
      clock_.charge_caller(ns);
    } else {
      clock_.charge(ns);
    }
  }
  return end_ns;
}

} // namespace vcmon::vclock

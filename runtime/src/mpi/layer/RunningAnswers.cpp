#include "mpi/layer/RunningAnswers.hpp"

#include <algorithm>
#include <climits>
#include <linux/futex.h>
#include <new>
#include <sys/syscall.h>
#include <unistd.h>

namespace vcmon::runtime::mpi {
namespace {

// Not FUTEX_PRIVATE_FLAG: the word is shared with the other processes of the node.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t seen) {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, seen, nullptr, nullptr,
            0);
}

void futex_wake(std::atomic<std::uint32_t>& word) {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr,
            nullptr, 0);
}

static_assert(std::atomic<std::uint32_t>::is_always_lock_free &&
                  sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t),
              "the bell is a futex word");

} // namespace

void RunningAnswers::construct(char* region, std::size_t ranks) {
  new (region) AnswerBell;
  for (std::size_t i = 0; i < ranks; ++i) {
    new (region + sizeof(AnswerBell) + i * sizeof(AnswerLine)) AnswerLine;
  }
}

void RunningAnswers::attach(std::vector<int> node, std::vector<char*> regions, std::size_t self) {
  node_ = std::move(node);
  regions_ = std::move(regions);
  self_ = self;
}

void RunningAnswers::detach() {
  node_.clear();
  regions_.clear();
  self_ = 0;
}

std::optional<std::size_t> RunningAnswers::local_of(int rank) {
  const auto found = std::lower_bound(node_.begin(), node_.end(), rank);
  if (found == node_.end() || *found != rank || regions_.empty()) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(found - node_.begin());
}

bool RunningAnswers::ask(int rank) {
  const std::optional<std::size_t> local = local_of(rank);
  if (!local || *local == self_) {
    return false;
  }
  AnswerLine& line = line_in(*local, self_);
  line.asked.store(line.asked.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  AnswerBell& bell = bell_of(*local);
  bell.rung.fetch_add(1, std::memory_order_release);
  futex_wake(bell.rung);
  return true;
}

std::optional<RunningAnswer> RunningAnswers::answer_of(int rank) {
  const std::optional<std::size_t> local = local_of(rank);
  if (!local || *local == self_) {
    return std::nullopt;
  }
  const AnswerLine& line = line_in(*local, self_);
  const std::uint64_t asked = line.asked.load(std::memory_order_relaxed);
  // A seqlock: the answer is taken only if no write was under way while it was read.
  const std::uint64_t before = line.version.load(std::memory_order_acquire);
  if (before % 2 != 0) {
    return std::nullopt;
  }
  const std::uint64_t answered = line.answered.load(std::memory_order_relaxed);
  const RunningAnswer answer{line.clock_ns.load(std::memory_order_relaxed),
                             line.stamps_sent.load(std::memory_order_relaxed)};
  std::atomic_thread_fence(std::memory_order_acquire);
  if (line.version.load(std::memory_order_relaxed) != before || asked == 0 || answered < asked) {
    return std::nullopt;
  }
  return answer;
}

std::uint32_t RunningAnswers::bell() {
  return regions_.empty() ? 0 : bell_of(self_).rung.load(std::memory_order_acquire);
}

void RunningAnswers::wait_for_ring(std::uint32_t seen) {
  if (!regions_.empty()) {
    futex_wait(bell_of(self_).rung, seen);
  }
}

void RunningAnswers::wake_own() {
  if (!regions_.empty()) {
    AnswerBell& bell = bell_of(self_);
    bell.rung.fetch_add(1, std::memory_order_release);
    futex_wake(bell.rung);
  }
}

bool RunningAnswers::asked() {
  for (std::size_t i = 0; i < node_.size(); ++i) {
    const AnswerLine& line = own_line(i);
    if (i != self_ && line.asked.load(std::memory_order_acquire) !=
                          line.answered.load(std::memory_order_relaxed)) {
      return true;
    }
  }
  return false;
}

void RunningAnswers::publish(AnswerLine& line, std::uint64_t asked, std::uint64_t clock_ns,
                             std::uint64_t stamps_sent) {
  const std::uint64_t version = line.version.load(std::memory_order_relaxed);
  line.version.store(version + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  line.clock_ns.store(clock_ns, std::memory_order_relaxed);
  line.stamps_sent.store(stamps_sent, std::memory_order_relaxed);
  line.answered.store(asked, std::memory_order_relaxed);
  line.version.store(version + 2, std::memory_order_release);
}

} // namespace vcmon::runtime::mpi

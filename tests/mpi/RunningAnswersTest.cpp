// RunningAnswers between two real processes: the regions in memory shared across fork(), the
// bell a futex one process sleeps on and the other rings. No MPI.
#include "mpi/layer/RunningAnswers.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <optional>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using vcmon::runtime::mpi::RunningAnswer;
using vcmon::runtime::mpi::RunningAnswers;

namespace {

constexpr int kNode[] = {3, 7}; // world ranks of the node's two processes

class RunningAnswersTest : public ::testing::Test {
protected:
  void SetUp() override {
    const std::size_t bytes = RunningAnswers::region_bytes(2);
    memory_ = static_cast<char*>(
        ::mmap(nullptr, 2 * bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(memory_, MAP_FAILED);
    regions_ = {memory_, memory_ + bytes};
    RunningAnswers::construct(regions_[0], 2);
    RunningAnswers::construct(regions_[1], 2);
  }
  void TearDown() override {
    if (child_ > 0) { // a failed assertion left it waiting
      ::kill(child_, SIGKILL);
      ::waitpid(child_, nullptr, 0);
    }
    RunningAnswers::detach();
    ::munmap(memory_, 2 * RunningAnswers::region_bytes(2));
  }
  // This process as the node's process `self`.
  void become(std::size_t self) { RunningAnswers::attach({kNode[0], kNode[1]}, regions_, self); }

  // Polls `rank`'s answer for up to 10 s.
  static std::optional<RunningAnswer> await_answer(int rank) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (std::optional<RunningAnswer> answer = RunningAnswers::answer_of(rank)) {
        return answer;
      }
      std::this_thread::yield();
    }
    return std::nullopt;
  }

  pid_t child_ = -1;
  char* memory_ = nullptr;
  std::vector<char*> regions_;
};

// The child plays rank 7's answerer: it sleeps on its bell until asked `asks` times, and
// answers each ask with clock 5 000 * k and, for the asker (rank 3), 2 * k stamps.
void answer_in_child(int asks) {
  for (int k = 1; k <= asks;) {
    const std::uint32_t seen = RunningAnswers::bell();
    if (RunningAnswers::asked()) {
      RunningAnswers::answer_asks(5'000u * static_cast<unsigned>(k), [k](int rank) {
        return rank == kNode[0] ? 2u * static_cast<unsigned>(k) : 999u;
      });
      ++k;
      continue;
    }
    RunningAnswers::wait_for_ring(seen);
  }
}

TEST_F(RunningAnswersTest, AProcessAsleepOnItsBellAnswersAnAskFromAnotherProcess) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child > 0) {
    child_ = child;
  } else {
    become(1);
    answer_in_child(2);
    ::_exit(0);
  }
  become(0);
  EXPECT_FALSE(RunningAnswers::answer_of(kNode[1])); // never asked
  ASSERT_TRUE(RunningAnswers::ask(kNode[1]));
  std::optional<RunningAnswer> answer = await_answer(kNode[1]);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->clock_ns, 5'000u);
  EXPECT_EQ(answer->stamps_sent, 2u);
  // Asked again: the first answer is not one to the second ask.
  ASSERT_TRUE(RunningAnswers::ask(kNode[1]));
  answer = await_answer(kNode[1]);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->clock_ns, 10'000u);
  EXPECT_EQ(answer->stamps_sent, 4u);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  child_ = -1;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_F(RunningAnswersTest, NoneAskedWithoutARegionOrOfItselfOrOfAnotherNode) {
  EXPECT_FALSE(RunningAnswers::ask(kNode[1])); // not attached
  become(0);
  EXPECT_FALSE(RunningAnswers::ask(kNode[0])); // itself
  EXPECT_FALSE(RunningAnswers::ask(5));        // not of this node
  EXPECT_FALSE(RunningAnswers::answer_of(5));
  EXPECT_FALSE(RunningAnswers::asked());
}

TEST_F(RunningAnswersTest, AnAnswererThatCannotSayAnswersWithClockZero) {
  become(0);
  ASSERT_TRUE(RunningAnswers::ask(kNode[1]));
  become(1);
  EXPECT_TRUE(RunningAnswers::asked());
  EXPECT_EQ(RunningAnswers::answer_asks(0, [](int) { return 1u; }), 1u);
  EXPECT_FALSE(RunningAnswers::asked());
  become(0);
  const std::optional<RunningAnswer> answer = RunningAnswers::answer_of(kNode[1]);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->clock_ns, 0u);
  EXPECT_EQ(answer->stamps_sent, 0u);
}

} // namespace

// main() of the profile checkers (CheckerArguments.hpp).
#include "CheckerArguments.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

namespace vcmon::checkers {

namespace {

std::vector<std::string>& arguments() {
  static std::vector<std::string> kept;
  return kept;
}

// `convert` (std::stoi and the like) applied to the whole of argument `index`.
template <typename Convert>
auto converted(std::size_t index, const char* expected, Convert convert) {
  const std::string& text = checker_argument(index);
  std::size_t used = 0;
  try {
    const auto value = convert(text, &used);
    if (used == text.size()) {
      return value;
    }
  } catch (const std::logic_error&) {
  }
  throw std::invalid_argument("positional argument " + std::to_string(index) + " '" + text +
                              "' is not " + expected);
}

} // namespace

const std::vector<std::string>& checker_arguments() {
  return arguments();
}

std::size_t checker_argument_count() {
  return arguments().size();
}

const std::string& checker_argument(std::size_t index) {
  if (index >= arguments().size()) {
    throw std::out_of_range("the test expects at least " + std::to_string(index + 1) +
                            " positional arguments after the --gtest_* flags, the command line "
                            "has " +
                            std::to_string(arguments().size()));
  }
  return arguments()[index];
}

int checker_argument_int(std::size_t index) {
  return converted(index, "an integer",
                   [](const std::string& s, std::size_t* used) { return std::stoi(s, used); });
}

std::uint64_t checker_argument_u64(std::size_t index) {
  return converted(index, "a non-negative integer", [](const std::string& s, std::size_t* used) {
    if (s.empty() || s.front() == '-') {
      throw std::invalid_argument(s);
    }
    return static_cast<std::uint64_t>(std::stoull(s, used));
  });
}

double checker_argument_double(std::size_t index) {
  return converted(index, "a number",
                   [](const std::string& s, std::size_t* used) { return std::stod(s, used); });
}

} // namespace vcmon::checkers

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  vcmon::checkers::arguments().assign(argv + 1, argv + argc);
  const int status = RUN_ALL_TESTS();
  if (GTEST_FLAG_GET(list_tests)) {
    return status;
  }
  const int selected = ::testing::UnitTest::GetInstance()->test_to_run_count();
  if (selected != 1) {
    std::fprintf(stderr,
                 "FAILED: --gtest_filter='%s' selected %d tests; a checker runs exactly one "
                 "scenario, whose positional arguments follow (see --gtest_list_tests)\n",
                 GTEST_FLAG_GET(filter).c_str(), selected);
    return 1;
  }
  return status;
}

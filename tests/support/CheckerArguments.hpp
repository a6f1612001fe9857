// The inputs of a profile checker: a GoogleTest program run after an MPI test run, one TEST per
// scenario. Its ctest command line selects the scenario and passes the scenario's inputs
// (profile directories, expected values) as positional arguments:
//   profile_check --gtest_filter=RuntimeProfile.Records DIR
// CheckerArguments.cpp holds the checkers' main(): it hands the --gtest_* flags to GoogleTest,
// keeps the rest for checker_argument(), and fails unless the filter selected exactly one test
// (GoogleTest itself passes when a filter matches nothing, which would hide a misspelled
// scenario).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vcmon::checkers {

// The positional arguments, in order, without the program name and the GoogleTest flags.
const std::vector<std::string>& checker_arguments();

std::size_t checker_argument_count();

// Positional argument `index` (from 0). A missing argument throws std::out_of_range, which
// GoogleTest reports as a failure of the test that asked for it; so does an argument that is
// not wholly a number (std::invalid_argument) for the converting forms.
const std::string& checker_argument(std::size_t index);
int checker_argument_int(std::size_t index);
std::uint64_t checker_argument_u64(std::size_t index);
double checker_argument_double(std::size_t index);

} // namespace vcmon::checkers

# vcmon_add_checker(NAME SOURCES... [LIBS ...]): a profile checker, a GoogleTest program with
# the checkers' main() (CheckerArguments.hpp): its ctest command line selects one scenario with
# --gtest_filter=Suite.Scenario and passes the scenario's inputs as positional arguments.
function(vcmon_add_checker name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CheckerArguments.cpp)
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest vcmon_compile_options)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
endfunction()

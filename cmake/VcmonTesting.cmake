find_package(GTest REQUIRED)
include(GoogleTest)

# vcmon_add_gtest(NAME SOURCES... LIBS ...): a GoogleTest unit-test executable, one ctest
# entry per test case.
function(vcmon_add_gtest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main vcmon_compile_options)
  # The labels are set once ctest knows the tests: passed through gtest_discover_tests'
  # PROPERTIES, a list lost every label but the first (CMake 3.25), escaped or not.
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
  set(labels unit ${ARG_LABELS})
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake)
  file(WRITE ${labels_file} "foreach(test IN LISTS ${name}_TESTS)\n"
    "  set_tests_properties(\"\${test}\" PROPERTIES LABELS \"${labels}\")\n"
    "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
endfunction()

# vcmon_add_mpi_test(NAME RANKS N COMMAND cmd args... [TIMEOUT s] [ENV k=v...]): runs the
# command under `mpiexec -n N`. MPICH's hydra allows oversubscription by default; the
# machine has two cores, so tests keep N small.
function(vcmon_add_mpi_test name)
  cmake_parse_arguments(ARG "" "RANKS;TIMEOUT" "COMMAND;ENV;LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  add_test(NAME ${name}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ARG_RANKS} ${ARG_COMMAND})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "mpi;${ARG_LABELS}"
    ENVIRONMENT "${ARG_ENV}")
endfunction()

# Installs a CMake package so a user project can `find_package(vcmon)` and link vcmon::vcmon,
# and a pkg-config file.
include(CMakePackageConfigHelpers)
install(EXPORT vcmonTargets NAMESPACE vcmon:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vcmon)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/vcmonConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/vcmonConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vcmon)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/vcmonConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/vcmonConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/vcmonConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vcmon)

# pkg-config for Makefile users: `mpicc app.c $(pkg-config --cflags --libs vcmon)`.
file(RELATIVE_PATH VCMON_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_CURRENT_LIST_DIR}/vcmon.pc.in ${CMAKE_CURRENT_BINARY_DIR}/vcmon.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/vcmon.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

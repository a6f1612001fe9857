# Installs a CMake package so a user project can `find_package(vcmon)` and link vcmon::vcmon.
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

# Warnings and sanitizers for every vcmon target. Applied through an interface target so
# that installed headers do not carry them to users.
add_library(vcmon_compile_options INTERFACE)
target_compile_options(vcmon_compile_options INTERFACE
  $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra>)
if(VCMON_SANITIZE)
  target_compile_options(vcmon_compile_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(vcmon_compile_options INTERFACE -fsanitize=address,undefined)
endif()
if(VCMON_TSAN)
  target_compile_options(vcmon_compile_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(vcmon_compile_options INTERFACE -fsanitize=thread)
endif()

# vcmon_module(NAME [INTERNAL] [TYPE STATIC|SHARED] [OUTPUT_NAME n] [SOURCE_DIRS dir...]
#              PUBLIC_DEPS ... PRIVATE_DEPS ...) declares a module library from the *.cpp and *.c
# under <module>/src (or under SOURCE_DIRS, relative to the module) with its public headers under
# <module>/include. INTERNAL modules are linked into vcmon's own tools and libvcmon only, and are
# neither installed nor exported.
function(vcmon_module name)
  cmake_parse_arguments(ARG "INTERNAL" "TYPE;OUTPUT_NAME" "SOURCE_DIRS;PUBLIC_DEPS;PRIVATE_DEPS"
                        ${ARGN})
  if(NOT ARG_TYPE)
    set(ARG_TYPE STATIC)
  endif()
  if(NOT ARG_SOURCE_DIRS)
    set(ARG_SOURCE_DIRS src)
  endif()
  set(patterns "")
  foreach(dir IN LISTS ARG_SOURCE_DIRS)
    list(APPEND patterns ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.c)
  endforeach()
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${patterns})
  add_library(vcmon_${name} ${ARG_TYPE} ${sources})
  add_library(vcmon::${name} ALIAS vcmon_${name})
  target_include_directories(vcmon_${name}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(vcmon_${name} PUBLIC ${ARG_PUBLIC_DEPS}
    PRIVATE ${ARG_PRIVATE_DEPS} $<BUILD_INTERFACE:vcmon_compile_options>)
  # Installed as vcmon::<name>, the same name as the in-tree alias.
  set_target_properties(vcmon_${name} PROPERTIES EXPORT_NAME ${name})
  if(ARG_OUTPUT_NAME)
    set_target_properties(vcmon_${name} PROPERTIES OUTPUT_NAME ${ARG_OUTPUT_NAME})
  endif()
  if(ARG_INTERNAL)
    return()
  endif()
  install(TARGETS vcmon_${name} EXPORT vcmonTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()

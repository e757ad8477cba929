# SPDX-License-Identifier: MIT
# Helpers shared by every component: warnings, the library target, its install rules and
# pkg-config file, and the CMake package that `find_package(keel CONFIG COMPONENTS ...)` reads.

# Warnings for keel's own code (never applied to peers).
function(keel_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                           -Wcast-align -Wnull-dereference)
  if(KEEL_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# keel_add_component(<name> SOURCES ... [PUBLIC_LIBS ...] [PRIVATE_LIBS ...] [REQUIRES comp...]
#                    [PC_LIBS flags...])
# keel_add_component(<name> HEADER_ONLY REQUIRES comp...)
# Creates library keel_<name> (alias keel::<name>, exported as keel::<name>), public headers from
# include/keel/<name>/ and include/keel/<name>.h, an export set and keel-<name>.pc. A HEADER_ONLY
# component is an interface target: its headers and the components it requires, no library file.
function(keel_add_component name)
  cmake_parse_arguments(arg "HEADER_ONLY" "" "SOURCES;PUBLIC_LIBS;PRIVATE_LIBS;REQUIRES;PC_LIBS" ${ARGN})
  set(target keel_${name})
  if(arg_HEADER_ONLY)
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  else()
    add_library(${target} ${arg_SOURCES})
    set(scope PUBLIC)
    set_target_properties(${target} PROPERTIES OUTPUT_NAME keel_${name})
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(${target} PRIVATE ${arg_PRIVATE_LIBS})
    keel_warnings(${target})
  endif()
  add_library(keel::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_compile_features(${target} ${scope} cxx_std_20)
  target_include_directories(${target}
    ${scope} $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  foreach(req IN LISTS arg_REQUIRES)
    target_link_libraries(${target} ${scope} keel::${req})
  endforeach()
  target_link_libraries(${target} ${scope} ${arg_PUBLIC_LIBS})

  install(TARGETS ${target} EXPORT keel_${name}_targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/keel/${name} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/keel
          OPTIONAL)
  if(EXISTS ${PROJECT_SOURCE_DIR}/include/keel/${name}.h)
    install(FILES ${PROJECT_SOURCE_DIR}/include/keel/${name}.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/keel)
  endif()
  install(EXPORT keel_${name}_targets NAMESPACE keel:: FILE keel-${name}-targets.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/keel)

  set(KEEL_PC_NAME ${name})
  list(TRANSFORM arg_REQUIRES PREPEND "keel-" OUTPUT_VARIABLE pc_requires)
  list(JOIN pc_requires " " KEEL_PC_REQUIRES)
  set(KEEL_PC_LIBS_PRIVATE "${arg_PC_LIBS}")
  if(arg_HEADER_ONLY)
    set(KEEL_PC_LIBS "")
  else()
    set(KEEL_PC_LIBS "-L\${libdir} -lkeel_${name}")
  endif()
  set(pc_dir ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig)
  file(RELATIVE_PATH KEEL_PC_TO_PREFIX ${pc_dir} ${CMAKE_INSTALL_PREFIX})
  file(RELATIVE_PATH KEEL_PC_TO_LIBDIR ${pc_dir} ${CMAKE_INSTALL_FULL_LIBDIR})
  file(RELATIVE_PATH KEEL_PC_TO_INCLUDEDIR ${pc_dir} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
  foreach(v KEEL_PC_TO_PREFIX KEEL_PC_TO_LIBDIR KEEL_PC_TO_INCLUDEDIR)
    string(REGEX REPLACE "/$" "" ${v} "${${v}}")
  endforeach()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/keel.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/keel-${name}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/keel-${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

  set_property(GLOBAL APPEND PROPERTY KEEL_COMPONENT_LIST ${name})
  # One entry per component, "<name>:<required>:<required>..." (read by keelConfig.cmake).
  list(JOIN arg_REQUIRES ":" requires)
  set_property(GLOBAL APPEND PROPERTY KEEL_COMPONENT_DEPS "${name}:${requires}")
endfunction()

# The package configuration: one file that loads the requested components' export sets.
function(keel_install_package)
  include(CMakePackageConfigHelpers)
  get_property(component_deps GLOBAL PROPERTY KEEL_COMPONENT_DEPS)
  get_property(KEEL_INSTALLED_COMPONENTS GLOBAL PROPERTY KEEL_COMPONENT_LIST)
  set(KEEL_COMPONENT_DEPS "${component_deps}")
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/keelConfig.cmake.in
    ${PROJECT_BINARY_DIR}/keelConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/keel)
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/keelConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/keelConfig.cmake ${PROJECT_BINARY_DIR}/keelConfigVersion.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/keel)
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
endfunction()

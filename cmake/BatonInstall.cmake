# `cmake --install` gives a CMake package usable with find_package(baton) (docs/integration.md):
# the static libraries, the public headers, and batonConfig.cmake / batonTargets.cmake. Exported
# names drop the prefix: baton::core, baton::plan, baton::baton, baton::graph, baton::validate,
# baton::triage (triage and the validated compile), baton::frame (one way in), and the components
# baton::runtime (find_package(baton COMPONENTS runtime); Vulkan) and baton::runtime_d3d12
# (COMPONENTS runtime_d3d12; vkd3d), both on baton::runtime_core (what the two backends share).
# The executors (Vulkan, vkd3d) are not part of the package: they are the project's test rigs.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(baton_installed baton_warnings baton_core baton_plan baton)
foreach(optional baton_graph baton_validate baton_triage baton_frame baton_runtime_core baton_runtime baton_runtime_d3d12)
  if(TARGET ${optional})
    list(APPEND baton_installed ${optional})
  endif()
endforeach()
foreach(t ${baton_installed})
  string(REGEX REPLACE "^baton_" "" export_name ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

# baton_warnings travels only because the static libraries name it privately ($<LINK_ONLY:...>);
# it adds no flags to a consumer.
install(TARGETS ${baton_installed} EXPORT batonTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Exactly the headers of installed targets: the executors (include/exec: exec_*.hpp,
# trace_player.hpp) and the view (include/view) are the project's own rigs and tools, not part of the package.
# The headers live by layer (include/<layer>/baton/); installed they merge into include/baton/.
# A layer's headers are installed with its library (layer:target).
foreach(pair core:baton_core plan:baton_plan lower:baton graph:baton_graph validate:baton_validate
             triage:baton_triage frame:baton_frame runtime:baton_runtime_core)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 layer)
  list(GET pair 1 target)
  if(TARGET ${target})
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/${layer}/baton DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
            FILES_MATCHING PATTERN "*.hpp")
  endif()
endforeach()
# Which optional components this package has (batonConfig.cmake sets baton_<c>_FOUND from it).
set(BATON_HAVE_RUNTIME OFF)
if(TARGET baton_runtime)
  set(BATON_HAVE_RUNTIME ON)
endif()
set(BATON_HAVE_RUNTIME_D3D12 OFF)
if(TARGET baton_runtime_d3d12)
  set(BATON_HAVE_RUNTIME_D3D12 ON)
endif()
install(EXPORT batonTargets NAMESPACE baton:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/baton)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/batonConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/batonConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/baton)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/batonConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/batonConfig.cmake ${PROJECT_BINARY_DIR}/batonConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/baton)

# What `cmake --install BUILD --prefix P` (and `make install PREFIX=P`) puts where a user looks
# for it (GNU directory names, GNUInstallDirs):
#   P/bin/npkit-analyze                         the analyzer (NPKIT_BUILD_ANALYZER)
#   P/share/man/man1/npkit-analyze.1            its manual page, made from every command's --help
#   P/lib/libnccl-profiler-npkit.so             the NCCL profiler plugin (NPKIT_BUILD_CAPTURE):
#                                               NCCL_PROFILER_PLUGIN=npkit finds it on the
#                                               library path
#   P/include/npkit/                            the public, dependency-free headers
#   P/share/doc/npkit-analyze/                  README.md and docs/
# The ctest test `install` (label install) installs into a scratch prefix and checks each file.
include(GNUInstallDirs)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/npkit" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

if(TARGET npkit-analyze)
  install(TARGETS npkit-analyze RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  set(npkit_man_page "${CMAKE_BINARY_DIR}/man/npkit-analyze.1")
  add_custom_command(
    OUTPUT "${npkit_man_page}"
    COMMAND "${CMAKE_COMMAND}" "-DANALYZER=$<TARGET_FILE:npkit-analyze>" "-DOUT=${npkit_man_page}"
            -P "${PROJECT_SOURCE_DIR}/cmake/NpkitManPage.cmake"
    DEPENDS npkit-analyze "${PROJECT_SOURCE_DIR}/cmake/NpkitManPage.cmake"
    COMMENT "Writing the manual page from npkit-analyze --help")
  add_custom_target(npkit_man_page ALL DEPENDS "${npkit_man_page}")
  install(FILES "${npkit_man_page}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
endif()

if(TARGET nccl_profiler_npkit)
  install(TARGETS nccl_profiler_npkit LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()

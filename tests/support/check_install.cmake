# The ctest test `install`: installs the build into a scratch prefix and checks that each file is
# where a user looks for it (cmake/NpkitInstall.cmake), run as
#   cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<source> -DPREFIX=<scratch> -DBINDIR=bin
#         -DLIBDIR=lib -DINCLUDEDIR=include -DMANDIR=share/man -DDOCDIR=share/doc/npkit-analyze
#         -DPLUGIN=ON|OFF -P this
# Checked: the analyzer runs from the prefix and prints its version; the plugin (with
# NPKIT_BUILD_CAPTURE) is a shared library exporting NCCL's profiler API tables v6, v5 and v4;
# every header of include/npkit/ is installed, byte for byte; the manual page has a section per
# command that `npkit-analyze --help` lists; README.md and every docs/*.md are installed.
cmake_minimum_required(VERSION 3.25)

foreach(var BUILD_DIR SOURCE_DIR PREFIX BINDIR LIBDIR INCLUDEDIR MANDIR DOCDIR PLUGIN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_install.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed (${rc}):\n${out}${err}")
endif()

set(errors "")
function(require_file path)
  if(NOT EXISTS "${PREFIX}/${path}" OR IS_DIRECTORY "${PREFIX}/${path}")
    set(errors "${errors}missing: ${PREFIX}/${path}\n" PARENT_SCOPE)
  endif()
endfunction()

# The analyzer, run from where it was installed.
set(analyzer "${PREFIX}/${BINDIR}/npkit-analyze")
require_file("${BINDIR}/npkit-analyze")
execute_process(COMMAND "${analyzer}" --version OUTPUT_VARIABLE version RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^npkit-analyze [0-9]+\\.[0-9]+\\.[0-9]+")
  string(APPEND errors "${analyzer} --version: exit ${rc}, printed '${version}'\n")
endif()

# The plugin and the API tables NCCL looks up in it.
if(PLUGIN)
  set(plugin "${LIBDIR}/libnccl-profiler-npkit.so")
  require_file("${plugin}")
  execute_process(COMMAND nm -D --defined-only "${PREFIX}/${plugin}" OUTPUT_VARIABLE symbols
                  RESULT_VARIABLE rc)
  foreach(table ncclProfiler_v6 ncclProfiler_v5 ncclProfiler_v4)
    if(NOT rc EQUAL 0 OR NOT symbols MATCHES " ${table}\n")
      string(APPEND errors "${plugin} does not export ${table} (nm exit ${rc})\n")
    endif()
  endforeach()
endif()

# The public headers, as they are in the source tree.
file(GLOB headers RELATIVE "${SOURCE_DIR}/include/npkit" "${SOURCE_DIR}/include/npkit/*")
if(NOT headers)
  string(APPEND errors "no headers found in ${SOURCE_DIR}/include/npkit\n")
endif()
foreach(header IN LISTS headers)
  require_file("${INCLUDEDIR}/npkit/${header}")
  file(SHA256 "${SOURCE_DIR}/include/npkit/${header}" want)
  if(EXISTS "${PREFIX}/${INCLUDEDIR}/npkit/${header}")
    file(SHA256 "${PREFIX}/${INCLUDEDIR}/npkit/${header}" got)
    if(NOT got STREQUAL want)
      string(APPEND errors "${INCLUDEDIR}/npkit/${header} differs from the source's\n")
    endif()
  endif()
endforeach()

# The manual page: a section per command the installed analyzer lists.
set(man "${MANDIR}/man1/npkit-analyze.1")
require_file("${man}")
if(EXISTS "${PREFIX}/${man}")
  file(READ "${PREFIX}/${man}" page)
  execute_process(COMMAND "${analyzer}" --help OUTPUT_VARIABLE help)
  string(REGEX MATCH "Subcommands:\n(.*)" list "${help}")
  string(REGEX MATCHALL "\n  [a-z]+" commands "\n${CMAKE_MATCH_1}")
  list(LENGTH commands count)
  if(count LESS 9)
    string(APPEND errors "npkit-analyze --help lists ${count} commands, expected 9 or more\n")
  endif()
  if(NOT page MATCHES "^\\.TH NPKIT-ANALYZE 1 ")
    string(APPEND errors "${man} does not start with a .TH line for NPKIT-ANALYZE 1\n")
  endif()
  foreach(command IN LISTS commands)
    string(STRIP "${command}" command)
    if(NOT page MATCHES "\n\\.SS ${command}\n")
      string(APPEND errors "${man} has no section for the command ${command}\n")
    endif()
    if(NOT page MATCHES "Usage: npkit-analyze ${command} ")
      string(APPEND errors "${man}: the ${command} section lacks its --help text\n")
    endif()
  endforeach()
endif()

# The docs.
require_file("${DOCDIR}/README.md")
file(GLOB docs RELATIVE "${SOURCE_DIR}/docs" "${SOURCE_DIR}/docs/*.md")
foreach(doc IN LISTS docs)
  require_file("${DOCDIR}/${doc}")
endforeach()

if(errors)
  message(FATAL_ERROR "the install into ${PREFIX} is incomplete:\n${errors}")
endif()
message(STATUS "installed into ${PREFIX}: analyzer, ${PLUGIN} plugin, headers, manual page, docs")

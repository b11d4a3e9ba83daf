# Writes npkit-analyze's manual page (section 1) from its own --help texts, so the page says what
# the binary does:
#   cmake -DANALYZER=<npkit-analyze> -DOUT=<npkit-analyze.1> -P NpkitManPage.cmake
# NAME, SYNOPSIS, the program's --help, then one subsection per command (in --help's order) with
# that command's --help, then where the full reference is.
cmake_minimum_required(VERSION 3.25)

foreach(var ANALYZER OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "NpkitManPage.cmake: ${var} is not set")
  endif()
endforeach()

function(help_of out)
  execute_process(COMMAND "${ANALYZER}" ${ARGN} --help OUTPUT_VARIABLE text
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ANALYZER} ${ARGN} --help failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Text as roff: backslashes escaped, a line starting with . or ' protected, inside no-fill.
function(as_roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${ANALYZER}" --version OUTPUT_VARIABLE version
                OUTPUT_STRIP_TRAILING_WHITESPACE)
help_of(main)

# The commands: the first word of each line of the "Subcommands:" list.
set(commands "")
string(REGEX MATCH "Subcommands:\n(.*)" list "${main}")
string(REPLACE "\n" ";" lines "${CMAKE_MATCH_1}")
foreach(line IN LISTS lines)
  if(line MATCHES "^  ([a-z]+)( |$)")
    list(APPEND commands ${CMAKE_MATCH_1})
  elseif(line STREQUAL "")
    break()
  endif()
endforeach()
if(NOT commands)
  message(FATAL_ERROR "no commands found in the output of ${ANALYZER} --help:\n${main}")
endif()

set(page ".TH NPKIT-ANALYZE 1 \"\" \"${version}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nnpkit-analyze \\- read NPKit dumps and NCCL profiler captures and "
                   "see inside NCCL collectives\n")
string(APPEND page ".SH SYNOPSIS\n.B npkit-analyze\n\\fICOMMAND\\fR \\fIPATH\\fR... "
                   "[\\fIoptions\\fR]\n.br\n.B npkit-analyze\n\\fICOMMAND\\fR \\-\\-help\n")
as_roff(text "${main}")
string(APPEND page ".SH DESCRIPTION\n${text}")
string(APPEND page ".SH COMMANDS\n")
foreach(command IN LISTS commands)
  help_of(help ${command})
  as_roff(text "${help}")
  string(APPEND page ".SS ${command}\n${text}")
endforeach()
string(APPEND page
       ".SH EXIT STATUS\n0: done; 1: diff's gate failed, or hang found a stall; 2: bad usage or "
       "an input that cannot give a sound result. Errors are one line, "
       "\\(lqnpkit-analyze: error: ...\\(rq.\n"
       ".SH SEE ALSO\nThe command-line reference (cli.md), the phase rules (phases.md), the "
       "capture how-to (capture.md) and the other documents installed with README.md in "
       "share/doc/npkit-analyze.\n")
file(WRITE "${OUT}" "${page}")

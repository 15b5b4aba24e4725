# Test case names must not hold a ';': CTest splits a registered name at it, and the
# split pieces run no checks at all while still reporting "Passed".
#   cmake -DROOT=<tree> -P tests/case_names.cmake
# Fails with one line per offending TEST_CASE: file and name.

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P case_names.cmake")
endif()

file(GLOB_RECURSE sources "${ROOT}/tests/*_test.cpp")
set(bad "")
set(count 0)
foreach(source IN LISTS sources)
  file(READ "${source}" text)
  # A ';' in the file would split CMake's list; count the names through a stand-in.
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REGEX MATCHALL "TEST_CASE\\(\"[^\"]*\"" cases "${text}")
  foreach(c IN LISTS cases)
    math(EXPR count "${count} + 1")
    if(c MATCHES "<semicolon>")
      file(RELATIVE_PATH rel "${ROOT}" "${source}")
      string(REPLACE "<semicolon>" ";" shown "${c}")
      string(APPEND bad "${rel}: ${shown}\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "test case names with a ';' (CTest would split them and run nothing):\n${bad}")
endif()
message(STATUS "${count} test case names, none with a ';'")

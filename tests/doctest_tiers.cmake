# Registers every doctest case of a test binary with CTest, labelled by tier.
#
# Two roles in one file, as tests/app_tests.cmake:
#  - include()d from tests/CMakeLists.txt, `pathscope_doctest_tiers(TARGET)` runs this file
#    after each build of TARGET (in script mode) and includes what it writes at `ctest` time;
#  - run as `cmake -DEXE=... -DOUT=... -P doctest_tiers.cmake`, it lists the cases of each
#    tier and writes one add_test and its properties per case.
#
# In a sanitizer tree (PATHSCOPE_SANITIZE) the cases are registered one test per source
# file and tier instead (`<tier>:<file>`): each test process pays the sanitizers' start-up
# (about half a second of a 450 MB binary), and the files are a seventh as many as the cases.
#
# A case's tier is its doctest test suite: `TEST_SUITE("sim-long")` for simulations that take
# more than a few seconds, `TEST_SUITE("slow")` for full ground-truth runs; every other case
# is `unit`. The timeouts are per tier (seconds); every case gets one. A case that needs
# something absent (the shared Moving AI benchmarks) prints a line starting with
# `pathscope-skip:` and CTest reports it as skipped.

set(_pathscope_tiers sim-long slow)
set(_pathscope_timeout_unit 120)
set(_pathscope_timeout_sim-long 900)
set(_pathscope_timeout_slow 1800)

if(CMAKE_SCRIPT_MODE_FILE)
  # Lists the case names that a filter selects, one per line, without doctest's banner.
  function(_list_cases out)
    execute_process(COMMAND "${EXE}" --list-test-cases ${ARGN}
                    OUTPUT_VARIABLE text RESULT_VARIABLE code WORKING_DIRECTORY "${WORKDIR}")
    if(NOT code EQUAL 0)
      message(FATAL_ERROR "${EXE} --list-test-cases ${ARGN}: exit ${code}\n${text}")
    endif()
    # A ';' in a name would split CMake's list: tests/case_names.cmake forbids it.
    string(REPLACE "\n" ";" lines "${text}")
    set(names "")
    foreach(line IN LISTS lines)
      if(line STREQUAL "" OR line MATCHES "^=+$" OR line MATCHES "^\\[doctest\\] ")
        continue()
      endif()
      list(APPEND names "${line}")
    endforeach()
    set(${out} "${names}" PARENT_SCOPE)
  endfunction()

  # Lists the source files of the cases that a filter selects, each once.
  function(_list_files out)
    execute_process(COMMAND "${EXE}" --list-test-cases --reporters=xml ${ARGN}
                    OUTPUT_VARIABLE text RESULT_VARIABLE code WORKING_DIRECTORY "${WORKDIR}")
    if(NOT code EQUAL 0)
      message(FATAL_ERROR "${EXE} --list-test-cases --reporters=xml ${ARGN}: exit ${code}\n${text}")
    endif()
    string(REGEX MATCHALL "filename=\"[^\"]*\"" found "${text}")
    set(files "")
    foreach(item IN LISTS found)
      string(REGEX REPLACE "^filename=\"(.*)\"$" "\\1" file "${item}")
      list(APPEND files "${file}")
    endforeach()
    list(REMOVE_DUPLICATES files)
    set(${out} "${files}" PARENT_SCOPE)
  endfunction()

  set(script "")
  set(count 0)
  string(REPLACE ";" "," excluded "${_pathscope_tiers}")
  foreach(tier unit ${_pathscope_tiers})
    if(tier STREQUAL "unit")
      set(tier_filter "--test-suite-exclude=${excluded}")
    else()
      set(tier_filter "--test-suite=${tier}")
    endif()
    if(GROUP_BY_FILE)
      _list_files(files "${tier_filter}")
      foreach(file IN LISTS files)
        file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
        set(name "${tier}:${name}")
        # Every case of the file counts against one timeout: three times the tier's. (No
        # skip expression: one case's skip must not hide another's failure.)
        math(EXPR timeout "3 * ${_pathscope_timeout_${tier}}")
        string(APPEND script "add_test([==[${name}]==] \"${EXE}\" [==[--source-file=${file}]==] [==[${tier_filter}]==])\n"
               "set_tests_properties([==[${name}]==] PROPERTIES WORKING_DIRECTORY \"${WORKDIR}\" "
               "LABELS ${tier} TIMEOUT ${timeout})\n")
        math(EXPR count "${count} + 1")
      endforeach()
      continue()
    endif()
    _list_cases(names "${tier_filter}")
    foreach(name IN LISTS names)
      # doctest filters treat ',' as a separator and '*' '?' as wildcards: escape the first,
      # and the wildcards still match the name itself.
      string(REPLACE "," "\\," filter "${name}")
      string(APPEND script "add_test([==[${name}]==] \"${EXE}\" [==[--test-case=${filter}]==])\n"
             "set_tests_properties([==[${name}]==] PROPERTIES WORKING_DIRECTORY \"${WORKDIR}\" "
             "LABELS ${tier} TIMEOUT ${_pathscope_timeout_${tier}} "
             "SKIP_REGULAR_EXPRESSION \"pathscope-skip:\")\n")
      math(EXPR count "${count} + 1")
    endforeach()
  endforeach()
  if(count EQUAL 0)
    message(FATAL_ERROR "${EXE}: no test cases listed")
  endif()
  file(WRITE "${OUT}" "${script}")
  return()
endif()

# pathscope_doctest_tiers(TARGET): registers TARGET's cases after each build of it.
function(pathscope_doctest_tiers target)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_tiers.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_tiers_include.cmake")
  add_custom_command(
    TARGET ${target} POST_BUILD
    BYPRODUCTS "${out}"
    COMMAND "${CMAKE_COMMAND}" "-DEXE=$<TARGET_FILE:${target}>" "-DOUT=${out}"
            "-DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
            "-DGROUP_BY_FILE=${PATHSCOPE_SANITIZE}" -P "${CMAKE_CURRENT_FUNCTION_LIST_FILE}"
    VERBATIM)
  file(WRITE "${include_file}"
       "if(EXISTS \"${out}\")\n  include(\"${out}\")\nelse()\n"
       "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()

# Checks of the repository's own conventions, run by CTest in every build tree (tier unit).

# Every C++ source is formatted by the repository's .clang-format (scripts/check_format.sh
# --fix formats them).
add_test(NAME style.clang_format COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check_format.sh)

# docs/cli.md is the binary's own --help, word for word (scripts/cli_reference.sh rewrites
# it after a change to an option or a sub-command).
add_test(NAME docs.cli_reference
         COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/cli_reference.sh $<TARGET_FILE:pathscope> --check)

# The registry's families are found by the build (planner/registry/families.cmake): listed
# in their declared order; a family's header without its order or its function is refused
# naming the file.
set(_families_rule ${PROJECT_SOURCE_DIR}/tests/planner/registry/families_rule.cmake)
foreach(_case order no_order no_append)
  add_test(NAME registry.families_${_case}
           COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/families_${_case}
                   -DCASE=${_case} -P ${_families_rule})
endforeach()
set_tests_properties(registry.families_order PROPERTIES PASS_REGULAR_EXPRESSION "families in order: append_beta")
# CMake wraps its error messages: any spaces or line ends between the words.
function(_families_expect test)
  list(JOIN ARGN "[ \n]+" regex)
  set_tests_properties(${test} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}")
endfunction()
_families_expect(registry.families_no_order "delta_registry\\.hpp:" a "family's" registry header declares its place)
_families_expect(registry.families_no_append "delta_registry\\.hpp:" a "family's" registry header declares "\"void" append_delta_planners)

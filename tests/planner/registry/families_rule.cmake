# The rule that finds the registry's families (planner/registry/families.cmake), on made-up
# folders in a scratch tree:
#   cmake -DSOURCE=<repository> -DWORK=<scratch folder> -DCASE=order|no_order|no_append -P families_rule.cmake
# order: three families listed by their declared order, not by name, and a header named
# otherwise ignored; no_order / no_append: a family's header lacking a line stops it, the
# message naming the file (the test expects the failure).

include(${SOURCE}/planner/registry/families.cmake)
set(PROJECT_SOURCE_DIR ${WORK})
file(REMOVE_RECURSE ${WORK})

function(family name order)
  set(text "void append_${name}_planners(std::vector<PlannerInfo>& registry);\n")
  if(NOT order STREQUAL "")
    string(APPEND text "inline constexpr int kXRegistryOrder = ${order};\n")
  endif()
  file(WRITE ${WORK}/root/${name}/${name}_registry.hpp "${text}")
endfunction()

family(alpha 30)
family(beta 5)
family(gamma 30)
file(WRITE ${WORK}/root/core/planner_registry.hpp "not a family\n")
if(CASE STREQUAL "no_order")
  family(delta "")
elseif(CASE STREQUAL "no_append")
  file(WRITE ${WORK}/root/delta/delta_registry.hpp "inline constexpr int kDeltaRegistryOrder = 1;\n")
endif()

pathscope_registered_families(${WORK}/out ${WORK}/root)
file(READ ${WORK}/out/planner/registry/registered_families.hpp generated)
string(REGEX MATCHALL "append_[a-z]+_planners\\(registry\\)" calls "${generated}")
if(NOT calls STREQUAL "append_beta_planners(registry);append_alpha_planners(registry);append_gamma_planners(registry)")
  message(FATAL_ERROR "families listed as ${calls}")
endif()
if(generated MATCHES "root/core" OR NOT generated MATCHES "#include \"root/beta/beta_registry.hpp\"")
  message(FATAL_ERROR "wrong includes:\n${generated}")
endif()
message(STATUS "families in order: ${calls}")

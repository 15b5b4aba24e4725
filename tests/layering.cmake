# The folder rules of the source tree, checked on every include line:
#   cmake -DROOT=<tree> -P tests/layering.cmake
#
#  - planner/core includes nothing else of the project;
#  - planner/scenario includes core; planner/world includes core and scenario;
#  - planner/search (search code any family may use) includes core, scenario, world and
#    itself, never a family;
#  - a family (any other folder of planner/, e.g. grid, quadtree, visgraph, tactical,
#    sim) includes core, world, scenario, search and itself, never another family;
#  - planner/hybrid (a planner combining families) includes core, world, scenario, search,
#    grid, visgraph and itself; no family includes it;
#  - planner/registry (the one list of planners) may include all of planner/;
#  - planner/ never includes render/ or app/; render/ never includes app/;
#  - only app/ includes SDL or Dear ImGui headers (tests of app/ may too).
# Fails with one line per offending include: file, line text and the rule it breaks.

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P layering.cmake")
endif()

set(violations "")
set(checked 0)

# allowed_prefixes(<dir> <out>): project include prefixes a file in <dir> may use.
function(allowed_prefixes dir out)
  if(dir STREQUAL "planner/core")
    set(${out} "planner/core/" PARENT_SCOPE)
  elseif(dir STREQUAL "planner/scenario")
    set(${out} "planner/core/;planner/scenario/" PARENT_SCOPE)
  elseif(dir STREQUAL "planner/world")
    set(${out} "planner/core/;planner/scenario/;planner/world/" PARENT_SCOPE)
  elseif(dir STREQUAL "planner/search")
    set(${out} "planner/core/;planner/scenario/;planner/world/;planner/search/" PARENT_SCOPE)
  elseif(dir STREQUAL "planner/registry")
    set(${out} "planner/" PARENT_SCOPE)
  elseif(dir STREQUAL "planner/hybrid")
    # A planner combining families: the grid's legs along the visibility graph's route.
    set(${out} "planner/core/;planner/scenario/;planner/world/;planner/search/;planner/grid/;planner/visgraph/;planner/hybrid/" PARENT_SCOPE)
  elseif(dir MATCHES "^planner/([^/]+)")
    set(${out} "planner/core/;planner/scenario/;planner/world/;planner/search/;planner/${CMAKE_MATCH_1}/" PARENT_SCOPE)
  elseif(dir MATCHES "^render")
    set(${out} "planner/;render/" PARENT_SCOPE)
  else()
    set(${out} "planner/;render/;app/;tests/" PARENT_SCOPE)
  endif()
endfunction()

foreach(top planner render app)
  file(GLOB_RECURSE sources "${ROOT}/${top}/*.hpp" "${ROOT}/${top}/*.cpp" "${ROOT}/${top}/*.h")
  foreach(src IN LISTS sources)
    file(RELATIVE_PATH rel "${ROOT}" "${src}")
    get_filename_component(dir "${rel}" DIRECTORY)
    # A family's own subfolders belong to the family.
    if(dir MATCHES "^(planner/[^/]+)/")
      set(dir "${CMAKE_MATCH_1}")
    endif()
    allowed_prefixes("${dir}" allowed)
    math(EXPR checked "${checked} + 1")
    file(STRINGS "${src}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS lines)
      if(NOT top STREQUAL "app" AND line MATCHES "[<\"/]([Ss][Dd][Ll][^/\">]*|imgui[^/\">]*)[\">]")
        string(APPEND violations "  ${rel}: ${line}   (only app/ may include SDL or Dear ImGui)\n")
        continue()
      endif()
      if(NOT line MATCHES "\"((planner|render|app|tests)/[^\"]*)\"")
        continue()
      endif()
      set(target "${CMAKE_MATCH_1}")
      set(ok FALSE)
      foreach(prefix IN LISTS allowed)
        string(FIND "${target}" "${prefix}" at)
        if(at EQUAL 0)
          set(ok TRUE)
        endif()
      endforeach()
      if(NOT ok)
        string(REPLACE ";" ", " allowed_text "${allowed}")
        string(APPEND violations "  ${rel}: ${line}   (${dir}/ may include only ${allowed_text})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "layering: includes that break the folder rules:\n${violations}")
endif()
if(checked EQUAL 0)
  message(FATAL_ERROR "layering: no sources found under ${ROOT}/planner, render or app")
endif()
message(STATUS "layering ok: ${checked} files follow the folder rules")

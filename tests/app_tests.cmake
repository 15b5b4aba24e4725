# Smoke tests of the pathscope binary and the module-boundary check.
#
# Two roles in one file:
#  - include()d from tests/CMakeLists.txt, it registers the CTest entries below;
#  - run as `cmake -DMODE=... -P app_tests.cmake`, it is the checker those entries call.
#
# Script-mode arguments (lists use "|" because ";" splits add_test arguments):
#   MODE=run CMD=a|b|c                  run a command, then check:
#       UNSET_ENV=A|B                   environment variables removed first
#       EXPECT_CODE=<n>                 its exit code (default 0)
#       EXPECT_OUTPUT=<regex>           a match in stdout + stderr
#       PNG=<file> PNG_SIZE=<w>x<h>     the file is a PNG of that size (removed before the run)

if(CMAKE_SCRIPT_MODE_FILE)
  if(MODE STREQUAL "run")
    string(REPLACE "|" ";" cmd "${CMD}")
    string(REPLACE "|" ";" unset_env "${UNSET_ENV}")
    foreach(var IN LISTS unset_env)
      unset(ENV{${var}})
    endforeach()
    if(PNG)
      file(REMOVE "${PNG}")
    endif()
    if(NOT DEFINED EXPECT_CODE)
      set(EXPECT_CODE 0)
    endif()
    execute_process(COMMAND ${cmd} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(all "${out}${err}")
    message(STATUS "command: ${cmd}\nexit code: ${code}\noutput:\n${all}")
    if(NOT code STREQUAL "${EXPECT_CODE}")
      message(FATAL_ERROR "expected exit code ${EXPECT_CODE}, got ${code}")
    endif()
    if(DEFINED EXPECT_OUTPUT AND NOT all MATCHES "${EXPECT_OUTPUT}")
      message(FATAL_ERROR "output does not match: ${EXPECT_OUTPUT}")
    endif()
    if(PNG)
      if(NOT EXISTS "${PNG}")
        message(FATAL_ERROR "no file written: ${PNG}")
      endif()
      # PNG: 8-byte signature, then the IHDR chunk whose data starts with width, height.
      file(READ "${PNG}" head LIMIT 24 HEX)
      string(SUBSTRING "${head}" 0 16 signature)
      string(SUBSTRING "${head}" 32 8 w_hex)
      string(SUBSTRING "${head}" 40 8 h_hex)
      math(EXPR w "0x${w_hex}")
      math(EXPR h "0x${h_hex}")
      if(NOT signature STREQUAL "89504e470d0a1a0a")
        message(FATAL_ERROR "${PNG} is not a PNG")
      endif()
      if(NOT "${w}x${h}" STREQUAL "${PNG_SIZE}")
        message(FATAL_ERROR "${PNG} is ${w}x${h}, expected ${PNG_SIZE}")
      endif()
    endif()
    return()
  endif()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()

# ---- Registration (configure time) -------------------------------------------------

set(_app_map maps/default.json)

# The folder rules (tests/layering.cmake) hold for the source tree, and the checker
# catches each kind of violation in a tree made to break them.
add_test(NAME layering.folder_rules
         COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -P ${PROJECT_SOURCE_DIR}/tests/layering.cmake)
add_test(NAME layering.catches_violations
         COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR}/tests/data/layering_bad -P ${PROJECT_SOURCE_DIR}/tests/layering.cmake)
set_tests_properties(layering.catches_violations PROPERTIES PASS_REGULAR_EXPRESSION
  "core/types.hpp: #include .planner/grid/grid_astar.hpp.*grid/grid_astar.cpp: #include .planner/quadtree/quadtree.hpp.*search/best_first_search.hpp: #include .planner/grid/grid_search_state.hpp.*planning_world.cpp: #include <SDL.h>.*draw_list.cpp: #include .app/editor/document.hpp.*draw_list.cpp: #include <imgui.h>")

# No test case name holds a ';' (CTest would split it and run nothing under it).
add_test(NAME tests.case_names
         COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -P ${PROJECT_SOURCE_DIR}/tests/case_names.cmake)

# With no display the window refuses politely and points at the headless commands.
add_test(NAME app.open_without_display
         COMMAND ${CMAKE_COMMAND} -DMODE=run "-DCMD=$<TARGET_FILE:pathscope>|open|${_app_map}"
                 "-DUNSET_ENV=DISPLAY|WAYLAND_DISPLAY|SDL_VIDEODRIVER" -DEXPECT_CODE=1
                 "-DEXPECT_OUTPUT=cannot open a window \\(no display\\).*pathscope render FILE --out PNG"
                 -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# A file that does not load, named on the command line: the message names it on the
# terminal and the window opens anyway, on a new empty scenario, with the error shown
# (scripts/window_smoke_test.sh checks the window's side).
find_program(PATHSCOPE_XVFB_RUN xvfb-run)
if(PATHSCOPE_XVFB_RUN)
  add_test(NAME app.open_bad_file
           COMMAND ${CMAKE_COMMAND} -DMODE=run
                   "-DCMD=${PATHSCOPE_XVFB_RUN}|-a|-s|-screen 0 1280x800x24|$<TARGET_FILE:pathscope>|open|tests/no_such_scenario.json|--quit-after-frames|20"
                   -DEXPECT_CODE=0 "-DEXPECT_OUTPUT=no_such_scenario.json" -P ${CMAKE_CURRENT_LIST_FILE}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(app.open_bad_file PROPERTIES TIMEOUT 120 LABELS gui ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()

# The same for a recording that is not one (a foreign or damaged .psrec): the terminal
# names the file and the field, as the message panel does.
add_test(NAME app.open_bad_recording
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|open|tests/data/foreign.psrec|--quit-after-frames|3"
                 -DEXPECT_CODE=0 "-DEXPECT_OUTPUT=pathscope: tests/data/foreign.psrec: format: expected .pathscope-recording."
                 -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.open_bad_recording PROPERTIES TIMEOUT 60 ENVIRONMENT
                     "SDL_VIDEODRIVER=dummy;PATHSCOPE_CONFIG_DIR=${CMAKE_CURRENT_BINARY_DIR}/app_open_recording_config;ASAN_OPTIONS=detect_leaks=0")

# The window opens, draws 30 frames and closes by itself under a virtual X server.
if(PATHSCOPE_XVFB_RUN)
  add_test(NAME app.window_smoke
           COMMAND ${PATHSCOPE_XVFB_RUN} -a -s "-screen 0 1280x800x24" $<TARGET_FILE:pathscope> open ${_app_map}
                   --quit-after-frames 30
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # X and GL drivers keep allocations until exit; leak reports there are not ours.
  set_tests_properties(app.window_smoke PROPERTIES TIMEOUT 120 LABELS gui ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
else()
  message(STATUS "xvfb-run not found: app.window_smoke is not registered")
endif()

# The editor driven like a user under a virtual X server with openbox
# (scripts/window_smoke_test.sh): queries, rectangles and undo, a brush stroke, pans,
# the hover, the timeline slider, the remembered window size, a broken file. Exit 77
# (skipped) when Xvfb is not installed. The longest window test: 93 s under the sanitizers
# in CI, 178 s here with two builds beside it, so it gets 300.
add_test(NAME app.window_edit_undo
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/window_smoke_test.sh $<TARGET_FILE:pathscope>
                 ${PROJECT_SOURCE_DIR}/tests/data/window_test.json
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.window_edit_undo PROPERTIES TIMEOUT 300 LABELS gui SKIP_RETURN_CODE 77 COST 50
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# The unit simulation driven like a player under a virtual X server with openbox
# (scripts/sim_window_test.sh): Play, box selection and right-click orders with the units
# tool, Pause, Step, Reset (same hash twice), an edit while it plays. Exit 77 (skipped)
# when Xvfb is not installed.
add_test(NAME app.sim_window
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/sim_window_test.sh $<TARGET_FILE:pathscope>
                 ${PROJECT_SOURCE_DIR}/tests/data/sim_window_test.json
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.sim_window PROPERTIES TIMEOUT 180 LABELS gui SKIP_RETURN_CODE 77 COST 50
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# A platoon ordered in the window under a virtual X server with openbox
# (scripts/platoon_window_test.sh): box selection, a right drag for the final heading, the
# platoon's arrival, the formation list, a mixed selection's right-click order. Exit 77
# (skipped) when Xvfb is not installed.
add_test(NAME app.platoon_window
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/platoon_window_test.sh $<TARGET_FILE:pathscope>
                 ${PROJECT_SOURCE_DIR}/tests/data/platoon_window_test.json
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.platoon_window PROPERTIES TIMEOUT 180 LABELS gui SKIP_RETURN_CODE 77 COST 50
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# Recordings in the window under a virtual X server with openbox
# (scripts/timeline_window_test.sh): a run recorded headless opens at its first step; the
# timeline's slider is dragged, step back and forward, the stuck list and a unit's log
# jump, each step shown has a fresh run's state hash; Run from here goes on exactly.
add_test(NAME app.timeline_window
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/timeline_window_test.sh $<TARGET_FILE:pathscope>
                 ${PROJECT_SOURCE_DIR}/maps/sim_bridge.json
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.timeline_window PROPERTIES TIMEOUT 180 LABELS gui SKIP_RETURN_CODE 77 COST 50
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# Live re-planning of the tactical planner driven like a user under a virtual X server
# with openbox (scripts/tactical_window_test.sh): the select tool drags a threat onto the
# path (re-planned while the button is held, then the path crosses the threat), undo puts
# the threat and the path back; the planner's parameters are a closed section, its mode a
# list. Exit 77 (skipped) when Xvfb is not installed.
add_test(NAME app.tactical_window
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/tactical_window_test.sh $<TARGET_FILE:pathscope>
                 ${PROJECT_SOURCE_DIR}/tests/data/tactical_window_test.json
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.tactical_window PROPERTIES TIMEOUT 120 LABELS gui SKIP_RETURN_CODE 77 COST 50
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# Where the window opens, under a virtual X server with openbox and its title bar
# (scripts/placement_window_test.sh): four launches in a row open it exactly where it
# was closed, a moved window reopens where it was moved to, and a place remembered off
# the display, or a size larger than it, opens it whole on the display. Exit 77
# (skipped) when Xvfb is not installed.
add_test(NAME app.placement_window
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/placement_window_test.sh $<TARGET_FILE:pathscope>
                 ${PROJECT_SOURCE_DIR}/tests/data/window_test.json
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.placement_window PROPERTIES TIMEOUT 180 LABELS gui SKIP_RETURN_CODE 77 COST 50
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# The start page and the layout presets driven like a user under a virtual X server with
# openbox (tests/app/window/start_layout_window_test.sh): no file opens the start page with
# the shipped scenarios; Ctrl+1..3 arrange the panels; a scenario picked on the page opens;
# the layout and the recent file are back at the next launch. Exit 77 (skipped) when Xvfb
# is not installed.
add_test(NAME app.start_layout_window
         COMMAND ${PROJECT_SOURCE_DIR}/tests/app/window/start_layout_window_test.sh $<TARGET_FILE:pathscope>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.start_layout_window PROPERTIES TIMEOUT 120 LABELS gui SKIP_RETURN_CODE 77 COST 30
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# DetourCrowd beside the simulation driven like a user under a virtual X server with
# openbox (tests/app/window/crowd_window_test.sh): the Simulation section's combo runs the
# scenario's units under DetourCrowd too, both step together, a window order reaches the
# agents, and DetourCrowd alone or ours alone is drawn. Exit 77 (skipped) without Xvfb.
add_test(NAME app.crowd_window
         COMMAND ${PROJECT_SOURCE_DIR}/tests/app/window/crowd_window_test.sh $<TARGET_FILE:pathscope>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(app.crowd_window PROPERTIES TIMEOUT 120 LABELS gui SKIP_RETURN_CODE 77 COST 30
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")

# The large designed map loads, validates and its long query is solved.
add_test(NAME app.solve_large_1024
         COMMAND ${CMAKE_COMMAND} -DMODE=run "-DCMD=$<TARGET_FILE:pathscope>|solve|maps/large_1024.json"
                 "-DEXPECT_OUTPUT=query 0 .*astar +found" -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# Headless rendering to PNG needs no display at all.
add_test(NAME app.render_png
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|${_app_map}|--out|${CMAKE_CURRENT_BINARY_DIR}/render_smoke.png|--size|320x200"
                 "-DUNSET_ENV=DISPLAY|WAYLAND_DISPLAY" -DPNG=${CMAKE_CURRENT_BINARY_DIR}/render_smoke.png
                 -DPNG_SIZE=320x200 -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_test(NAME app.render_step_all_layers_timed
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|${_app_map}|--out|${CMAKE_CURRENT_BINARY_DIR}/render_step.png|--size|200x150|--query|1|--step|100|--layers|all|--frames|3"
                 "-DUNSET_ENV=DISPLAY|WAYLAND_DISPLAY" -DPNG=${CMAKE_CURRENT_BINARY_DIR}/render_step.png
                 -DPNG_SIZE=200x150 "-DEXPECT_OUTPUT=3 frames, mean [0-9]+\\.[0-9][0-9] ms/frame"
                 -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_test(NAME app.render_unknown_layer
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|${_app_map}|--out|${CMAKE_CURRENT_BINARY_DIR}/never.png|--layers|tiles,rivers"
                 -DEXPECT_CODE=1 "-DEXPECT_OUTPUT=unknown layer 'rivers'.*partial_path" -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_test(NAME app.render_bad_query
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|${_app_map}|--out|${CMAKE_CURRENT_BINARY_DIR}/never.png|--query|99"
                 -DEXPECT_CODE=1 "-DEXPECT_OUTPUT=queries\\[99\\]" -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# Planner parameters and moving features, as the window would have them.
add_test(NAME app.render_param_and_motion
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|maps/armada.json|--out|${CMAKE_CURRENT_BINARY_DIR}/render_param.png|--size|240x160|--planner|weighted_astar|--param|weight=3|--motion|12.5"
                 "-DUNSET_ENV=DISPLAY|WAYLAND_DISPLAY" -DPNG=${CMAKE_CURRENT_BINARY_DIR}/render_param.png
                 -DPNG_SIZE=240x160 -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# The unit simulation run N fixed steps and drawn on its layers: the tanks with a move or
# waypoints order have arrived after 30 s.
add_test(NAME app.render_sim_steps
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|tests/data/sim_window_test.json|--out|${CMAKE_CURRENT_BINARY_DIR}/render_sim.png|--size|320x200|--sim-steps|900|--layers|all"
                 "-DUNSET_ENV=DISPLAY|WAYLAND_DISPLAY" -DPNG=${CMAKE_CURRENT_BINARY_DIR}/render_sim.png -DPNG_SIZE=320x200
                 "-DEXPECT_OUTPUT=simulation: step 900, t = 30.00 s, 3/3 arrived, hash [0-9a-f]+" -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_test(NAME app.render_too_many_sim_steps
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|tests/data/sim_window_test.json|--out|${CMAKE_CURRENT_BINARY_DIR}/never.png|--sim-steps|2000000"
                 -DEXPECT_CODE=1 "-DEXPECT_OUTPUT=--sim-steps 2000000: at most 1000000" -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_test(NAME app.render_bad_param
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|${_app_map}|--out|${CMAKE_CURRENT_BINARY_DIR}/never.png|--planner|astar|--param|weight=2"
                 -DEXPECT_CODE=1 "-DEXPECT_OUTPUT=--param weight: planner \"astar\" has no parameter \"weight\"" -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

add_test(NAME app.render_too_much_motion
         COMMAND ${CMAKE_COMMAND} -DMODE=run
                 "-DCMD=$<TARGET_FILE:pathscope>|render|maps/armada.json|--out|${CMAKE_CURRENT_BINARY_DIR}/never.png|--motion|5000"
                 -DEXPECT_CODE=1 "-DEXPECT_OUTPUT=--motion .*at most 3600 s" -P ${CMAKE_CURRENT_LIST_FILE}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

unset(_app_map)

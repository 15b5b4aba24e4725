#!/usr/bin/env bash
# The start page and the layout presets, driven like a user under a virtual X server with
# openbox; every step waits for the UI state file ($PATHSCOPE_UI_STATE) to show its effect
# (no fixed waits for results):
#   - `pathscope` with no file opens the start page: no recent files yet, the shipped
#     scenarios of maps/ listed;
#   - Ctrl+2 arranges the Debug search layout on the page already;
#   - a click on a shipped scenario opens it and leaves the page;
#   - Ctrl+3 and Ctrl+1 arrange Simulation/QA (the units tool) and Design, each moving the
#     canvas's edges; Ctrl+2 again opens the planner comparison, which compares;
#   - closed and launched again with no file: the start page lists the scenario as a
#     recent file, the Debug search layout is back; a click on the recent file opens it.
#
#   tests/app/window/start_layout_window_test.sh PATHSCOPE_BINARY [SCENARIO_FOLDER]
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb). Screenshots go to $SMOKE_OUT_DIR when
# set (start_page.png, layout_design.png, layout_debug.png, layout_simulation.png).

set -u

here=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../../../scripts/window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
window_test_begin "start and layout window test" "$here/maps/sim_bridge.json" 1280 800 "$@"
cd "$here" || fail "cannot enter $here"

# ctrl_digit N KEY REGEX: Ctrl+N held until the UI state's KEY line matches REGEX. A press
# shorter than a frame comes down and up between two frames and is never seen; held, it
# is seen by the next frame, however slow (choosing a preset again, as a repeating key
# does, changes nothing).
ctrl_digit() {
  local shown=0
  key_down ctrl
  key_down "$1"
  wait_until "$ui_timeout" ui_matches "$2" "$3" && shown=1
  key_up "$1"
  key_up ctrl
  [ "$shown" = 1 ] || fail "after Ctrl+$1, '$2' is '$(ui "$2")', never matched /$3/ within $ui_timeout s"
  wait_settled
}
canvas_now() { ui canvas; }
# Screenshots only when asked for (SMOKE_OUT_DIR): each costs a second and a half.
maybe_shot() { [ -z "${SMOKE_OUT_DIR:-}" ] || shot "$1"; }

# ---- First launch: the start page --------------------------------------------------------
start_app
wait_ui start_page '^1 0 [0-9]+$'
shipped=$(ui_field start_page 3)
maps=$(find maps -maxdepth 1 -name '*.json' | wc -l)
[ "$shipped" -eq "$maps" ] || fail "the start page lists $shipped scenarios, maps/ holds $maps"
note "start page: $shipped shipped scenarios, no recent files"
locate_client_area
[ -n "$(ui 'item start_map_default')" ] || fail "default.json is not on the start page"
[ -n "$(ui 'item start_new')" ] || fail "no New map button on the start page"
maybe_shot start_page

ctrl_digit 2 layout '^debug -[0-9]+ [0-9]+ .*debugger comparison$'
click_item start_map_default
wait_ui start_page '^0 '
wait_ui message "default.json"
note "opened from the start page: $(xdotool getwindowname "$wid")"

# ---- The presets move the canvas and open their panels -----------------------------------
ctrl_digit 3 layout '^simulation [0-9]+ [0-9]+ simulation messages$'
wait_ui tool '^units$'
read -r s0 _ s2 s3 < <(canvas_now)
maybe_shot layout_simulation
ctrl_digit 1 layout '^design [0-9]+ [0-9]+ layers inspector$'
wait_ui tool '^select$'
read -r d0 _ d2 d3 < <(canvas_now)
maybe_shot layout_design
ctrl_digit 2 layout '^debug -[0-9]+ [0-9]+ debugger comparison$'
wait_ui comparison '^[1-9][0-9]* 1 '
read -r g0 _ g2 g3 < <(canvas_now)
maybe_shot layout_debug
note "canvas x0 x1 y1: simulation $s0 $s2 $s3, design $d0 $d2 $d3, debug $g0 $g2 $g3"
# Design leaves the widest canvas between its columns; debug folds the left column away
# (its 18-pixel strip) and gives the bottom to the comparison; simulation to the messages.
[ "$g0" -lt 30 ] || fail "the debug layout left the left column open (canvas from x $g0)"
[ "$d0" -gt "$s0" ] || fail "design's tools column ($d0) is not wider than simulation's ($s0)"
[ $((d2 - d0)) -gt $((s2 - s0)) ] || fail "design's canvas is not wider than simulation's"
[ "$s3" -lt "$d3" ] || fail "the simulation layout's message strip does not shorten the canvas"
[ "$g3" -lt "$d3" ] || fail "the debug layout's comparison does not shorten the canvas"

# ---- Saved with the settings, restored at the next launch --------------------------------
stop_app
settings="$PATHSCOPE_CONFIG_DIR/settings.json"
tr -d ' \n' <"$settings" | grep -q '"layout":{"panels":\["debugger","comparison"\],"preset":"debug"}' ||
  fail "settings.json does not keep the debug layout: $(tr -d ' \n' <"$settings")"
grep -q "maps/default.json" "$settings" || fail "settings.json does not list default.json as recent"
start_app
wait_ui start_page '^1 1 '
wait_ui layout '^debug -[0-9]+ [0-9]+ debugger comparison$'
# The window reopens where it was closed (app.placement_window checks it): same origin.
click_item start_recent_0
wait_ui start_page '^0 '
wait_ui comparison '^[1-9][0-9]* 1 '
stop_app
note "PASS"

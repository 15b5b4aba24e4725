#!/usr/bin/env bash
# A platoon ordered in the real window: the editor in a virtual X server with a window
# manager (openbox), driven like a user with xdotool, checked by screenshots and by what
# the window reports of itself ($PATHSCOPE_UI_STATE's "platoon" line: platoons with a
# selected vehicle, then the first one's group, order state, phase, formation shape,
# ordered point, final heading in degrees, position).
#
#   scripts/platoon_window_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# SCENARIO (default tests/data/platoon_window_test.json: a wedge of four tanks west of a
# building and two infantry, no orders) is opened. Then, with the units tool (U):
#   - a left drag boxes the platoon: one platoon selected;
#   - a right drag east of the building orders it there, facing up the screen (north, 90
#     degrees), and Play takes it round the building to arrive facing that way;
#   - the Simulation section's formation combo changes it to the scenario's "diamond";
#   - Shift+click adds an infantry unit; a right click (no drag) orders both: the
#     platoon as a platoon with no final heading, the infantry with a move order.
# Every wait is on the window's own report, with a time limit.
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb). Needs Xvfb, xdotool and ImageMagick;
# uses openbox when installed. Screenshots are kept in $SMOKE_OUT_DIR if set.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
window_test_begin "platoon window test" "$here/tests/data/platoon_window_test.json" 1400 900 "$@"

platoon_field() {  # platoon_field NAME: a field of the "platoon" line
  local n
  case "$1" in selected) n=1;; group) n=2;; order) n=3;; phase) n=4;; shape) n=5;; goal_x) n=6;;
    goal_y) n=7;; heading) n=8;; x) n=9;; y) n=10;; *) fail "unknown platoon field $1";; esac
  ui_field platoon "$n"
}
field_is() { [ "$(platoon_field "$1")" = "$2" ]; }
near() {  # near A B TOLERANCE: |A - B| <= TOLERANCE
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}
selected_units_are() { [ "$(ui_field sim 7)" = "$1" ]; }
goal_is() { near "$(platoon_field goal_x)" "$1" 1 && near "$(platoon_field goal_y)" "$2" 1; }

start_app open "$scenario"
locate_client_area

# ---- Units tool: box the platoon -----------------------------------------------------
press u
[ "$(ui tool)" = units ] || fail "U did not select the units tool (tool: $(ui tool))"
drag 12 32 46 78
wait_until "$ui_timeout" field_is selected 1 || fail "the box round the platoon selected $(platoon_field selected) platoons, not 1"
[ "$(ui_field sim 7)" = 4 ] || fail "the box selected $(ui_field sim 7) units, not the platoon's 4"
[ "$(platoon_field order)" = 0 ] || fail "the platoon has an order before any was given ($(ui platoon))"
shot selected

# ---- A right drag orders it east of the building, facing north -----------------------
read -r ax ay < <(to_screen 130 60)
read -r bx by < <(to_screen 130 44)
drag_screen 3 "$ax" "$ay" "$bx" "$by" 15
wait_until "$ui_timeout" field_is order 1 || fail "the right drag gave the platoon no order ($(ui platoon))"
near "$(platoon_field goal_x)" 130 1 && near "$(platoon_field goal_y)" 60 1 ||
  fail "the platoon was ordered to ($(platoon_field goal_x), $(platoon_field goal_y)), not where the drag began (130, 60)"
near "$(platoon_field heading)" 90 3 || fail "the drag north set a final heading of $(platoon_field heading) degrees, not 90"
[ "$(ui_field sim 3)" = 0 ] || fail "the order advanced time ($(ui_field sim 3) steps)"
note "right drag: ordered to ($(platoon_field goal_x), $(platoon_field goal_y)) facing $(platoon_field heading) degrees"

click_item sim_play
wait_until "$ui_timeout" field_is order 2 || fail "the platoon did not start driving after Play ($(ui platoon))"
shot driving
wait_until 90 field_is phase 4 || fail "the platoon did not arrive within 90 s ($(ui platoon); phase 4 = arrived)"
near "$(platoon_field x)" 130 3 && near "$(platoon_field y)" 60 3 ||
  fail "the platoon arrived at ($(platoon_field x), $(platoon_field y)), not at (130, 60)"
shot arrived
moved=$(diff_canvas selected arrived)
note "arrived at ($(platoon_field x), $(platoon_field y)); canvas pixels changed: $moved"
[ "$moved" -ge 300 ] || fail "the platoon's trip hardly changed the picture ($moved pixels; screenshots in $out)"

# ---- The formation combo -------------------------------------------------------------
click_item platoon_formation
click_item platoon_formation_diamond
wait_until "$ui_timeout" field_is shape 4 || fail "choosing diamond left the platoon's formation shape $(platoon_field shape) (4 = custom)"
# The platoon closes up into its new shape: a hundred steps (3.3 simulated seconds).
diamond_from=$(ui_field sim 3)
steps_above() { [ "$(ui_field sim 3)" -gt "$1" ] 2>/dev/null; }
wait_until "$ui_timeout" steps_above $((diamond_from + 100)) || fail "the simulation stopped after the formation changed ($(ui sim))"
shot diamond
note "formation changed to the scenario's diamond"

# ---- A right click orders a mixed selection ------------------------------------------
read -r ux uy < <(to_screen 20 100)
click_screen "$ux" "$uy" 1 shift
wait_until "$ui_timeout" selected_units_are 5 || fail "Shift+click on an infantry unit left $(ui_field sim 7) units selected, not 5"
read -r rx ry < <(to_screen 40 20)
click_screen "$rx" "$ry" 3
wait_until "$ui_timeout" goal_is 40 20 || fail "the right click did not order the platoon to (40, 20) ($(ui platoon))"
[ "$(platoon_field heading)" = nan ] || fail "a right click without a drag set a final heading ($(platoon_field heading))"
[ "$(ui_field sim 6)" = 5 ] || fail "$(ui_field sim 6) units have a move order, not the platoon's 4 and the infantry unit ($(ui sim))"
wait_until 90 field_is phase 4 || fail "the platoon did not arrive at (40, 20) within 90 s ($(ui platoon))"
shot second_order
note "Shift+click and a right click: platoon and infantry ordered to (40, 20); the platoon arrived"

stop_app
note "PASS"

#!/usr/bin/env bash
# The unit simulation in the real window: the editor in a virtual X server with a window
# manager (openbox), driven like a user with xdotool, checked by screenshots and by what
# the window reports of itself ($PATHSCOPE_UI_STATE's "sim" line: exists, playing, steps,
# units alive, arrived, ordered, selected, state hash).
#
#   scripts/sim_window_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# SCENARIO (default tests/data/sim_window_test.json: six blue troopers west of a wall
# with gaps, without orders; four red tanks east of it, three with a move or waypoints
# order and one patrolling) is opened. Then:
#   - the Simulation section's Play builds and runs the simulation: the tanks move;
#   - the units tool (U) boxes the blue squad with a left drag (many small moves with the
#     button held), a right click orders it east, a Shift+right click adds a waypoint:
#     the units move, the picture changes, the state hash changes;
#   - Pause stops the steps, Step adds exactly one;
#   - Reset goes back to step 0, and Reset + Step twice gives the same hash twice;
#   - an obstacle drawn while it plays reaches the simulation (it keeps running), undo
#     removes it; the Settings node opens, its passages checkbox edits the scenario and
#     undo puts it back; Close discards the simulation and the map is as opened; the app closes
#     cleanly.
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb). Needs Xvfb, xdotool and ImageMagick;
# uses openbox when installed. Screenshots are kept in $SMOKE_OUT_DIR if set.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
window_test_begin "sim window test" "$here/tests/data/sim_window_test.json" 1400 900 "$@"

sim_field() {  # sim_field NAME: a field of the "sim" line
  local n
  case "$1" in exists) n=1;; playing) n=2;; steps) n=3;; units) n=4;; arrived) n=5;; ordered) n=6;;
    selected) n=7;; hash) n=8;; *) fail "unknown sim field $1";; esac
  ui_field sim "$n"
}

start_app open "$scenario"
locate_client_area

click_world() {  # click_world BUTTON WX WY [MODIFIER]
  local sx sy
  read -r sx sy < <(to_screen "$2" "$3")
  click_screen "$sx" "$sy" "$1" "${4:-}"
}
sim_field_is() { [ "$(sim_field "$1")" = "$2" ]; }
sim_field_above() { [ "$(sim_field "$1")" -gt "$2" ] 2>/dev/null; }
sim_field_not() { [ "$(sim_field "$1")" != "$2" ]; }

# ---- Nothing runs until asked --------------------------------------------------------
[ "$(sim_field exists)" = 0 ] || fail "a simulation exists before Play"
shot opened

# ---- Play builds and runs it ---------------------------------------------------------
click_item sim_play
wait_until "$ui_timeout" sim_field_is exists 1 || { cat "$work/app.log" >&2; fail "Play built no simulation"; }
[ "$(sim_field playing)" = 1 ] || fail "the simulation does not play after Play"
[ "$(sim_field units)" = 10 ] || fail "the simulation has $(sim_field units) units, not the scenario's 10"
# Ten steps played, however long they take.
wait_until "$ui_timeout" sim_field_above steps 9 || fail "the simulation made $(sim_field steps) steps in $ui_timeout s of play"
steps=$(sim_field steps)
[ "$(sim_field ordered)" = 3 ] || fail "$(sim_field ordered) units with a move or waypoints order, not the scenario's 3"
hash_playing=$(sim_field hash)
shot playing
wait_until "$ui_timeout" sim_field_not hash "$hash_playing" || fail "the state hash stands still while the ordered tanks play"
note "Play: $steps steps, 10 units, 3 with orders, moving"

# ---- Units tool: box the blue squad, order it east, add a waypoint -----------------
press u
[ "$(ui tool)" = units ] || fail "U did not select the units tool (tool: $(ui tool))"
drag 5 9 14 30
wait_until "$ui_timeout" sim_field_is selected 6
[ "$(sim_field selected)" = 6 ] || fail "the box round the blue squad selected $(sim_field selected) units, not 6"
shot selected
hash_before=$(sim_field hash)
click_world 3 52 20
wait_until "$ui_timeout" sim_field_is ordered 9
[ "$(sim_field ordered)" = 9 ] || fail "after a right click $(sim_field ordered) units have orders, not the 3 tanks and 6 selected"
click_world 3 56 34 shift
[ "$(sim_field ordered)" = 9 ] || fail "Shift+right click left $(sim_field ordered) units ordered"
# The units on their way: ninety steps (three simulated seconds) after the order.
after_order=$(sim_field steps)
wait_until "$ui_timeout" sim_field_above steps $((after_order + 90)) ||
  fail "the simulation made $(($(sim_field steps) - after_order)) steps after the order in $ui_timeout s"
shot ordered
[ "$(sim_field hash)" != "$hash_before" ] || fail "the state hash did not change after the order"
moved=$(diff_canvas selected ordered)
note "box select: 6 units; ordered east; canvas pixels changed by their moving: $moved"
[ "$moved" -ge 300 ] || fail "the ordered units hardly changed the picture ($moved pixels; screenshots in $out)"

# ---- Pause stops, Step adds exactly one --------------------------------------------
click_item sim_play
[ "$(sim_field playing)" = 0 ] || fail "Pause did not pause"
paused=$(sim_field steps)
# Frames go on (the pointer moves over the canvas); the steps do not.
for dx in 0 40 80; do pointer_to $((origin_x + (cx0 + cx1) / 2 + dx)) $((origin_y + (cy0 + cy1) / 2)); done
wait_settled
[ "$(sim_field steps)" = "$paused" ] || fail "steps went on while paused ($paused, then $(sim_field steps))"
click_item sim_step
[ "$(sim_field steps)" = $((paused + 1)) ] || fail "Step went from $paused to $(sim_field steps) steps, not one more"
note "paused at $paused steps; Step made it $((paused + 1))"

# ---- Reset: step 0; the same steps give the same hash -------------------------------
click_item sim_reset
[ "$(sim_field steps)" = 0 ] || fail "Reset left $(sim_field steps) steps"
[ "$(sim_field playing)" = 0 ] || fail "Reset left the simulation playing"
[ "$(sim_field ordered)" = 3 ] || fail "after Reset $(sim_field ordered) units have orders, not the scenario's 3"
click_item sim_step
first=$(sim_field hash)
click_item sim_reset
click_item sim_step
second=$(sim_field hash)
[ "$first" = "$second" ] || fail "Reset + Step gave hash $first, then $second"
note "Reset + Step gives $first both times"

# ---- An edit while it plays reaches the simulation; undo removes it -----------------
click_item sim_play
revision_before=$(ui revision)
press r
drag 44 2 50 8
[ "$(ui revision)" != "$revision_before" ] || fail "the rectangle changed nothing in the document"
[ "$(sim_field exists)" = 1 ] && [ "$(sim_field playing)" = 1 ] || fail "the simulation stopped after an edit"
steps_after_edit=$(sim_field steps)
wait_until "$ui_timeout" sim_field_above steps "$steps_after_edit" || fail "the simulation stopped stepping after an edit"
press z ctrl
shot edited
note "an obstacle drawn while playing: the simulation runs on ($(sim_field steps) steps)"

# ---- The settings: a checkbox edits the scenario's sim block, undo puts it back ------
click_item sim_settings
[ "$(ui_field sim_settings 4)" = 1 ] || fail "narrow passages are not on by default ($(ui sim_settings))"
revision_before=$(ui revision)
click_item sim_passages_setting
[ "$(ui_field sim_settings 4)" = 0 ] || fail "the passages checkbox did not turn them off ($(ui sim_settings))"
[ "$(ui revision)" != "$revision_before" ] || fail "the settings edit changed nothing in the document"
shot settings
press z ctrl
[ "$(ui_field sim_settings 4)" = 1 ] || fail "undo did not turn the passages back on ($(ui sim_settings))"
note "settings: the passages checkbox turned them off, undo back on"
click_item sim_settings

# ---- Close: the simulation is gone, the scenario's units show where they stood ------
click_item sim_close
[ "$(sim_field exists)" = 0 ] || fail "Close left the simulation in place"
shot closed
back=$(diff_canvas opened closed)
note "closed: canvas pixels differing from the opened scenario: $back"
[ "$back" -le 200 ] || fail "after Close the map differs from the opened scenario in $back pixels (screenshots in $out)"

# ---- Close: SIGTERM ends the app at once and cleanly (nothing unsaved after undo) ----
stop_app
note "PASS"

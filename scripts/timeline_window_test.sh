#!/usr/bin/env bash
# Recordings in the real window: a run recorded headless (`pathscope simulate --record`)
# opened in the editor under a virtual X server with a window manager (openbox), driven
# like a user with xdotool, checked by screenshots and by what the window reports of
# itself ($PATHSCOPE_UI_STATE's "timeline" line: recording, first and last steps, step
# shown, viewing a recorded step, its decoded state has the recorded hash, decisions,
# stuck flags, selected units, hash shown).
#
#   scripts/timeline_window_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# SCENARIO (default maps/sim_bridge.json: two columns meeting at a narrow bridge, whose
# queues the stuck detector flags) is run 600 steps with --record. Then, in the window:
#   - the recording opens at its first step, with no simulation;
#   - a drag of the timeline's slider (many small moves with the button held) scrubs to
#     a later step: the units moved on the canvas, and the hash shown is the one a fresh
#     headless run has at that step;
#   - one step back, one step forward: the hashes of a fresh run at those steps;
#   - the units tool (U) on the recorded step shown: two clicks on the map and a box round
#     it select units and leave the step as it was (selecting never advances time);
#   - the window's stuck count at the step shown is `pathscope simulate --steps N`'s;
#   - File > Save Game As on the step shown writes that step (run on one step, it has a
#     fresh run's hash), and the status bar says so;
#   - the stuck list's first entry selects its unit and shows the moment before it got
#     stuck; its log reads whole (its widest entry ends inside the list); its first
#     entry jumps there; the next event button moves on;
#   - Run from here takes the run up again: Step then gives the hash a fresh run has one
#     step later; the app closes cleanly.
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb). Needs Xvfb, xdotool and ImageMagick;
# uses openbox when installed. Screenshots are kept in $SMOKE_OUT_DIR if set.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
window_test_begin "timeline window test" "$here/maps/sim_bridge.json" 1400 900 "$@"

timeline() {  # timeline FIELD: a field of the "timeline" line
  local n
  case "$1" in recording) n=1;; first) n=2;; last) n=3;; shown) n=4;; viewing) n=5;; verified) n=6;;
    decisions) n=7;; stuck) n=8;; selected) n=9;; hash) n=10;; *) fail "unknown timeline field $1";; esac
  ui_field timeline "$n"
}
# The state hash a fresh headless run of the scenario has after N steps.
fresh_hash() {
  "$binary" simulate "$scenario" --steps "$1" --json | sed -n 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/p'
}

"$binary" simulate "$scenario" --steps 600 --record "$work/run.psrec" >"$work/record.log" 2>&1 ||
  { cat "$work/record.log" >&2; fail "pathscope simulate --record failed"; }
note "$(tail -n1 "$work/record.log")"

start_app open "$work/run.psrec"
locate_client_area

# ---- Opened: the first step, nothing simulated ---------------------------------------
[ "$(timeline recording)" = 1 ] || { cat "$work/app.log" >&2; fail "the recording did not open ($(ui timeline))"; }
[ "$(timeline first)" = 0 ] && [ "$(timeline last)" = 600 ] || fail "recorded steps $(timeline first) to $(timeline last), not 0 to 600"
[ "$(timeline shown)" = 0 ] && [ "$(timeline viewing)" = 1 ] || fail "the recording does not show its first step ($(ui timeline))"
[ "$(ui_field sim 1)" = 0 ] || fail "opening a recording made a simulation"
shot opened

# ---- Scrub: drag the slider from its start to two thirds along ------------------------
read -r x0 y0 x1 y1 < <(ui "item sim_timeline")
[ -n "${y1:-}" ] || fail "no timeline slider on screen"
ymid=$((origin_y + (y0 + y1) / 2))
drag_screen 1 $((origin_x + x0 + 6)) "$ymid" $((origin_x + x0 + (x1 - x0) * 2 / 3)) "$ymid" 30
shown=$(timeline shown)
[ "$shown" -ge 300 ] && [ "$shown" -le 500 ] || fail "the drag scrubbed to step $shown, not about two thirds of 600"
[ "$(timeline verified)" = 1 ] || fail "step $shown decoded to a state whose hash differs from the recorded one"
want=$(fresh_hash "$shown")
[ "$(timeline hash)" = "$want" ] || fail "step $shown shows hash $(timeline hash); a fresh run has $want"
shot scrubbed
moved=$(diff_canvas opened scrubbed)
[ "$moved" -ge 200 ] || fail "scrubbing to step $shown hardly changed the picture ($moved pixels)"
note "scrubbed to step $shown: the fresh run's hash $want; $moved canvas pixels changed"

# ---- One stuck count: the section's and the list's are simulate's at that step ---------
# ("stuck" line: units stuck at the step shown, as the Simulation section and the header of
# its stuck list show them; stuck flags of the run.)
stuck_window=$(ui_field stuck 1)
stuck_cli=$("$binary" simulate "$scenario" --steps "$shown" --json | sed -n 's/.*"stuck":\([0-9]*\),.*/\1/p')
[ -n "$stuck_cli" ] || fail "pathscope simulate --json printed no stuck count"
[ "$stuck_window" = "$stuck_cli" ] ||
  fail "step $shown: the window counts '$stuck_window' units stuck, pathscope simulate --steps $shown $stuck_cli"
note "step $shown: $stuck_window units stuck in the window and in pathscope simulate"

# ---- Save Game As saves the step on screen, and the status bar says so -----------------
click_item menu_file
click_item menu_save_game
wait_ui focus '^1 1$'  # the dialog's path field takes the keys
press a ctrl
type_text "$work/at_step.json"
press Return
saved() { [ -s "$work/at_step.json" ]; }
wait_until "$ui_timeout" saved || true
[ -s "$work/at_step.json" ] || { shot save_game_failed; fail "Save Game As wrote no $work/at_step.json (message: $(ui message))"; }
on=$("$binary" simulate "$work/at_step.json" --steps 1 --json)
echo "$on" | grep -q "\"steps\":$((shown + 1))," ||
  fail "the game saved at step $shown runs on to $(echo "$on" | sed -n 's/.*"steps":\([0-9]*\),.*/\1/p'), not step $((shown + 1))"
want=$(fresh_hash $((shown + 1)))
echo "$on" | grep -q "\"state_hash\":\"$want\"" || fail "the game saved at step $shown, run on one step, differs from a fresh run"
wait_until "$ui_timeout" ui_matches message '^saved game' || true
case "$(ui message)" in
  "saved game $work/at_step.json (step $shown,"*) ;;
  *) fail "after Save Game As the status bar says '$(ui message)'" ;;
esac
[ -n "$(ui "item status_message")" ] || fail "the status bar shows no message"
[ "$(timeline shown)" = "$shown" ] || fail "saving the game moved the timeline to step $(timeline shown)"
shot saved_game
note "Save Game As on step $shown: the file holds step $shown; the status bar says '$(ui message)'"

# ---- One step back and forward --------------------------------------------------------
click_item sim_back
[ "$(timeline shown)" = $((shown - 1)) ] || fail "step back went from $shown to $(timeline shown)"
[ "$(timeline hash)" = "$(fresh_hash $((shown - 1)))" ] || fail "step $((shown - 1)) shows another hash than a fresh run"
click_item sim_forward
[ "$(timeline shown)" = "$shown" ] || fail "step forward went to $(timeline shown), not back to $shown"
note "one step back and forward: the fresh run's hashes"

# ---- The units tool on the paused recording: clicks select, time stays -----------------
press u
[ "$(ui tool)" = units ] || fail "U did not select the units tool (tool: $(ui tool))"
for click in 1 2; do
  click_screen $((origin_x + (cx0 + cx1) / 2)) $((origin_y + (cy0 + cy1) / 2))
  [ "$(timeline shown)" = "$shown" ] && [ "$(timeline viewing)" = 1 ] ||
    fail "a click with the units tool on recorded step $shown moved the timeline to step $(timeline shown) (viewing $(timeline viewing))"
done
[ "$(ui_field sim 1)" = 0 ] || fail "a click with the units tool on a recorded step made a simulation"
read -r ax ay < <(to_screen 1 1)
read -r bx by < <(to_screen "$(ui_field world 1)" "$(ui_field world 2)")
drag_screen 1 "$ax" "$ay" $((bx - 2)) $((by - 2)) 10
[ "$(timeline shown)" = "$shown" ] || fail "a box with the units tool moved the timeline to step $(timeline shown)"
[ "$(timeline selected)" -ge 1 ] || fail "a box round the map with the units tool selected no unit"
note "units tool on step $shown: two clicks and a box ($(timeline selected) selected), the step stays"
press v

# ---- Stuck units: the first one, the moment before; its log; the next event -----------
[ "$(timeline stuck)" -ge 1 ] || fail "no stuck flags in the recording ($(ui timeline))"
click_item sim_stuck
click_item sim_stuck_first
[ "$(timeline selected)" = 1 ] || fail "clicking the stuck unit selected $(timeline selected) units"
before=$(timeline shown)
[ "$before" -lt 300 ] || fail "the stuck unit's moment before is step $before, after it got stuck"
shot stuck
# The unit's log reads whole at the default layout: its widest entry ends inside the list.
read -r _ _ lx1 _ < <(ui "item sim_log_list")
read -r _ _ wx1 _ < <(ui "item sim_log_widest")
[ -n "${lx1:-}" ] && [ -n "${wx1:-}" ] || fail "no unit log on screen after selecting the stuck unit"
[ "$wx1" -le "$lx1" ] || fail "the unit log's widest entry ends at x $wx1, past the list's edge at $lx1 (cut off)"
click_item sim_log_first
logged=$(timeline shown)
note "stuck unit: shown from step $before; its log's first entry is at step $logged"
click_item sim_next_event
[ "$(timeline shown)" -gt "$logged" ] || fail "the next event did not move on from step $logged"

# ---- Run from here: the simulation goes on exactly ------------------------------------
at=$(timeline shown)
click_item sim_run_here
[ "$(ui_field sim 1)" = 1 ] || { cat "$work/app.log" >&2; fail "Run from here made no simulation"; }
[ "$(ui_field sim 3)" = "$at" ] || fail "Run from here made a simulation at step $(ui_field sim 3), not $at"
[ "$(timeline viewing)" = 0 ] || fail "after Run from here the timeline still shows a recorded step"
click_item sim_step
[ "$(ui_field sim 3)" = $((at + 1)) ] || fail "Step after Run from here went to step $(ui_field sim 3)"
want=$(fresh_hash $((at + 1)))
[ "$(ui_field sim 8)" = "$want" ] || fail "taken up at step $at and stepped: hash $(ui_field sim 8), a fresh run has $want"
note "run from step $at, one step on: the fresh run's hash $want"

stop_app
note "PASS"

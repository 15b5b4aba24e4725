#!/usr/bin/env bash
# DetourCrowd beside the unit simulation in the real window, driven like a user under a
# virtual X server with openbox; every step waits for the UI state file
# ($PATHSCOPE_UI_STATE: its "crowd" line, mode 0 ours / 1 DetourCrowd / 2 both, a crowd
# run exists, it is drawn, steps, agents, agents moved more than 0.5 m, at goal, ordered,
# overlapping pairs, tunnelled) to show its effect (no fixed waits for results):
#   - the Simulation section's combo turns on "both side by side": both runs are built at
#     step 0, one agent a unit;
#   - Play steps both together: the tanks' agents move, step for step with ours;
#   - the units tool boxes the blue squad and a right click orders it east: its six agents
#     take the order too and move;
#   - "DetourCrowd" alone hides our units and keeps the crowd drawn; "ours" drops it.
#
#   tests/app/window/crowd_window_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# SCENARIO (default tests/data/sim_window_test.json: six blue troopers west of a wall with
# gaps, no orders; four red tanks east of it, three with orders, one patrolling).
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb). Screenshots go to $SMOKE_OUT_DIR when
# set (crowd_both.png, crowd_ordered.png, crowd_alone.png).

set -u

here=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../../../scripts/window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
window_test_begin "crowd window test" "$here/tests/data/sim_window_test.json" 1400 900 "$@"

crowd_field() {  # crowd_field NAME: a field of the "crowd" line
  local n
  case "$1" in mode) n=1;; exists) n=2;; drawn) n=3;; steps) n=4;; agents) n=5;; moved) n=6;;
    at_goal) n=7;; ordered) n=8;; overlaps) n=9;; tunnelled) n=10;; *) fail "unknown crowd field $1";; esac
  ui_field crowd "$n"
}
# wait_at_least NAME N: until crowd field NAME is at least N.
crowd_reaches() { [ "$(crowd_field "$1")" -ge "$2" ] 2>/dev/null; }
wait_at_least() {
  wait_until "$ui_timeout" crowd_reaches "$1" "$2" ||
    fail "crowd $1 is $(crowd_field "$1"), never reached $2 within $ui_timeout s ($(ui crowd))"
}
maybe_shot() { [ -z "${SMOKE_OUT_DIR:-}" ] || shot "$1"; }

start_app open "$scenario"
locate_client_area
wait_ui crowd '^0 0 0 0 0 0 0 0 0 0$'

# ---- Both side by side: the two runs start together ------------------------------------
click_item sim_crowd_mode
wait_ui 'item sim_crowd_mode_both' '.'
click_item sim_crowd_mode_both
wait_ui crowd '^2 1 1 0 10 0 '
wait_ui sim '^1 0 0 10 '
[ "$(crowd_field ordered)" = 3 ] || fail "$(crowd_field ordered) agents have a target, not the 3 ordered tanks ($(ui crowd))"
note "both side by side: 10 agents, 3 with targets, at step 0 with ours"

# ---- Play: both step together and the tanks' agents move -------------------------------
click_item sim_play
wait_ui sim '^1 1 '
wait_at_least moved 3
click_item sim_play  # pause
wait_ui sim '^1 0 '
[ "$(crowd_field steps)" = "$(ui_field sim 3)" ] ||
  fail "DetourCrowd made $(crowd_field steps) steps, ours $(ui_field sim 3): not stepped together"
[ "$(crowd_field tunnelled)" = 0 ] || fail "the crowd referee saw $(crowd_field tunnelled) agents tunnel"
note "played: $(crowd_field steps) steps each, $(crowd_field moved) agents moved"

# ---- The same orders: the blue squad's agents go east too ------------------------------
press u
wait_ui tool '^units$'
drag 5 9 14 30
wait_ui sim '^1 0 [0-9]+ 10 [0-9]+ [0-9]+ 6 '
read -r rx ry < <(to_screen 52 20)
click_screen "$rx" "$ry" 3
wait_ui crowd '^2 1 1 [0-9]+ 10 [0-9]+ [0-9]+ 9 '
moved_before=$(crowd_field moved)
click_item sim_play
wait_at_least moved $((moved_before + 6))
maybe_shot crowd_ordered
note "ordered east: 9 agents with targets, $(crowd_field moved) moved; $(ui crowd)"

# ---- DetourCrowd alone, then ours alone --------------------------------------------------
click_item sim_crowd_mode
wait_ui 'item sim_crowd_mode_detour' '.'
click_item sim_crowd_mode_detour
wait_ui crowd '^1 1 1 '
maybe_shot crowd_alone
click_item sim_crowd_mode
wait_ui 'item sim_crowd_mode_ours' '.'
click_item sim_crowd_mode_ours
wait_ui crowd '^0 0 0 '
wait_ui sim '^1 1 '
stop_app
note "PASS"

#!/usr/bin/env bash
# Live re-planning of the tactical planner (seed 001) in the real window: the editor in a
# virtual X server with a window manager (openbox), driven like a user with xdotool,
# checked by screenshots and by what the window reports of itself ($PATHSCOPE_UI_STATE's
# "result" line: busy, status, cost, length, threat exposure, path points, trace version).
#
#   scripts/tactical_window_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# SCENARIO (default tests/data/tactical_window_test.json: a 64 x 40 m field, one query
# from (4.5, 20.5) to (59.5, 20.5) planned by `tactical`, a threat of radius 7 at
# (32.5, 7.5) north of it, an ally south-east) is opened. Then:
#   - the path is found straight, with no threat exposure, at cost 55 * c1 = 13.75;
#   - the select tool (V) drags the threat onto the path in many small moves with the
#     button held: half-way, with the button still down, the result has already changed
#     (re-planned live); after the release the path runs through the threat's diameter
#     (exposure about 14 m, cost about 20.75) and the canvas round the path differs;
#   - one undo (Ctrl+Z) puts the threat back: the same cost, length and exposure as at
#     first, the canvas round the path as before, and (the selection cleared by a click
#     on open ground) the whole canvas as it was opened;
#   - the planner's parameters are a section of the search debugger, closed at first (the
#     debugger's timeline stays in the window); opened, its mode field is a list, and
#     choosing "exact" in it plans the query in mode 2.
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb). Needs Xvfb, xdotool and ImageMagick;
# uses openbox when installed. Screenshots are kept in $SMOKE_OUT_DIR if set.

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
window_test_begin "tactical window test" "$here/tests/data/tactical_window_test.json" 1400 900 "$@"

result_field() {  # result_field NAME: a field of the "result" line
  local n
  case "$1" in busy) n=1;; status) n=2;; cost) n=3;; length) n=4;; exposure) n=5;; points) n=6;; version) n=7;;
    *) fail "unknown result field $1";; esac
  ui_field result "$n"
}
result_ready() { [ "$(result_field busy)" = 0 ] && [ "$(result_field status)" != none ]; }
wait_result() {  # waits until no search runs and the active query has a result
  wait_until "$ui_timeout" result_ready || fail "no settled result within $ui_timeout s (result line: $(ui result))"
}
near() {  # near A B TOL: |A - B| <= TOL
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit d <= t ? 0 : 1 }'
}
greater() { awk -v a="$1" -v b="$2" 'BEGIN { exit a > b ? 0 : 1 }'; }
diff_world_box() {  # diff_world_box SHOT_A SHOT_B WX0 WY0 WX1 WY1: differing pixels inside a world box
  local ax ay bx by
  read -r ax ay < <(to_screen "$3" "$4")
  read -r bx by < <(to_screen "$5" "$6")
  convert "$out/$1.png" -crop "$((bx - ax))x$((by - ay))+$ax+$ay" +repage "$work/box_a.png"
  convert "$out/$2.png" -crop "$((bx - ax))x$((by - ay))+$ax+$ay" +repage "$work/box_b.png"
  compare -metric AE -fuzz 5% "$work/box_a.png" "$work/box_b.png" null: 2>&1 | sed 's/[^0-9.e+].*//' | awk '{printf "%d", $1}'
}

start_app open "$scenario"
locate_client_area

# ---- The path is found straight, outside the threat ------------------------------------
wait_result
[ "$(result_field status)" = found ] || fail "the tactical query was not found: $(ui result)"
cost0=$(result_field cost)
exposure0=$(result_field exposure)
length0=$(result_field length)
version0=$(result_field version)
near "$cost0" 13.75 1e-6 || fail "the straight path costs $cost0, not 55 m * c1 = 13.75"
near "$exposure0" 0 1e-9 || fail "the path is exposed $exposure0 m before the threat moves"
shot before
note "found: cost $cost0, length $length0 m, exposure $exposure0 m"

# ---- Drag the threat onto the path with the select tool ---------------------------------
press v
[ "$(ui tool)" = select ] || fail "V did not select the select tool (tool: $(ui tool))"
revision0=$(ui revision)
read -r ax ay < <(to_screen 32.5 7.5)
read -r bx by < <(to_screen 32.5 20.5)
pointer_to "$ax" "$ay"
button_down 1
steps=30
for i in $(seq 1 "$steps"); do
  pointer_to $((ax + (bx - ax) * i / steps)) $((ay + (by - ay) * i / steps))
  if [ "$i" = $((steps / 2)) ]; then
    # Half-way (the threat's centre near y = 14, its disc over the path), the button held:
    # the document has changed and a search has run since.
    changed_and_planned() { [ "$(ui revision)" != "$revision0" ] && [ "$(result_field version)" != "$version0" ] && result_ready; }
    wait_until "$ui_timeout" changed_and_planned || true
    wait_result
    [ "$(ui revision)" != "$revision0" ] || fail "half-way through the drag the document is unchanged"
    [ "$(result_field version)" != "$version0" ] || fail "half-way through the drag nothing was planned again"
    mid_cost=$(result_field cost)
    greater "$mid_cost" "$cost0" || fail "half-way through the drag the cost is $mid_cost, not above $cost0"
    note "half-way, button held: re-planned, cost $mid_cost, length $(result_field length) m, exposure $(result_field exposure) m"
    import -window root "$out/during.png" || fail "cannot take the screenshot during"
  fi
done
button_up 1
wait_settled
wait_result
cost1=$(result_field cost)
exposure1=$(result_field exposure)
length1=$(result_field length)
[ "$(result_field status)" = found ] || fail "after the drag the query is not found: $(ui result)"
[ "$(result_field version)" != "$version0" ] || fail "the threat moved but nothing was planned again"
# Centred on the path (within a pointer pixel): the straight path crosses the diameter,
# 14 m, and costs (55 - e) * 0.25 + e * 0.75.
greater "$exposure1" 13.5 || fail "after the drag the path is exposed $exposure1 m, not about the threat's diameter (14 m)"
near "$cost1" "$(awk -v e="$exposure1" -v l="$length1" 'BEGIN { printf "%.9f", (l - e) * 0.25 + e * 0.75 }')" 1e-6 ||
  fail "after the drag the cost $cost1 is not (length $length1 - exposure $exposure1) * c1 + exposure * c2"
shot after
around=$(diff_world_box before after 4 13 60 28)
note "threat on the path: cost $cost1, length $length1 m, exposure $exposure1 m; pixels changed round the path: $around"
[ "$around" -ge 2000 ] || fail "the canvas round the path hardly changed ($around pixels; screenshots in $out)"

# ---- Undo puts the threat back, and the path ---------------------------------------------
press z ctrl
cost_is() { [ "$(result_field cost)" = "$1" ] && result_ready; }
wait_until "$ui_timeout" cost_is "$cost0" || true
wait_result
[ "$(result_field cost)" = "$cost0" ] || fail "after undo the cost is $(result_field cost), not $cost0"
[ "$(result_field exposure)" = "$exposure0" ] || fail "after undo the exposure is $(result_field exposure), not $exposure0"
[ "$(result_field length)" = "$length0" ] || fail "after undo the length is $(result_field length), not $length0"
# A click on open ground clears the selection, whose outline would differ from before.
read -r sx sy < <(to_screen 10 35)
click_screen "$sx" "$sy"
[ "$(result_field cost)" = "$cost0" ] || fail "a click on open ground changed the cost to $(result_field cost)"
shot undone
around_back=$(diff_world_box before undone 4 13 60 28)
[ "$around_back" -le 50 ] || fail "after undo the canvas round the path differs from before in $around_back pixels (screenshots in $out)"
back=$(diff_canvas before undone)
note "undo: cost $(result_field cost), exposure $(result_field exposure); canvas pixels differing from before: $around_back round the path, $back in all"
[ "$back" -le 200 ] || fail "after undo the canvas differs from before in $back pixels (screenshots in $out)"

# ---- The planner's parameters: a section of their own, mode a list of names --------------
[ -n "$(ui "item planner_params")" ] || fail "the search debugger has no parameters section"
[ -z "$(ui "item param mode")" ] || fail "the parameters section is open at first: its fields push the debugger down"
eval "$(xdotool getwindowgeometry --shell "$wid")"
read -r _ _ _ timeline_y1 < <(ui "item timeline")
[ -n "${timeline_y1:-}" ] && [ "$timeline_y1" -le "$HEIGHT" ] ||
  fail "the debugger's timeline is not in the window (its bottom at '${timeline_y1:-}', the window $HEIGHT px high)"
click_item planner_params
[ -n "$(ui "item param mode" | head -n1)" ] || fail "opening the parameters section shows no mode field"
[ "$(ui planner | awk '{ print $1, $4 }')" = "tactical 0" ] || fail "the planner line reads '$(ui planner)', not tactical in mode 0"
click_item "param mode"
[ -n "$(ui "item param mode = exact")" ] || fail "the mode field lists no 'exact' (items: $(grep -c '^item param mode' "$ui_file"))"
shot mode_list
click_item "param mode = exact"
planner_mode_is() { [ "$(ui planner | awk '{ print $1, $4 }')" = "$1 $2" ]; }
wait_until "$ui_timeout" planner_mode_is tactical 2 || true
wait_result
[ "$(ui planner | awk '{ print $1, $4 }')" = "tactical 2" ] || fail "choosing exact left the planner line at '$(ui planner)'"
[ "$(result_field status)" = found ] || fail "in exact mode the query is not found: $(ui result)"
shot mode_exact
note "parameters: a closed section at first; mode chosen from a list: $(ui planner)"

stop_app
note "PASS"

#!/usr/bin/env bash
# The real-window test: the editor in a virtual X server with a window manager
# (openbox), driven like a user with xdotool, checked by screenshots and by what the
# window reports of itself.
#
#   scripts/window_smoke_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# SCENARIO (default tests/data/window_test.json: an open field, one query across it,
# deep water as the brush's terrain) is opened as `pathscope FILE`. Then, each drag made
# of many small pointer moves with the button held, as a hand makes it:
#   - the map is fitted into the canvas between the side columns;
#   - the query tool places a query (picture changes, title gets "*"), undo removes it;
#   - the rectangle tool draws an obstacle across the path, undo restores the picture;
#   - a brush stroke paints the cells all along the stroke, not only where it started;
#   - a right-drag pans the map by exactly the drag, Space + left drag pans it back;
#   - the hover tooltip goes when the pointer leaves the canvas;
#   - dragging the search debugger's timeline slider scrubs the search back;
#   - "compare planners" opens the comparison's view under the canvas with every row on
#     screen; clicking a row selects it and highlights its path; its close button closes it;
#   - Play moves the drifting rock, Pause stops it, one undo puts it back;
#   - dragging the right column's inner edge resizes it;
#   - the window's new size is remembered in settings.json on exit;
#   - a broken file on the command line still opens the window, with the error pinned.
#
# The app writes what it shows to $PATHSCOPE_UI_STATE (canvas rectangle, camera, document
# revision, debugger step, hover): the test reads it to place the pointer on world points.
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb; CTest's SKIP_RETURN_CODE).
# Needs Xvfb, xdotool and ImageMagick (import, compare, convert); uses openbox when
# installed. Screenshots are kept in $SMOKE_OUT_DIR if set (else a temporary folder that
# is removed).

set -u

screen_w=1600
screen_h=1000
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
window_test_begin "window test" "$here/tests/data/window_test.json" "$screen_w" "$screen_h" "$@"

start_app "$scenario"
locate_client_area

diff_pixels() {  # pixels that differ by more than a few percent between two screenshots
  compare -metric AE -fuzz 5% "$out/$1.png" "$out/$2.png" null: 2>&1 | sed 's/[^0-9.e+].*//' | awk '{printf "%d", $1}'
}
pixel() {  # pixel SHOT X Y -> "R G B"
  convert "$out/$1.png" -format "%[fx:int(255*p{$2,$3}.r)] %[fx:int(255*p{$2,$3}.g)] %[fx:int(255*p{$2,$3}.b)]" info:
}
same_colour() {  # same_colour "R G B" "R G B"
  awk -v a="$1" -v b="$2" 'BEGIN { split(a, p, " "); split(b, q, " ");
    d = 0; for (i = 1; i <= 3; ++i) { e = p[i] - q[i]; d += e < 0 ? -e : e }; exit d <= 24 ? 0 : 1 }'
}

# ---- The map is fitted into the canvas, between the columns --------------------------
read -r world_w world_h < <(ui world)
read -r zoom ox oy < <(ui world_to_screen)
awk -v z="$zoom" -v ox="$ox" -v oy="$oy" -v w="$world_w" -v h="$world_h" \
    -v x0="$cx0" -v y0="$cy0" -v x1="$cx1" -v y1="$cy1" 'BEGIN {
  inside = ox >= x0 && oy >= y0 && ox + w * z <= x1 && oy + h * z <= y1;
  fills = w * z >= x1 - x0 - 81 || h * z >= y1 - y0 - 81;
  exit inside && fills ? 0 : 1 }' ||
  fail "the map (0,0)-($world_w,$world_h) at zoom $zoom, offset ($ox,$oy) is not fitted into the canvas ($cx0,$cy0)-($cx1,$cy1)"
note "map fitted into the canvas ($cx0,$cy0)-($cx1,$cy1) at $zoom px/m"

shot opened
title_opened=$(xdotool getwindowname "$wid")
case "$title_opened" in *"*"*) fail "the title shows a modified mark before any edit: '$title_opened'";; esac

# ---- Place a query: the query tool drags out a new one; undo removes it ------------
press q
drag 14 8 35 30
shot query_placed
title_query=$(xdotool getwindowname "$wid")
case "$title_query" in *"*"*) ;; *) fail "placing a query left no modified mark: '$title_query'";; esac
placed=$(diff_pixels opened query_placed)
note "pixels changed by placing a query: $placed"
[ "$placed" -ge 500 ] || fail "placing a query changed only $placed pixels (screenshots in $out)"
press z ctrl

# ---- A rectangle obstacle across the query's path, then undo ----------------------
press r
shot before
title_before=$(xdotool getwindowname "$wid")
case "$title_before" in *"*"*) fail "the title keeps a modified mark after undoing the query: '$title_before'";; esac
drag 30 5 35 30
shot after_rect
title_edited=$(xdotool getwindowname "$wid")
press z ctrl
shot after_undo
title_undone=$(xdotool getwindowname "$wid")
changed=$(diff_pixels before after_rect)
restored=$(diff_pixels before after_undo)
total=$((screen_w * screen_h))
note "pixels changed by the rectangle: $changed; still different after undo: $restored (of $total)"
[ "$changed" -ge 2000 ] || fail "drawing a rectangle across the path changed only $changed pixels (screenshots in $out)"
[ "$restored" -le $((total / 200)) ] || fail "after undo $restored pixels still differ from the start (screenshots in $out)"
[ "$changed" -ge $((restored * 5)) ] || fail "undo did not bring the picture back ($restored vs $changed pixels)"
case "$title_edited" in *"*"*) ;; *) fail "the title shows no modified mark '*' after the edit: '$title_edited'";; esac
case "$title_undone" in *"*"*) fail "the title keeps the modified mark after undoing back to the file's state: '$title_undone'";; esac

# ---- A brush stroke paints every cell along it -------------------------------------
# From (10.5, 32.5) to (50.5, 36.5): below the query's path, on open ground.
press b
revision_before=$(ui revision)
drag 10.5 32.5 50.5 36.5
shot brushed
revision_after=$(ui revision)
[ "$revision_after" != "$revision_before" ] || fail "the brush stroke changed nothing in the document"
missed=""
for i in $(seq 0 10); do
  wx=$(awk -v i="$i" 'BEGIN { printf "%.3f", 10.5 + 4 * i }')
  wy=$(awk -v i="$i" 'BEGIN { printf "%.3f", 32.5 + 0.4 * i }')
  read -r sx sy < <(to_screen "$wx" "$wy")
  if same_colour "$(pixel before "$sx" "$sy")" "$(pixel brushed "$sx" "$sy")"; then missed="$missed ($wx, $wy)"; fi
done
[ -z "$missed" ] || fail "the brush stroke left unpainted cells along it at:$missed (screenshots before.png, brushed.png in $out)"
read -r sx sy < <(to_screen 30.5 26.5)  # six cells off the stroke
same_colour "$(pixel before "$sx" "$sy")" "$(pixel brushed "$sx" "$sy")" || fail "the brush painted far off its stroke, at (30.5, 26.5)"
note "brush stroke: the 11 cells sampled along it are painted, the one beside it is not"
press z ctrl
shot brush_undone
[ "$(diff_canvas before brush_undone)" -le 100 ] || fail "undo did not remove the brush stroke in one step"

# ---- Pan: a right-drag moves the map by exactly the drag; Space + left drag back ----
read -r _ ox0 oy0 < <(ui world_to_screen)
read -r px py < <(to_screen 20 20)
drag_screen 3 "$px" "$py" $((px + 120)) $((py + 60)) 20
shot panned
read -r _ ox1 oy1 < <(ui world_to_screen)
moved=$(awk -v a="$ox0" -v b="$oy0" -v c="$ox1" -v d="$oy1" 'BEGIN { printf "%.1f %.1f", c - a, d - b }')
note "a right-drag of (120, 60) pixels moved the map by ($moved)"
[ "$moved" = "120.0 60.0" ] || fail "a right-drag of (120, 60) pixels moved the map by ($moved)"
# The picture moved too: the canvas before, shifted by the drag, matches the canvas after.
crop_w=$((cx1 - cx0 - 200))
crop_h=$((cy1 - cy0 - 120))
bx=$((origin_x + cx0 + 20))
by=$((origin_y + cy0 + 20))
convert "$out/before.png" -crop "${crop_w}x${crop_h}+${bx}+${by}" +repage "$work/pan_a.png"
convert "$out/panned.png" -crop "${crop_w}x${crop_h}+$((bx + 120))+$((by + 60))" +repage "$work/pan_b.png"
convert "$out/panned.png" -crop "${crop_w}x${crop_h}+${bx}+${by}" +repage "$work/pan_c.png"
shifted=$(compare -metric AE -fuzz 5% "$work/pan_a.png" "$work/pan_b.png" null: 2>&1 | sed 's/[^0-9.e+].*//' | awk '{printf "%d", $1}')
unshifted=$(compare -metric AE -fuzz 5% "$work/pan_a.png" "$work/pan_c.png" null: 2>&1 | sed 's/[^0-9.e+].*//' | awk '{printf "%d", $1}')
note "canvas pixels differing from the picture before, shifted by the drag: $shifted; not shifted: $unshifted"
[ "$shifted" -le $((crop_w * crop_h / 100)) ] || fail "the picture did not move with the pan ($shifted pixels differ; screenshots in $out)"
[ "$unshifted" -ge $((shifted * 5 + 100)) ] || fail "the pan check cannot tell a moved picture from a still one"
read -r px py < <(to_screen 20 20)
key_down space
drag_screen 1 "$px" "$py" $((px - 120)) $((py - 60)) 20
key_up space
wait_settled
read -r _ ox2 oy2 < <(ui world_to_screen)
back=$(awk -v a="$ox0" -v b="$oy0" -v c="$ox2" -v d="$oy2" 'BEGIN { printf "%.1f %.1f", c - a, d - b }')
[ "$back" = "0.0 0.0" ] || fail "Space + left drag of (-120, -60) did not bring the map back (it is off by $back)"
[ "$(ui revision)" = "$revision_after" ] || [ "$(ui modified)" = 0 ] || fail "the Space + drag pan edited the document"
note "Space + left drag of (-120, -60) brought the map back"

# ---- The hover tooltip goes when the pointer leaves the canvas ----------------------
read -r sx sy < <(to_screen 30 20)
pointer_to "$sx" "$sy"
pointer_to $((sx + 2)) "$sy"
wait_settled
[ "$(ui hover)" = 1 ] || fail "the pointer over the map is not seen as hovering the canvas"
pointer_to "$rest_x" "$rest_y"
wait_settled
[ "$(ui hover)" = 0 ] || fail "the canvas still hovers (and shows its tooltip) with the pointer over the tool column"
note "the canvas hover ends when the pointer leaves it"

# ---- Drag the search debugger's timeline slider back ---------------------------------
read -r step_now step_total < <(ui step)
[ "$step_total" -gt 10 ] || fail "the query's search has only $step_total steps"
[ "$step_now" = "$step_total" ] || fail "the debugger does not show the finished search (step $step_now of $step_total)"
# The timeline's grab sits at its right end (the search is finished).
read -r tx0 ty0 tx1 ty1 < <(ui "item timeline")
[ -n "${ty1:-}" ] || fail "the search debugger shows no timeline"
gx=$((origin_x + tx1 - 5))
gy=$((origin_y + (ty0 + ty1) / 2))
target=$((origin_x + tx0 + (tx1 - tx0) * 25 / 100))
note "timeline at ($tx0,$ty0)-($tx1,$ty1); dragging its grab from x $gx to x $target"
shot before_scrub
drag_screen 1 "$gx" "$gy" "$target" "$gy" 20
shot scrubbed
read -r step_scrubbed _ < <(ui step)
note "after dragging the timeline: step $step_scrubbed of $step_total"
[ "$step_scrubbed" -lt $((step_total * 2 / 3)) ] || fail "dragging the timeline slider did not scrub the search back (step $step_scrubbed of $step_total)"
scrub_changed=$(diff_canvas before_scrub scrubbed)
[ "$scrub_changed" -ge 200 ] || fail "scrubbing the timeline changed only $scrub_changed pixels"

# ---- "compare planners" opens the comparison's view: every row on screen, a row selects -
read -r _ _ _ canvas_bottom < <(ui canvas)
click_item compare_planners
wait_ui comparison '^([3-9]|[1-9][0-9]+) 1 '
wait_idle
read -r compared open _ _ < <(ui comparison)
read -r qx0 qy0 qx1 qy1 < <(ui "item compare_table")
read -r _ _ _ strip_top < <(ui canvas)
eval "$(xdotool getwindowgeometry --shell "$wid")"
rows_shown=$(grep -c '^item compare_row ' "$ui_file")
note "compare planners: $compared rows ($rows_shown on screen), view open $open, table at ($qx0,$qy0)-($qx1,$qy1), canvas bottom $canvas_bottom -> $strip_top"
[ "${compared:-0}" -ge 3 ] || fail "compare planners ran ${compared:-0} planners"
[ "$open" = 1 ] || fail "\"compare planners\" did not open the comparison's view"
[ -n "${qy1:-}" ] || fail "the comparison's table is not on screen after \"compare planners\""
# The strip takes at most 28 % of the window's height (the map keeps the rest); its table
# starts under the canvas and scrolls inside, with at least 5 rows on screen.
[ "$qy0" -ge "$strip_top" ] && [ "$qy0" -le "$HEIGHT" ] && [ "$qx1" -le "$WIDTH" ] ||
  fail "the comparison's table ($qx0,$qy0)-($qx1,$qy1) does not start under the canvas (bottom $strip_top) inside the ${WIDTH}x$HEIGHT window"
[ "$rows_shown" -ge 5 ] || fail "$rows_shown of the comparison's $compared rows are on screen (at least 5 should be)"
while read -r _ _ _ _ ry0 _ ry1; do
  [ "$ry0" -ge "$qy0" ] && [ "$ry1" -le "$qy1" ] || fail "a comparison row ($ry0-$ry1) is outside its table ($qy0-$qy1)"
done < <(grep '^item compare_row ' "$ui_file")
# The pointer rests on the menu bar's empty right end (no tooltip over the map), then a click on a row.
shot_here() {  # shot_here NAME: the pointer on the menu bar's empty right end, at rest, a screenshot
  pointer_to $((origin_x + WIDTH - 20)) $((origin_y + 5))
  pointer_to $((origin_x + WIDTH - 21)) $((origin_y + 5))
  wait_idle
  import -window root "$out/$1.png" || fail "cannot take the screenshot $1"
}
shot_here compared
click_item "compare_row dijkstra"
wait_ui comparison '^[0-9]+ 1 2 '
read -r _ _ picked _ < <(ui comparison)
shot_here compared_selected
cx1_saved=$cx1 cy1_saved=$cy1
cy1=$strip_top
highlighted=$(diff_canvas compared compared_selected)
cy1=$cy1_saved cx1=$cx1_saved
note "row dijkstra clicked: selected row $picked, $highlighted canvas pixels changed"
[ "$picked" = 2 ] || fail "clicking dijkstra's row selected row '$picked', not 2"
[ "$highlighted" -ge 50 ] || fail "selecting a row changed only $highlighted canvas pixels (its path is not highlighted)"
click_item compare_close
wait_ui comparison '^[0-9]+ 0 '
[ "$(ui_field comparison 2)" = 0 ] || fail "the comparison's close button did not close the view"
read -r _ _ _ canvas_back < <(ui canvas)
[ "$canvas_back" = "$canvas_bottom" ] || fail "with the comparison closed the canvas ends at $canvas_back, not $canvas_bottom"

# ---- Motion: Play moves the drifting rock, Pause stops it, one undo puts it back -------
shot before_motion
revision_before=$(ui revision)
click_item motion_play
wait_ui motion '^1 '
# Twenty steps played, however long they take.
wait_ui motion '^1 ([2-9][0-9]|[0-9]{3,})$'
click_item motion_play  # Pause now, in Play's place
wait_ui motion '^0 '
read -r playing steps_played < <(ui motion)
[ "$playing" = 0 ] || fail "the motion still plays after clicking Pause"
shot moved
moved_pixels=$(diff_canvas before_motion moved)
note "motion: $steps_played steps played, revision $revision_before -> $(ui revision), $moved_pixels canvas pixels changed"
[ "$moved_pixels" -ge 100 ] || fail "playing the motion changed only $moved_pixels canvas pixels"
press z ctrl
shot motion_undone
undone_pixels=$(diff_canvas before_motion motion_undone)
note "motion undone in one step: $undone_pixels canvas pixels differ from before"
[ "$undone_pixels" -le 50 ] || fail "one undo left $undone_pixels canvas pixels changed by the motion"
[ "$(ui motion | awk '{print $1}')" = 0 ] || fail "the motion plays again after undo"

# ---- The right column is resized by dragging its inner edge ---------------------------
read -r _ _ hi_before _ < <(ui canvas)
drag_screen 1 $((origin_x + hi_before)) $((origin_y + cy0 + 300)) $((origin_x + hi_before - 80)) $((origin_y + cy0 + 300)) 20
read -r _ _ hi_after _ < <(ui canvas)
note "dragging the right column's edge 80 px left: canvas right edge $hi_before -> $hi_after"
[ "$hi_after" -eq $((hi_before - 80)) ] || fail "dragging the right column's edge by -80 px moved the canvas edge from $hi_before to $hi_after"

# ---- The window's size is remembered ---------------------------------------------------
# The app reports the size the window manager gave, and has drawn at that size.
size_before="$(ui_field window 3) $(ui_field window 4)"
resized() {
  eval "$(xdotool getwindowgeometry --shell "$wid")"
  [ "$WIDTH $HEIGHT" != "$size_before" ] && [ "$(ui_field window 3) $(ui_field window 4)" = "$WIDTH $HEIGHT" ] && settled
}
xdotool windowsize "$wid" 1180 760
wait_until "$ui_timeout" resized || fail "the window was resized to 1180 x 760, the app reports $(ui window) within $ui_timeout s"
size_set="${WIDTH}x${HEIGHT}"
stop_app
settings="$PATHSCOPE_CONFIG_DIR/settings.json"
[ -f "$settings" ] || fail "no settings.json written on exit"
saved=$(tr -d ' \n' <"$settings" | sed -n 's/.*"height":\([0-9]*\).*"width":\([0-9]*\).*/\2x\1/p')
note "window resized to $size_set; settings.json remembers $saved"
[ "$saved" = "$size_set" ] || fail "the window was $size_set on exit but settings.json remembers '$saved'"
right_saved=$(tr -d ' \n' <"$settings" | sed -n 's/.*"right_column":\(-\{0,1\}[0-9]*\).*/\1/p')
[ "$right_saved" = 470 ] || fail "settings.json remembers the right column as '$right_saved' wide, not 470"

# ---- A broken file on the command line opens the window anyway, error pinned ---------
printf '{ "format": "pathscope-scenario", "version": 1, "world": ' >"$work/broken.json"
start_app "$work/broken.json"
wait_ui pinned_error '^1$'
title_broken=$(xdotool getwindowname "$wid")
note "opened a broken file: window '$title_broken', $(ui errors) error(s), pinned $(ui pinned_error)"
[ "$(ui errors)" -ge 1 ] && [ "$(ui pinned_error)" = 1 ] || fail "the broken file's error is not shown pinned in the window"
grep -q "broken.json" "$work/app.log" || fail "the broken file's error does not name the file on the terminal"
shot broken_file
stop_app

note "PASS"
exit 0

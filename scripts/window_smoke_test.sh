#!/usr/bin/env bash
# The real-window smoke test: the editor in a virtual X server, driven like a user.
#
#   scripts/window_smoke_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# Opens SCENARIO (default tests/data/smoke.json: one query whose straight path a wall
# across the middle cuts), takes a screenshot, selects the rectangle tool (r), drags a
# rectangle obstacle across the path, takes a screenshot, undoes (Ctrl+Z) and takes a
# third. Passes when the picture changed after the drag, came back (nearly identical
# to the first) after undo, and the window title carried the modified mark "*" only
# while the edit was there. Then asks the app to quit and expects a clean exit.
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb; CTest's SKIP_RETURN_CODE).
# Needs Xvfb, xdotool and ImageMagick (import, compare). Screenshots are kept in
# $SMOKE_OUT_DIR if set (else a temporary folder that is removed).

set -u

fail() { echo "window smoke test: FAIL: $*" >&2; exit 1; }
note() { echo "window smoke test: $*"; }

[ $# -ge 1 ] || { echo "usage: $0 PATHSCOPE_BINARY [SCENARIO]" >&2; exit 2; }
binary=$1
here=$(cd "$(dirname "$0")/.." && pwd)
scenario=${2:-$here/tests/data/smoke.json}
[ -x "$binary" ] || fail "no executable at $binary"
[ -f "$scenario" ] || fail "no scenario at $scenario"

if ! command -v Xvfb >/dev/null 2>&1; then
  echo "window smoke test: SKIPPED: Xvfb is not installed"
  exit 77
fi
for tool in xdotool import compare; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (xdotool / ImageMagick)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/pathscope_smoke.XXXXXX")
out=${SMOKE_OUT_DIR:-$work}
mkdir -p "$out"
xvfb_pid=""
app_pid=""
cleanup() {
  # Only the processes this script started, by their ids.
  if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then kill -9 "$app_pid" 2>/dev/null; fi
  if [ -n "$xvfb_pid" ] && kill -0 "$xvfb_pid" 2>/dev/null; then kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

# ---- A virtual X server on a free display (it picks the number itself) ----------------
screen_w=1600
screen_h=1000
Xvfb -screen 0 "${screen_w}x${screen_h}x24" -nolisten tcp -displayfd 3 3>"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do
  [ -s "$work/display" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || { cat "$work/xvfb.log" >&2; fail "Xvfb did not start"; }
  sleep 0.1
done
[ -s "$work/display" ] || fail "Xvfb did not report a display"
export DISPLAY=":$(head -n1 "$work/display")"
note "Xvfb on $DISPLAY"

# ---- The app, with its settings in a scratch folder --------------------------------
export PATHSCOPE_CONFIG_DIR="$work/config"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
unset SDL_VIDEODRIVER WAYLAND_DISPLAY
"$binary" open "$scenario" >"$work/app.log" 2>&1 &
app_pid=$!

wid=$(timeout 30 xdotool search --sync --onlyvisible --name 'Pathscope' 2>/dev/null | head -n1)
if [ -z "$wid" ]; then
  cat "$work/app.log" >&2
  fail "no window named Pathscope appeared within 30 s"
fi
note "window $wid: $(xdotool getwindowname "$wid")"

eval "$(xdotool getwindowgeometry --shell "$wid")"  # X, Y, WIDTH, HEIGHT
win_x=$X
win_y=$Y
win_w=$WIDTH
win_h=$HEIGHT

# World -> screen, as the editor frames a new document: the world fitted into the
# window with a 40 px margin, centred.
# The canonical scenario layout has the world's "width" and "height" on their own lines.
world_field() { sed -n '/"world": {/,/}/p' "$scenario" | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -n1; }
world_w=$(world_field width)
world_h=$(world_field height)
[ -n "$world_w" ] && [ -n "$world_h" ] || fail "cannot read the world size from $scenario"
to_screen() {  # world_x world_y -> screen_x screen_y
  awk -v wx="$1" -v wy="$2" -v X="$win_x" -v Y="$win_y" -v W="$win_w" -v H="$win_h" -v ww="$world_w" -v wh="$world_h" \
    'BEGIN { zx = (W - 80) / ww; zy = (H - 80) / wh; z = zx < zy ? zx : zy;
             printf "%d %d\n", X + W / 2 + (wx - ww / 2) * z + 0.5, Y + H / 2 + (wy - wh / 2) * z + 0.5 }'
}

# The pointer rests at the same spot on the canvas for every screenshot, so hover
# effects match: the corner where the rectangle drag ends. (Under Xvfb with no window
# manager a bare pointer motion may not reach the app, so the pointer is only moved
# there before a button press or at the end of the drag.) A Shift tap before each
# screenshot makes the app draw a few fresh frames.
read -r rest_x rest_y < <(to_screen 35 30)
settle() { sleep "${1:-1.0}"; }
# Keys are held for a few frames: the app may sleep between frames, and a press and
# release inside one frame would never be seen as a press.
press() {  # press KEY [MODIFIER]
  [ $# -ge 2 ] && xdotool keydown "$2"
  xdotool keydown "$1"
  sleep 0.2
  xdotool keyup "$1"
  [ $# -ge 2 ] && xdotool keyup "$2"
  settle 0.5
}
shot() {
  press Shift_L
  settle 1.0
  import -window root "$out/$1.png" || fail "cannot take the screenshot $1"
}

xdotool windowfocus --sync "$wid" 2>/dev/null || true
settle 1.0
# One click on empty ground with the select tool: until the first button press SDL may
# not know the pointer is over its window (no window manager), and hover stays stale.
xdotool mousemove --sync "$rest_x" "$rest_y"
settle 0.3
xdotool click 1
settle 0.5
shot opened
title_opened=$(xdotool getwindowname "$wid")
case "$title_opened" in *"*"*) fail "the title shows a modified mark before any edit: '$title_opened'";; esac

drag() {  # drag WX0 WY0 WX1 WY1 (world coordinates) with the left button
  read -r ax ay < <(to_screen "$1" "$2")
  read -r bx by < <(to_screen "$3" "$4")
  xdotool mousemove --sync "$ax" "$ay"
  settle 0.3
  xdotool mousedown 1
  for i in $(seq 1 12); do
    xdotool mousemove --sync $((ax + (bx - ax) * i / 12)) $((ay + (by - ay) * i / 12))
    sleep 0.05
  done
  settle 0.3
  xdotool mouseup 1
  settle 1.0
}

# Place a start and a goal: the query tool drags out a new query, which becomes the
# active one and is planned at once; undo removes it again.
press q
drag 14 8 35 30  # ends where the pointer rests for every picture
shot query_placed
title_query=$(xdotool getwindowname "$wid")
case "$title_query" in *"*"*) ;; *) fail "placing a query left no modified mark: '$title_query'";; esac
placed=$(compare -metric AE -fuzz 5% "$out/opened.png" "$out/query_placed.png" null: 2>&1 | sed 's/[^0-9.e+].*//' | awk '{printf "%d", $1}')
note "pixels changed by placing a query: $placed"
[ "$placed" -ge 500 ] || fail "placing a query changed only $placed pixels (screenshots in $out)"
press z ctrl

# The rectangle tool is chosen before the next picture, so that the tool panel looks
# the same in the three that are compared.
press r
shot before
title_before=$(xdotool getwindowname "$wid")
case "$title_before" in *"*"*) fail "the title keeps a modified mark after undoing the query: '$title_before'";; esac

# ---- Draw a rectangle obstacle across the query's straight path --------------------
drag 30 5 35 30  # ends at the resting point
shot after_rect
title_edited=$(xdotool getwindowname "$wid")

# ---- Undo ---------------------------------------------------------------------------
press z ctrl
settle 0.5
shot after_undo
title_undone=$(xdotool getwindowname "$wid")

# ---- Compare ------------------------------------------------------------------------
diff_pixels() {  # pixels that differ by more than a few percent
  compare -metric AE -fuzz 5% "$out/$1.png" "$out/$2.png" null: 2>&1 | sed 's/[^0-9.e+].*//' | awk '{printf "%d", $1}'
}
changed=$(diff_pixels before after_rect)
restored=$(diff_pixels before after_undo)
total=$((screen_w * screen_h))
note "pixels changed by the rectangle: $changed; still different after undo: $restored (of $total)"
note "titles: before '$title_before', edited '$title_edited', undone '$title_undone'"

[ "$changed" -ge 2000 ] || fail "drawing a rectangle across the path changed only $changed pixels (screenshots in $out)"
[ "$restored" -le $((total / 200)) ] || fail "after undo $restored pixels still differ from the start (screenshots in $out)"
[ "$changed" -ge $((restored * 5)) ] || fail "undo did not bring the picture back ($restored vs $changed pixels)"
case "$title_edited" in *"*"*) ;; *) fail "the title shows no modified mark '*' after the edit: '$title_edited'";; esac
case "$title_undone" in *"*"*) fail "the title keeps the modified mark after undoing back to the file's state: '$title_undone'";; esac

# ---- Close: nothing unsaved, so SIGTERM (delivered as SDL_QUIT, like the window's
# close button) ends the app at once and cleanly ----------------------------------------
kill -TERM "$app_pid"
for _ in $(seq 100); do
  kill -0 "$app_pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$app_pid" 2>/dev/null; then
  shot not_closed
  fail "the app did not close within 10 s of SIGTERM (screenshot not_closed.png)"
fi
wait "$app_pid"
code=$?
app_pid=""
[ "$code" -eq 0 ] || { cat "$work/app.log" >&2; fail "the app exited with code $code"; }

note "PASS: the rectangle changed the picture, undo restored it, the title marked the edit"
exit 0

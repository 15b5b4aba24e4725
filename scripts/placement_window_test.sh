#!/usr/bin/env bash
# Where the window opens, in a virtual X server with a window manager (openbox) that
# draws a title bar round it:
#   - launched four times in a row (each time closed as a user would), the window comes
#     back exactly where it was: its client area does not creep down by the title bar;
#   - moved by the user, it comes back where it was moved to;
#   - with settings.json naming a place off the display (below it, left of it, above it)
#     or a size larger than it, the window opens whole on the display: frame and title
#     bar included, inside the display's bounds.
#
#   scripts/placement_window_test.sh PATHSCOPE_BINARY [SCENARIO]
#
# Exit codes: 0 pass, 1 fail, 77 skipped (no Xvfb). Needs Xvfb, xdotool, xprop, xwininfo
# and ImageMagick; uses openbox when installed (without it there is no frame, and the test
# checks the same things on a bare window).

set -u

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=window_test_lib.sh
. "$here/scripts/window_test_lib.sh"
screen_w=1280
screen_h=900
window_test_begin "placement window test" "$here/tests/data/window_test.json" "$screen_w" "$screen_h" "$@"
for tool in xprop xwininfo; do command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (x11-utils)"; done

client_x11() {  # "X Y W H" of the window's client area on the screen, as the X server has it
  # xwininfo, not xdotool getwindowgeometry: under a reparenting window manager the
  # latter adds the frame's offset to the position once more.
  xwininfo -id "$wid" | awk '/Absolute upper-left X/ { x = $NF } /Absolute upper-left Y/ { y = $NF }
    /^ *Width:/ { w = $NF } /^ *Height:/ { h = $NF } END { print x, y, w, h }'
}
client_agrees() {  # the X server and the app agree on the client area (not $1), and the app is at rest
  client_now=$(client_x11)
  [ "$client_now" = "$(ui window)" ] && [ "$client_now" != "${1:-}" ] && settled
}
# The window manager may move a window in more than one step (map, then place; a move
# request, then the frame's gravity), and on a loaded machine the app can draw its two
# frames between them. A place counts once both agree on it for a whole second.
steady_for=1000000  # microseconds
client_steady() {  # client_steady [NOT]: client_agrees, with the same answer for steady_for
  local now=${EPOCHREALTIME//[.,]/}
  if ! client_agrees "${1:-}"; then
    steady_since=""
    return 1
  fi
  if [ "$client_now" != "${steady_value:-}" ] || [ -z "${steady_since:-}" ]; then
    steady_value=$client_now
    steady_since=$now
    return 1
  fi
  [ $((now - steady_since)) -ge "$steady_for" ]
}
client_at() {  # client_at [NOT]: "X Y W H" of the client area once the app reports it too (and it is not NOT)
  steady_value=""
  steady_since=""
  wait_until "$ui_timeout" client_steady "${1:-}" ||
    fail "the X server has the client area at $(client_x11), the app at $(ui window), not the same for a second (within $ui_timeout s)"
  echo "$client_now"
}
frame_extents() {  # frame_extents: "LEFT RIGHT TOP BOTTOM" of the window manager's frame (0s: none)
  local e
  e=$(xprop -id "$wid" _NET_FRAME_EXTENTS 2>/dev/null | sed -n 's/.*= *//p' | tr -d ',')
  echo "${e:-0 0 0 0}"
}

# ---- Four launches: the window stays put ---------------------------------------------
start_app open "$scenario"
first=$(client_at) || exit 1
read -r fl fr ft fb < <(frame_extents)
note "first launch: client area $first, frame extents left $fl right $fr top $ft bottom $fb"
stop_app
for launch in 2 3 4; do
  start_app open "$scenario"
  now=$(client_at) || exit 1
  stop_app
  note "launch $launch: client area $now"
  [ "$now" = "$first" ] || fail "launch $launch opened the window at $now, not where it was closed ($first): settings.json $(tr -d ' \n' <"$PATHSCOPE_CONFIG_DIR/settings.json")"
done

# ---- Moved by the user: it comes back there --------------------------------------------
start_app open "$scenario"
before=$(client_at) || exit 1
xdotool windowmove "$wid" 140 90
moved=$(client_at "$before") || exit 1
stop_app
start_app open "$scenario"
back=$(client_at) || exit 1
stop_app
note "moved to $moved; reopened at $back"
[ "$back" = "$moved" ] || fail "the window was closed at $moved but reopened at $back"

# ---- Remembered off the display and larger than it: opened whole on it -----------------
settings="$PATHSCOPE_CONFIG_DIR/settings.json"
for place in "300 2000 800 600" "-5000 100 800 600" "2000 -400 3000 2000"; do
  read -r px py pw ph <<<"$place"
  tr -d '\n' <"$settings" |
    sed -E "s/\"x\": *-?[0-9]+/\"x\": $px/; s/\"y\": *-?[0-9]+/\"y\": $py/; s/\"width\": *[0-9]+/\"width\": $pw/; s/\"height\": *[0-9]+/\"height\": $ph/" \
      >"$work/settings.json"
  mv "$work/settings.json" "$settings"
  start_app open "$scenario"
  place_now=$(client_at) || exit 1
  read -r x y w h <<<"$place_now"
  read -r fl fr ft fb < <(frame_extents)
  import -window root "$out/placement_${px}_${py}.png" || fail "cannot take a screenshot"
  stop_app
  note "remembered at ($px, $py), $pw x $ph: client area $x $y $w $h, frame $fl $fr $ft $fb"
  [ $((x - fl)) -ge 0 ] && [ $((y - ft)) -ge 0 ] && [ $((x + w + fr)) -le "$screen_w" ] &&
    [ $((y + h + fb)) -le "$screen_h" ] ||
    fail "remembered at ($px, $py): the window ($x $y $w $h, frame $fl $fr $ft $fb) is not whole on the ${screen_w}x${screen_h} display"
done

note "PASS"

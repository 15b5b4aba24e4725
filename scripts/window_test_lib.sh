# What the window tests share (sourced by window_smoke_test.sh and sim_window_test.sh):
# checking their arguments and tools, a scratch folder removed on exit with the processes
# they started, a virtual X server on a free display with a window manager, the app's
# environment, and reading the UI state the app writes.
#
#   window_test_begin LABEL DEFAULT_SCENARIO SCREEN_W SCREEN_H "$@"
#
# sets binary, scenario, work, out (screenshots: $SMOKE_OUT_DIR or the scratch folder),
# DISPLAY, ui_file, and app_pid / wm_pid / xvfb_pid for the cleanup; exits 77 (CTest's
# SKIP_RETURN_CODE) when Xvfb is not installed, 2 on bad usage, 1 on failure.

window_test_label="window test"
fail() { echo "$window_test_label: FAIL: $*" >&2; exit 1; }
note() { echo "$window_test_label: $*"; }
settle() { sleep "${1:-1.0}"; }
ui() { sed -n "s/^$1 //p" "$ui_file" 2>/dev/null; }  # ui KEY -> the rest of its line
ui_field() { ui "$1" | awk -v n="$2" '{ print $n }'; }

window_test_cleanup() {
  # Only the processes this script started, by their ids.
  if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then kill -9 "$app_pid" 2>/dev/null; fi
  if [ -n "$wm_pid" ] && kill -0 "$wm_pid" 2>/dev/null; then kill "$wm_pid" 2>/dev/null; fi
  if [ -n "$xvfb_pid" ] && kill -0 "$xvfb_pid" 2>/dev/null; then kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; fi
  rm -rf "$work"
}

window_test_begin() {
  window_test_label=$1
  local default_scenario=$2 screen_w=$3 screen_h=$4
  shift 4
  [ $# -ge 1 ] || { echo "usage: $0 PATHSCOPE_BINARY [SCENARIO]" >&2; exit 2; }
  binary=$1
  scenario=${2:-$default_scenario}
  [ -x "$binary" ] || fail "no executable at $binary"
  [ -f "$scenario" ] || fail "no scenario at $scenario"

  if ! command -v Xvfb >/dev/null 2>&1; then
    echo "$window_test_label: SKIPPED: Xvfb is not installed"
    exit 77
  fi
  local tool
  for tool in xdotool import compare convert; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (xdotool / ImageMagick)"
  done

  work=$(mktemp -d "${TMPDIR:-/tmp}/pathscope_window.XXXXXX")
  out=${SMOKE_OUT_DIR:-$work}
  mkdir -p "$out"
  xvfb_pid=""
  wm_pid=""
  app_pid=""
  trap window_test_cleanup EXIT

  # A virtual X server on a free display (it picks the number itself), a window manager.
  Xvfb -screen 0 "${screen_w}x${screen_h}x24" -nolisten tcp -displayfd 3 3>"$work/display" 2>"$work/xvfb.log" &
  xvfb_pid=$!
  for _ in $(seq 100); do
    [ -s "$work/display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || { cat "$work/xvfb.log" >&2; fail "Xvfb did not start"; }
    sleep 0.1
  done
  [ -s "$work/display" ] || fail "Xvfb did not report a display"
  export DISPLAY=":$(head -n1 "$work/display")"
  # The server answers before anything else starts on it.
  for _ in $(seq 100); do
    xdotool getdisplaygeometry >/dev/null 2>&1 && break
    kill -0 "$xvfb_pid" 2>/dev/null || { cat "$work/xvfb.log" >&2; fail "Xvfb on $DISPLAY exited"; }
    sleep 0.1
  done
  xdotool getdisplaygeometry >/dev/null 2>&1 || { cat "$work/xvfb.log" >&2; fail "Xvfb on $DISPLAY does not answer"; }
  note "Xvfb on $DISPLAY"
  if command -v openbox >/dev/null 2>&1; then
    openbox --sm-disable >"$work/openbox.log" 2>&1 &
    wm_pid=$!
    sleep 1
    note "window manager: openbox"
  else
    note "openbox is not installed: running without a window manager"
  fi

  # The app, with its settings in a scratch folder, writing what it shows to ui_file.
  export PATHSCOPE_CONFIG_DIR="$work/config"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
  unset SDL_VIDEODRIVER WAYLAND_DISPLAY
  ui_file="$work/ui.txt"
  export PATHSCOPE_UI_STATE="$ui_file"
}

# start_app ARGS...: starts the app and waits for its window and its first UI state.
start_app() {
  rm -f "$ui_file"
  "$binary" "$@" >"$work/app.log" 2>&1 &
  app_pid=$!
  wid=""
  for _ in $(seq 300); do
    wid=$(xdotool search --onlyvisible --name 'Pathscope' 2>>"$work/xdotool.log" | head -n1)
    [ -n "$wid" ] && break
    if ! kill -0 "$app_pid" 2>/dev/null; then
      wait "$app_pid"
      local code=$?
      app_pid=""
      cat "$work/app.log" >&2
      fail "the app exited with code $code before its window appeared"
    fi
    sleep 0.1
  done
  if [ -z "$wid" ]; then
    cat "$work/app.log" "$work/xdotool.log" "$work/xvfb.log" >&2
    fail "no window named Pathscope appeared within 30 s"
  fi
  for _ in $(seq 100); do [ -s "$ui_file" ] && break; sleep 0.1; done
  [ -s "$ui_file" ] || fail "the app wrote no UI state to \$PATHSCOPE_UI_STATE"
  note "window $wid: $(xdotool getwindowname "$wid")"
}

# stop_app: SIGTERM (delivered as SDL_QUIT, like the window's close button) must end the
# app at once and cleanly when nothing is unsaved.
stop_app() {
  kill -TERM "$app_pid"
  for _ in $(seq 100); do
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$app_pid" 2>/dev/null; then
    import -window root "$out/not_closed.png"
    fail "the app did not close within 10 s of SIGTERM (screenshot not_closed.png)"
  fi
  wait "$app_pid"
  local code=$?
  app_pid=""
  [ "$code" -eq 0 ] || { cat "$work/app.log" >&2; fail "the app exited with code $code"; }
}

# pointer_to X Y: moves the pointer there and waits until the X server has moved it.
# xdotool's --sync waits for the pointer to move, and so waits its whole timeout when the
# pointer is already there.
pointer_to() {
  local at
  at=$(xdotool getmouselocation | awk '{ sub("x:", "", $1); sub("y:", "", $2); print $1, $2 }')
  [ "$at" = "$1 $2" ] && return 0
  xdotool mousemove --sync "$1" "$2"
}

# locate_client_area: brings the window forward and finds where its client area is on
# the screen (origin_x, origin_y), the canvas in it (cx0 cy0 cx1 cy1) and a resting place
# for the pointer before screenshots (rest_x, rest_y: over the left column, low, where no
# widget reacts to hover).
locate_client_area() {
  xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid" 2>/dev/null || true
  settle 1.0

  # Where the window's client area is on the screen: move the pointer to a known screen
  # point over the window and read where the app saw it.
  eval "$(xdotool getwindowgeometry --shell "$wid")"  # X, Y, WIDTH, HEIGHT (approximately)
  probe_x=$((X + WIDTH / 2))
  probe_y=$((Y + HEIGHT / 2))
  pointer_to "$probe_x" "$probe_y"
  settle 0.5
  pointer_to $((probe_x + 1)) "$probe_y"
  settle 0.5
  [ "$(ui_field pointer 1)" = 1 ] || fail "the app never saw the pointer over its window"
  origin_x=$((probe_x + 1 - $(ui_field pointer 2)))
  origin_y=$((probe_y - $(ui_field pointer 3)))
  note "client area at ($origin_x, $origin_y)"
  read -r cx0 cy0 cx1 cy1 < <(ui canvas)
  rest_x=$((origin_x + 40))
  rest_y=$((origin_y + cy1 - 30))
}

# world -> screen through the camera the app reports.
to_screen() {  # to_screen WX WY -> SX SY
  ui world_to_screen | awk -v wx="$1" -v wy="$2" -v ox="$origin_x" -v oy="$origin_y" \
    '{ printf "%d %d\n", ox + $2 + wx * $1 + 0.5, oy + $3 + wy * $1 + 0.5 }'
}

# Keys are held for a few frames: a press and release inside one frame would be missed.
press() {  # press KEY [MODIFIER]
  [ $# -ge 2 ] && xdotool keydown "$2"
  xdotool keydown "$1"
  sleep 0.2
  xdotool keyup "$1"
  [ $# -ge 2 ] && xdotool keyup "$2"
  settle 0.5
}
shot() {  # shot NAME: the pointer rests over the left column, then a screenshot
  pointer_to "$rest_x" "$rest_y"
  settle 0.3
  pointer_to $((rest_x + 1)) "$rest_y"
  settle 1.0
  import -window root "$out/$1.png" || fail "cannot take the screenshot $1"
}
# drag_screen BUTTON X0 Y0 X1 Y1 [STEPS]: press at (X0, Y0), move in STEPS small steps
# with the button held, release at (X1, Y1).
drag_screen() {
  local button=$1 ax=$2 ay=$3 bx=$4 by=$5 steps=${6:-20}
  pointer_to "$ax" "$ay"
  settle 0.3
  xdotool mousedown "$button"
  settle 0.2
  for i in $(seq 1 "$steps"); do
    pointer_to $((ax + (bx - ax) * i / steps)) $((ay + (by - ay) * i / steps))
    sleep 0.04
  done
  settle 0.3
  xdotool mouseup "$button"
  settle 0.8
}
# wait_until SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds (0) or
# SECONDS pass (1): a test waits on what the window reports, never a fixed time.
wait_until() {
  local limit=$1 i
  shift
  for i in $(seq "$((limit * 10))"); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}
drag() {  # drag WX0 WY0 WX1 WY1: a left drag between two world points
  read -r ax ay < <(to_screen "$1" "$2")
  read -r bx by < <(to_screen "$3" "$4")
  drag_screen 1 "$ax" "$ay" "$bx" "$by" 20
}
diff_canvas() {  # pixels of the canvas that differ between two screenshots
  local geometry="$((cx1 - cx0))x$((cy1 - cy0))+$((origin_x + cx0))+$((origin_y + cy0))"
  convert "$out/$1.png" -crop "$geometry" +repage "$work/canvas_a.png"
  convert "$out/$2.png" -crop "$geometry" +repage "$work/canvas_b.png"
  compare -metric AE -fuzz 5% "$work/canvas_a.png" "$work/canvas_b.png" null: 2>&1 | sed 's/[^0-9.e+].*//' | awk '{printf "%d", $1}'
}
click_item() {  # click_item NAME: a left click on the centre of a probed widget
  local x0 y0 x1 y1
  read -r x0 y0 x1 y1 < <(ui "item $1")
  [ -n "${y1:-}" ] || fail "no widget '$1' on screen"
  pointer_to $((origin_x + (x0 + x1) / 2)) $((origin_y + (y0 + y1) / 2))
  settle 0.3
  xdotool mousedown 1
  sleep 0.15
  xdotool mouseup 1
  settle 0.5
}

# What the window tests share (sourced by scripts/*_window_test.sh and
# tests/app/window/*.sh): checking their arguments and tools, a scratch folder removed on
# exit with the processes they started, a virtual X server on a free display with a window
# manager, the app's environment, reading the UI state the app writes, and driving the app
# by events: every action waits until the app reports that it has seen it and drawn what
# follows, never a fixed time.
#
#   window_test_begin LABEL DEFAULT_SCENARIO SCREEN_W SCREEN_H "$@"
#
# sets binary, scenario, work, out (screenshots: $SMOKE_OUT_DIR or the scratch folder),
# DISPLAY, ui_file, and app_pid / wm_pid / xvfb_pid for the cleanup; exits 77 (CTest's
# SKIP_RETURN_CODE) when Xvfb is not installed, 2 on bad usage, 1 on failure.
#
# The UI state file ($PATHSCOPE_UI_STATE) is written after a frame the app presents when
# anything in it changed, and for the three frames after an input. Its first lines are
# what the helpers below wait on:
#   frame N M                 frames presented; the frame that took the latest SDL event
#   events ALL KD KU BD BU    SDL events handled; key presses, key releases, pointer
#                             button presses, button releases
#   focus F T                 F: 1 when the window has the keyboard focus; T: 1 when a
#                             text field takes the keys
#   window X Y W H            the client area on the screen, as SDL knows it
#   pointer VALID X Y         the pointer as the app last saw it (window coordinates)
# After an event the app draws at least three frames (M, M + 1, M + 2), so "frame N >=
# M + 2" means that what follows the latest input is on screen.

window_test_label="window test"
fail() { echo "$window_test_label: FAIL: $*" >&2; exit 1; }
# app_diagnosis: what the app is doing when a wait on it times out: alive or not, its
# scheduler state and kernel wait channel, the CPU it takes over one second (busy in a
# long frame, or asleep waiting on something), the last lines it printed, and its threads'
# stacks when gdb is installed. Printed to stderr before the failure.
app_diagnosis() {
  [ -n "${app_pid:-}" ] || return 0
  if ! kill -0 "$app_pid" 2>/dev/null; then
    echo "$window_test_label: the app (pid $app_pid) is no longer running" >&2
    return 0
  fi
  local stat0 stat1 state wchan
  stat0=$(awk '{ print $14 + $15 }' "/proc/$app_pid/stat" 2>/dev/null)
  sleep 1
  stat1=$(awk '{ print $14 + $15 }' "/proc/$app_pid/stat" 2>/dev/null)
  state=$(awk '{ print $3 }' "/proc/$app_pid/stat" 2>/dev/null)
  wchan=$(cat "/proc/$app_pid/wchan" 2>/dev/null)
  echo "$window_test_label: the app (pid $app_pid): state $state, waiting in '${wchan:-?}'," \
    "$((${stat1:-0} - ${stat0:-0})) CPU ticks of $(getconf CLK_TCK) in the last second" >&2
  [ -s "$work/app.log" ] && { echo "--- the app's last output:" >&2; tail -n 20 "$work/app.log" >&2; }
  if command -v gdb >/dev/null 2>&1; then
    echo "--- its threads' stacks:" >&2
    timeout 60 gdb -p "$app_pid" -batch -nx -ex "thread apply all bt 30" 2>&1 | grep -E '^(#|Thread)' >&2
  fi
}
note() { echo "$window_test_label: $*"; }
ui() { sed -n "s/^$1 //p" "$ui_file" 2>/dev/null; }  # ui KEY -> the rest of its line
ui_field() { ui "$1" | awk -v n="$2" '{ print $n }'; }
# How long a wait on the app may take, seconds: a frame of the sanitizer build can take a
# second, and a loaded machine more.
ui_timeout=${PATHSCOPE_UI_TIMEOUT:-30}

# wait_until SECONDS COMMAND...: runs COMMAND every 20 ms until it succeeds (0) or
# SECONDS pass (1): a test waits on what the window reports, never a fixed time.
wait_until() {
  local limit=$1 end
  shift
  end=$((${EPOCHREALTIME//[.,]/} + limit * 1000000))
  while :; do
    "$@" && return 0
    [ "${EPOCHREALTIME//[.,]/}" -lt "$end" ] || return 1
    sleep 0.02
  done
}
# wait_ui KEY REGEX: until the UI state's KEY line matches REGEX; fails saying what it is.
ui_matches() { ui "$1" | grep -Eq "$2"; }
wait_ui() {
  wait_until "$ui_timeout" ui_matches "$1" "$2" || { app_diagnosis; fail "'$1' is '$(ui "$1")', never matched /$2/ within $ui_timeout s"; }
}
# settled: the app has drawn two frames after the latest input it took.
settled() { awk '/^frame / { ok = $2 >= $3 + 2 } END { exit !ok }' "$ui_file" 2>/dev/null; }
wait_settled() {
  wait_until "$ui_timeout" settled ||
    { app_diagnosis; fail "the app did not draw two frames after its latest input within $ui_timeout s (frame line: $(ui frame))"; }
}
# event_count FIELD: a field of the events line (1 all, 2 key presses, 3 key releases,
# 4 button presses, 5 button releases).
event_count() { ui_field events "$1"; }
events_reach() { [ "$(event_count "$1")" -ge "$2" ] 2>/dev/null; }
# wait_events FIELD COUNT WHAT: until the app has handled COUNT events of that kind in all.
wait_events() {
  wait_until "$ui_timeout" events_reach "$1" "$2" ||
    { app_diagnosis; fail "the app did not see $3 within $ui_timeout s (events: $(ui events))"; }
}

window_test_cleanup() {
  # Only the processes this script started, by their ids.
  if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then kill -9 "$app_pid" 2>/dev/null; fi
  if [ -n "$wm_pid" ] && kill -0 "$wm_pid" 2>/dev/null; then kill "$wm_pid" 2>/dev/null; fi
  if [ -n "$xvfb_pid" ] && kill -0 "$xvfb_pid" 2>/dev/null; then kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; fi
  rm -rf "$work"
}

wm_ready() { xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; }
wm_ready_or_gone() { wm_ready || ! kill -0 "$wm_pid" 2>/dev/null; }

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
  for tool in xdotool import compare convert xprop xwininfo; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (xdotool / ImageMagick / x11-utils)"
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
    # Ready when it has announced itself on the root window (EWMH). Now and then it cannot
    # open a display that has just answered xdotool: it exits, and is started again.
    local attempt
    for attempt in 1 2 3; do
      openbox --sm-disable >"$work/openbox.log" 2>&1 &
      wm_pid=$!
      wait_until 30 wm_ready_or_gone && wm_ready && break
      cat "$work/openbox.log" >&2
      kill -0 "$wm_pid" 2>/dev/null && fail "openbox did not start within 30 s"
      wm_pid=""
      [ "$attempt" = 3 ] && fail "openbox exited three times without starting"
    done
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
  origin_x=""  # a new window: locate_client_area again
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

# pointer_to X Y: moves the pointer there (screen coordinates) and, once the client area
# is located, waits until the app has seen it there. xdotool's --sync waits for the
# pointer to move, and so waits its whole timeout when the pointer is already there.
pointer_seen() { [ "$(ui pointer)" = "1 $1 $2" ]; }
pointer_to() {
  local at
  at=$(xdotool getmouselocation | awk '{ sub("x:", "", $1); sub("y:", "", $2); print $1, $2 }')
  [ "$at" = "$1 $2" ] || xdotool mousemove --sync "$1" "$2"
  [ -n "${origin_x:-}" ] || return 0
  wait_until "$ui_timeout" pointer_seen $(($1 - origin_x)) $(($2 - origin_y)) ||
    { app_diagnosis; fail "the app did not see the pointer at ($(($1 - origin_x)), $(($2 - origin_y))) in its window within $ui_timeout s (pointer: $(ui pointer))"; }
}

# locate_client_area: brings the window forward (and waits for its keyboard focus), finds
# where its client area is on the screen (origin_x, origin_y; checked by the app seeing
# the pointer where the origin says), the canvas in it (cx0 cy0 cx1 cy1) and a resting
# place for the pointer before screenshots (rest_x, rest_y: over the left column, low,
# where no widget reacts to hover).
locate_client_area() {
  xdotool windowactivate --sync "$wid" 2>/dev/null || xdotool windowfocus --sync "$wid" 2>/dev/null || true
  wait_ui focus '^1 '
  # xwininfo, not xdotool getwindowgeometry: under a reparenting window manager the
  # latter adds the frame's offset to the position once more.
  origin_x=""
  read -r ox oy < <(xwininfo -id "$wid" | awk '/Absolute upper-left X/ { x = $NF } /Absolute upper-left Y/ { y = $NF } END { print x, y }')
  read -r _ _ win_w win_h < <(ui window)
  probe_x=$((ox + win_w / 2))
  probe_y=$((oy + win_h / 2))
  origin_x=$ox
  origin_y=$oy
  pointer_to "$probe_x" "$probe_y"
  pointer_to $((probe_x + 1)) "$probe_y"
  wait_settled
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

# key_down KEY / key_up KEY: the key goes down (up) and the app has seen it. A key that
# goes down and up between two frames is never seen by the UI (Dear ImGui 1.86 looks at
# the keys' state once a frame); held until the app has counted it, it has been seen by
# the frame that counted it.
key_down() {
  local n
  n=$(event_count 2)
  xdotool keydown "$1"
  wait_events 2 $((n + 1)) "the key $1 go down"
}
key_up() {
  local n
  n=$(event_count 3)
  xdotool keyup "$1"
  wait_events 3 $((n + 1)) "the key $1 come up"
}
press() {  # press KEY [MODIFIER]: a key press seen by the app; returns once it has drawn what follows
  [ $# -ge 2 ] && key_down "$2"
  key_down "$1"
  key_up "$1"
  [ $# -ge 2 ] && key_up "$2"
  wait_settled
}
# type_text TEXT: typed into the focused text field; returns once the app has seen every
# key (each character is at least one key press and release) and drawn what follows.
type_text() {
  local n
  n=$(event_count 3)
  xdotool type --delay 20 "$1"
  wait_events 3 $((n + ${#1})) "the ${#1} keys of '$1'"
  wait_settled
}
# button_down BUTTON / button_up BUTTON: a pointer button goes down (up) where the
# pointer is, and the app has seen it.
button_down() {
  local n
  n=$(event_count 4)
  xdotool mousedown "$1"
  wait_events 4 $((n + 1)) "button $1 go down"
}
button_up() {
  local n
  n=$(event_count 5)
  xdotool mouseup "$1"
  wait_events 5 $((n + 1)) "button $1 come up"
}
# click_screen X Y [BUTTON] [MODIFIER]: a click at a screen point (BUTTON 1 left, 3 right),
# with MODIFIER (shift, ctrl) held; returns once the app has drawn what follows.
click_screen() {
  pointer_to "$1" "$2"
  [ -n "${4:-}" ] && key_down "$4"
  button_down "${3:-1}"
  button_up "${3:-1}"
  [ -n "${4:-}" ] && key_up "$4"
  wait_settled
}
# idle: two frames drawn after the latest input, and no search running.
idle() { settled && [ "$(ui_field result 1)" = 0 ]; }
wait_idle() {
  wait_until "$ui_timeout" idle ||
    { app_diagnosis; fail "the app did not come to rest within $ui_timeout s (frame line: $(ui frame); result: $(ui result))"; }
}
shot() {  # shot NAME: the pointer rests over the left column, the app at rest, then a screenshot
  pointer_to "$rest_x" "$rest_y"
  pointer_to $((rest_x + 1)) "$rest_y"
  wait_idle
  import -window root "$out/$1.png" || fail "cannot take the screenshot $1"
}
# drag_screen BUTTON X0 Y0 X1 Y1 [STEPS]: press at (X0, Y0), move in STEPS small steps
# with the button held (each seen by the app), release at (X1, Y1).
drag_screen() {
  local button=$1 ax=$2 ay=$3 bx=$4 by=$5 steps=${6:-20}
  pointer_to "$ax" "$ay"
  button_down "$button"
  for i in $(seq 1 "$steps"); do
    pointer_to $((ax + (bx - ax) * i / steps)) $((ay + (by - ay) * i / steps))
  done
  button_up "$button"
  wait_settled
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
  click_screen $((origin_x + (x0 + x1) / 2)) $((origin_y + (y0 + y1) / 2))
}

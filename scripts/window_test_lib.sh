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

#pragma once

// Where the window opens: the size and position remembered from the last run when they
// still fit the display, else a size that fits it (most of its usable area), centred.

namespace pathscope::app {

struct AppSettings;

/// A rectangle in screen pixels.
struct ScreenRect {
  int x = 0, y = 0, w = 0, h = 0;
  friend bool operator==(const ScreenRect&, const ScreenRect&) = default;
};

/// The window's rectangle for `settings` on a display whose usable area (without task
/// bars) is `usable`: the remembered size, shrunk to fit; with none remembered, 85% of
/// the usable area (at most 1920 x 1200). The remembered position is kept when the
/// window's title bar stays on the display, else the window is centred.
ScreenRect place_window(const AppSettings& settings, ScreenRect usable);

}  // namespace pathscope::app

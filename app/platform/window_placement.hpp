#pragma once

// Where the window opens: the size and position remembered from the last run, made to
// fit the display's usable area, else a size that fits it (most of that area), centred.
// The position remembered is the outer corner of the window manager's frame (title bar
// and borders): a window manager places a new window's frame at the position asked for
// (ICCCM, NorthWest gravity), so the window reopens exactly where it was closed.

namespace pathscope::app {

struct AppSettings;

/// A rectangle in screen pixels.
struct ScreenRect {
  int x = 0, y = 0, w = 0, h = 0;
  friend bool operator==(const ScreenRect&, const ScreenRect&) = default;
};

/// The window manager's frame round a window, pixels on each side (all 0: none).
struct FrameExtents {
  int left = 0, top = 0, right = 0, bottom = 0;
  friend bool operator==(const FrameExtents&, const FrameExtents&) = default;
};

/// Where to create the window for `settings` on a display whose usable area (without
/// task bars) is `usable`: x, y is the frame's outer corner, w, h the client area. The
/// remembered size, shrunk so that it and the remembered frame fit; with none
/// remembered, 85% of the usable area (at most 1920 x 1200), centred. The remembered
/// position is moved just as far as it takes to put the whole frame on the usable area.
ScreenRect place_window(const AppSettings& settings, ScreenRect usable);

/// Stores the placement of a window whose client area is `client` (screen pixels) inside
/// a frame of `frame` into `settings`: its size, its frame's outer corner and the frame.
void remember_window(AppSettings& settings, ScreenRect client, FrameExtents frame);

}  // namespace pathscope::app

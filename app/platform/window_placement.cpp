#include "app/platform/window_placement.hpp"

#include <algorithm>

#include "app/platform/settings.hpp"

namespace pathscope::app {

ScreenRect place_window(const AppSettings& settings, ScreenRect usable) {
  constexpr int kMinSide = 480;
  usable.w = std::max(usable.w, kMinSide);
  usable.h = std::max(usable.h, kMinSide);
  const bool remembered = settings.window_width > 0 && settings.window_height > 0;
  if (!remembered) {
    ScreenRect r;
    r.w = std::max(std::min(usable.w * 85 / 100, 1920), std::min(kMinSide, usable.w));
    r.h = std::max(std::min(usable.h * 85 / 100, 1200), std::min(kMinSide, usable.h));
    r.x = usable.x + (usable.w - r.w) / 2;
    r.y = usable.y + (usable.h - r.h) / 2;
    return r;
  }
  // The frame as it was, within reason: it must leave room for the window.
  const int frame_w = std::clamp(settings.frame_left + settings.frame_right, 0, usable.w / 4);
  const int frame_h = std::clamp(settings.frame_top + settings.frame_bottom, 0, usable.h / 4);
  ScreenRect r;
  r.w = std::clamp(settings.window_width, std::min(kMinSide, usable.w - frame_w), usable.w - frame_w);
  r.h = std::clamp(settings.window_height, std::min(kMinSide, usable.h - frame_h), usable.h - frame_h);
  // The whole frame on the usable area: moved in from whichever edge it crosses.
  r.x = std::clamp(settings.window_x, usable.x, usable.x + usable.w - (r.w + frame_w));
  r.y = std::clamp(settings.window_y, usable.y, usable.y + usable.h - (r.h + frame_h));
  return r;
}

void remember_window(AppSettings& settings, ScreenRect client, FrameExtents frame) {
  settings.window_width = client.w;
  settings.window_height = client.h;
  settings.window_x = client.x - frame.left;
  settings.window_y = client.y - frame.top;
  settings.frame_left = frame.left;
  settings.frame_top = frame.top;
  settings.frame_right = frame.right;
  settings.frame_bottom = frame.bottom;
}

}  // namespace pathscope::app

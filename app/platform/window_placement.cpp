#include "app/platform/window_placement.hpp"

#include <algorithm>

#include "app/platform/settings.hpp"

namespace pathscope::app {

ScreenRect place_window(const AppSettings& settings, ScreenRect usable) {
  constexpr int kMinSide = 480;
  constexpr int kTitleBar = 32;  // what must stay on screen to grab the window
  usable.w = std::max(usable.w, kMinSide);
  usable.h = std::max(usable.h, kMinSide);
  const bool remembered = settings.window_width > 0 && settings.window_height > 0;
  ScreenRect r;
  if (remembered) {
    r.w = std::min(settings.window_width, usable.w);
    r.h = std::min(settings.window_height, usable.h);
  } else {
    r.w = std::min(usable.w * 85 / 100, 1920);
    r.h = std::min(usable.h * 85 / 100, 1200);
  }
  r.w = std::max(r.w, std::min(kMinSide, usable.w));
  r.h = std::max(r.h, std::min(kMinSide, usable.h));
  const bool on_screen = remembered && settings.window_x >= usable.x - r.w + 100 &&
                         settings.window_x <= usable.x + usable.w - 100 && settings.window_y >= usable.y &&
                         settings.window_y <= usable.y + usable.h - kTitleBar;
  if (on_screen) {
    r.x = settings.window_x;
    r.y = settings.window_y;
  } else {
    r.x = usable.x + (usable.w - r.w) / 2;
    r.y = usable.y + (usable.h - r.h) / 2;
  }
  return r;
}

}  // namespace pathscope::app

#include "app/platform/pointer_input.hpp"

#include <SDL.h>
#include <imgui.h>

#include <cfloat>

namespace pathscope::app {
namespace {

// SDL's button number to ours (0 left, 1 right, 2 middle); -1 for the others.
int button_index(Uint8 sdl_button) {
  switch (sdl_button) {
    case SDL_BUTTON_LEFT: return 0;
    case SDL_BUTTON_RIGHT: return 1;
    case SDL_BUTTON_MIDDLE: return 2;
    default: return -1;
  }
}

}  // namespace

void PointerTracker::begin_frame() {
  moves_.clear();
  pressed_ = released_ = 0;
}

void PointerTracker::move_to(Vec2 p) {
  position_ = p;
  known_ = true;
  if (moves_.empty() || moves_.back() != p) moves_.push_back(p);
}

bool PointerTracker::handle(const SDL_Event& e) {
  switch (e.type) {
    case SDL_MOUSEMOTION:
      if (e.motion.which == SDL_TOUCH_MOUSEID) return false;
      inside_ = true;
      move_to({double(e.motion.x), double(e.motion.y)});
      return false;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
      const int b = button_index(e.button.button);
      if (b < 0 || e.button.which == SDL_TOUCH_MOUSEID) return false;
      move_to({double(e.button.x), double(e.button.y)});
      const unsigned bit = 1u << b;
      if (e.type == SDL_MOUSEBUTTONDOWN) {
        buttons_ |= bit;
        pressed_ |= bit;
      } else {
        buttons_ &= ~bit;
        released_ |= bit;
      }
      return true;
    }
    case SDL_WINDOWEVENT:
      if (e.window.event == SDL_WINDOWEVENT_LEAVE) inside_ = false;
      if (e.window.event == SDL_WINDOWEVENT_ENTER) inside_ = true;
      // A button released outside the window, while focus went elsewhere, never comes.
      if (e.window.event == SDL_WINDOWEVENT_FOCUS_LOST && buttons_ != 0) {
        released_ |= buttons_;
        buttons_ = 0;
      }
      return false;
    default: return false;
  }
}

void PointerTracker::apply(ImGuiIO& io) const {
  io.MousePos = valid() ? ImVec2(float(position_.x), float(position_.y)) : ImVec2(-FLT_MAX, -FLT_MAX);
  // A press seen this frame counts as held for this frame, whatever came after it.
  for (int b = 0; b < kButtons; ++b) io.MouseDown[b] = down(b) || pressed(b);
}

}  // namespace pathscope::app

// PointerTracker keeps the positions SDL's events carry, ends a frame's batch at each
// button event, and gives ImGui those positions instead of the polled global state.

#include "app/platform/pointer_input.hpp"

#include <SDL.h>
#include <imgui.h>

#include <doctest/doctest.h>

using namespace pathscope;
using namespace pathscope::app;

namespace {

SDL_Event motion(int x, int y) {
  SDL_Event e{};
  e.type = SDL_MOUSEMOTION;
  e.motion.x = x;
  e.motion.y = y;
  return e;
}

SDL_Event button(bool down, Uint8 which, int x, int y) {
  SDL_Event e{};
  e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  e.button.button = which;
  e.button.x = x;
  e.button.y = y;
  return e;
}

SDL_Event window_event(Uint8 what) {
  SDL_Event e{};
  e.type = SDL_WINDOWEVENT;
  e.window.event = what;
  return e;
}

// A Dear ImGui context for the duration of a test.
struct ImGuiRig {
  ImGuiRig() { ImGui::CreateContext(); }
  ~ImGuiRig() { ImGui::DestroyContext(); }
};

}  // namespace

TEST_CASE("pointer: every motion of a frame is kept in order, button events end the batch") {
  PointerTracker p;
  CHECK_FALSE(p.valid());
  p.begin_frame();
  CHECK_FALSE(p.handle(motion(10, 20)));
  CHECK_FALSE(p.handle(motion(11, 22)));
  CHECK_FALSE(p.handle(motion(11, 22)));  // no move, not repeated
  CHECK(p.handle(button(true, SDL_BUTTON_LEFT, 12, 23)));
  REQUIRE(p.moves().size() == 3);
  CHECK(p.moves()[0] == Vec2{10, 20});
  CHECK(p.moves()[2] == Vec2{12, 23});
  CHECK(p.position() == Vec2{12, 23});
  CHECK(p.pressed(0));
  CHECK(p.down(0));
  CHECK_FALSE(p.down(1));

  p.begin_frame();
  CHECK(p.moves().empty());
  CHECK_FALSE(p.pressed(0));
  CHECK(p.down(0));
  CHECK(p.handle(button(false, SDL_BUTTON_LEFT, 40, 23)));
  CHECK(p.released(0));
  CHECK_FALSE(p.down(0));
  CHECK(p.position() == Vec2{40, 23});

  CHECK(p.handle(button(true, SDL_BUTTON_RIGHT, 40, 23)));
  CHECK(p.down(1));
  CHECK_FALSE(p.handle(button(true, 4, 40, 23)));  // X1: not tracked, does not end the batch
}

TEST_CASE("pointer: leaving the window invalidates the position unless a drag goes on") {
  PointerTracker p;
  p.begin_frame();
  p.handle(motion(5, 5));
  CHECK(p.valid());
  p.handle(window_event(SDL_WINDOWEVENT_LEAVE));
  CHECK_FALSE(p.valid());
  p.handle(window_event(SDL_WINDOWEVENT_ENTER));
  CHECK(p.valid());
  p.handle(button(true, SDL_BUTTON_LEFT, 5, 5));
  p.handle(window_event(SDL_WINDOWEVENT_LEAVE));
  CHECK(p.valid());  // the drag goes on outside
  p.handle(motion(-30, 7));
  CHECK(p.position() == Vec2{-30, 7});
  // Focus lost mid-drag: the release will never come, so it is made up.
  p.begin_frame();
  p.handle(window_event(SDL_WINDOWEVENT_FOCUS_LOST));
  CHECK(p.released(0));
  CHECK_FALSE(p.down(0));
}

TEST_CASE("pointer: ImGui sees the events' position and a press for at least one frame") {
  ImGuiRig rig;
  ImGuiIO& io = ImGui::GetIO();
  PointerTracker p;
  p.begin_frame();
  p.apply(io);
  CHECK_FALSE(ImGui::IsMousePosValid(&io.MousePos));
  p.handle(motion(100, 50));
  p.handle(button(true, SDL_BUTTON_MIDDLE, 101, 52));
  io.MousePos = ImVec2(-1, -1);  // what a stale poll would have left
  p.apply(io);
  CHECK(io.MousePos.x == 101.0f);
  CHECK(io.MousePos.y == 52.0f);
  CHECK(io.MouseDown[2]);
  CHECK_FALSE(io.MouseDown[0]);
  p.begin_frame();
  p.handle(button(false, SDL_BUTTON_MIDDLE, 101, 52));
  p.apply(io);
  CHECK_FALSE(io.MouseDown[2]);
}

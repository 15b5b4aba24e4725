#pragma once

// The pointer as SDL's events report it. Dear ImGui 1.86's SDL2 backend polls SDL's
// global mouse state once per frame, minus the window position, and only while it
// believes the window has the mouse or keyboard focus: a window manager that reports
// the window position with its frame, a focus change or a pointer grab during a drag
// make that position wrong or absent, and every motion between two frames is lost.
// PointerTracker keeps the positions carried by the events themselves, in order, and
// hands them to ImGui and to the canvas.
//
// A button event ends the frame's event batch (the window loop leaves later events for
// the next frame), so a press is always seen at the position it happened, and a press
// and its release are never folded into one frame.

#include <vector>

#include "planner/core/types.hpp"

union SDL_Event;
struct ImGuiIO;

namespace pathscope::app {

/// Pointer state from SDL events, in window coordinates (points).
class PointerTracker {
 public:
  static constexpr int kButtons = 3;  ///< left, right, middle

  /// Starts a frame's event batch: forgets the previous frame's moves, presses, releases.
  void begin_frame();
  /// Takes one event; returns true when it was a button press or release, after which the
  /// window loop should stop taking events until the next frame.
  bool handle(const SDL_Event& event);
  /// Overrides the position and buttons ImGui's backend polled (call after
  /// ImGui_ImplSDL2_NewFrame, before ImGui::NewFrame).
  void apply(ImGuiIO& io) const;

  /// The pointer's last known position, and whether it is over the window (or a button is
  /// held, so a drag goes on outside it).
  Vec2 position() const { return position_; }
  bool valid() const { return known_ && (inside_ || buttons_ != 0); }
  bool down(int button) const { return (buttons_ >> button) & 1u; }
  bool pressed(int button) const { return (pressed_ >> button) & 1u; }
  bool released(int button) const { return (released_ >> button) & 1u; }
  /// Every position the pointer reported this frame, oldest first (motions and the
  /// position of a press or release).
  const std::vector<Vec2>& moves() const { return moves_; }

 private:
  void move_to(Vec2 p);

  Vec2 position_{0, 0};
  bool known_ = false;
  bool inside_ = true;
  unsigned buttons_ = 0, pressed_ = 0, released_ = 0;
  std::vector<Vec2> moves_;
};

}  // namespace pathscope::app

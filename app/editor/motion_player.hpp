#pragma once

// Plays the scenario's moving features in the window (seed 000's moving regions: the
// quadtree, its links and every path follow them edit by edit). World time advances in
// fixed steps of kFeatureMotionStep; frame times only fill an accumulator, so how fast
// the window draws never changes where the features are.

#include <cstdint>
#include <string>

#include "app/editor/editor_state.hpp"
#include "planner/scenario/feature_motion.hpp"

namespace pathscope::app {

/// Play, pause, single step and speed of the features' motion, for the open document.
/// Each play (from play() to pause()) is one undo step, "Move features".
class MotionPlayer {
 public:
  /// Most steps one frame may take (one second of world time); a frame that falls
  /// further behind drops the rest, so a slow re-plan never snowballs.
  static constexpr int kMaxStepsPerFrame = 30;
  /// Longest frame time counted (a frame after a stall counts as this long).
  static constexpr double kMaxFrameSeconds = 0.25;

  bool playing() const { return playing_; }
  /// Starts playing; false (and a message) when no feature of the document moves.
  bool play(EditorState& state);
  /// Stops playing; the steps played so far stay one undo step.
  void pause(EditorState& state);
  /// Advances exactly one step (pauses first).
  void step(EditorState& state);
  /// While playing: adds frame_seconds (at most kMaxFrameSeconds) * speed() of world
  /// time and applies the whole steps it holds as one edit; the first frame of a play
  /// adds nothing. Pauses when the document changes or the edit is refused.
  void update(EditorState& state, double frame_seconds);

  /// World seconds per real second (0.05 .. 20).
  double speed() const { return speed_; }
  void set_speed(double speed);
  /// World seconds played on this document.
  double time() const { return double(steps_) * kFeatureMotionStep; }
  /// Steps played on this document.
  std::uint64_t steps() const { return steps_; }

 private:
  // Applies `count` steps as one merged edit; false if the document refused it.
  bool advance(EditorState& state, int count);
  // Forgets the clock when another document was opened.
  void follow_document(const EditorState& state);

  bool playing_ = false;
  bool started_ = false;  // play() was called and no frame has passed since
  double speed_ = 1;
  double accumulator_ = 0;
  std::uint64_t steps_ = 0;
  std::uint64_t doc_serial_ = 0;
};

}  // namespace pathscope::app

// MotionPlayer: fixed-step motion of the features, applied to the document as merged
// edits (one undo step per play), re-planned by the debugger like any edit.

#include "app/editor/motion_player.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace pathscope::app {
namespace {

// Merge key of the motion's edits: consecutive steps of one play form one undo step.
constexpr std::uint64_t kMotionMergeKey = 0x6d6f74696f6eULL;  // "motion"

}  // namespace

void MotionPlayer::follow_document(const EditorState& state) {
  if (state.doc_serial == doc_serial_) return;
  doc_serial_ = state.doc_serial;
  playing_ = false;
  accumulator_ = 0;
  steps_ = 0;
}

bool MotionPlayer::play(EditorState& state) {
  follow_document(state);
  if (!state.doc) return false;
  if (moving_feature_count(state.doc->scenario()) == 0) {
    state.report_warning("Nothing moves: select a feature and give it a velocity in the inspector.");
    return false;
  }
  state.doc->end_merge();  // a new play is a new undo step
  playing_ = true;
  started_ = true;
  accumulator_ = 0;
  return true;
}

void MotionPlayer::pause(EditorState& state) {
  if (!playing_) return;
  playing_ = false;
  accumulator_ = 0;
  if (state.doc) state.doc->end_merge();
}

void MotionPlayer::step(EditorState& state) {
  follow_document(state);
  pause(state);
  if (!state.doc || moving_feature_count(state.doc->scenario()) == 0) return;
  advance(state, 1);
  state.doc->end_merge();  // each single step is its own undo step
}

void MotionPlayer::update(EditorState& state, double frame_seconds) {
  follow_document(state);
  if (!playing_ || !state.doc) return;
  // The frame that pressed Play measured the idle time before it: it plays nothing.
  if (std::exchange(started_, false) || !(frame_seconds > 0)) return;
  accumulator_ += std::min(frame_seconds, kMaxFrameSeconds) * speed_;
  const double whole = std::floor(accumulator_ / kFeatureMotionStep);
  if (whole < 1) return;
  const int count = int(std::min<double>(whole, kMaxStepsPerFrame));
  accumulator_ = whole > kMaxStepsPerFrame ? 0 : accumulator_ - whole * kFeatureMotionStep;
  if (!advance(state, count)) pause(state);
}

void MotionPlayer::set_speed(double speed) { speed_ = std::clamp(speed, 0.05, 20.0); }

bool MotionPlayer::advance(EditorState& state, int count) {
  const Status done = state.doc->apply(
      "Move features",
      [count](Scenario& s) {
        for (int i = 0; i < count; ++i) advance_features(s, kFeatureMotionStep);
      },
      kMotionMergeKey);
  if (!done.ok()) {
    state.report_error("Motion stopped: " + done.error().to_string());
    return false;
  }
  steps_ += std::uint64_t(count);
  return true;
}

}  // namespace pathscope::app

// The motion player: frame times only decide how many fixed steps run, the features are
// where that many steps put them; each play is one undo step; a frame never takes more
// than a second of world time; a document without moving features does not play.

#include "app/editor/motion_player.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "app/editor/default_scenario.hpp"

using namespace pathscope;
using namespace pathscope::app;

namespace {

EditorState state_with(Scenario s) {
  EditorState state;
  state.open_document(std::make_unique<Document>(std::move(s)));
  return state;
}

Scenario moving_scenario() {
  Scenario s = make_empty_scenario(60, 40, 1);
  Feature f;
  f.id = 1;
  f.terrain = 0;
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = {10, 10};
  f.shape.max = {16, 14};
  f.velocity = {25, -11};
  s.features.push_back(f);
  return s;
}

// `s` after `steps` fixed steps.
Scenario stepped(Scenario s, std::uint64_t steps) {
  for (std::uint64_t i = 0; i < steps; ++i) advance_features(s, kFeatureMotionStep);
  return s;
}

}  // namespace

TEST_SUITE("motion_player") {
  TEST_CASE("motion_player: features are where the steps played put them, whatever the frame times") {
    const Scenario start = moving_scenario();
    for (const double frame : {1.0 / 144, 1.0 / 60, 1.0 / 23, 0.2}) {
      CAPTURE(frame);
      EditorState state = state_with(start);
      MotionPlayer player;
      REQUIRE(player.play(state));
      player.update(state, 5.0);  // the frame that pressed Play: nothing
      CHECK(player.steps() == 0);
      for (double t = 0; t < 3.0; t += frame) player.update(state, frame);
      // About 3 s of world time at 30 steps per second, bit for bit where that many steps go.
      CHECK(player.steps() >= 88);
      CHECK(player.steps() <= 92);
      CHECK(state.doc->scenario() == stepped(start, player.steps()));
      CHECK(player.time() == doctest::Approx(double(player.steps()) / 30));
    }
  }

  TEST_CASE("motion_player: speed scales world time, a slow frame takes at most one second of it") {
    EditorState state = state_with(moving_scenario());
    MotionPlayer player;
    player.set_speed(2);
    REQUIRE(player.play(state));
    player.update(state, 0.5);
    CHECK(player.steps() == 0);
    player.update(state, 0.2);
    CHECK(player.steps() == 12);
    player.update(state, 10);  // a stall counts as a quarter of a second
    CHECK(player.steps() == 27);
    player.set_speed(20);
    player.update(state, 10);  // 5 s of world time: capped at one second, the rest dropped
    CHECK(player.steps() == 27 + MotionPlayer::kMaxStepsPerFrame);
    player.update(state, 0.001);
    CHECK(player.steps() == 57);  // nothing carried over from the stall
    player.set_speed(1000);
    CHECK(player.speed() == 20);
  }

  TEST_CASE("motion_player: each play is one undo step, and a single step is one too") {
    const Scenario start = moving_scenario();
    EditorState state = state_with(start);
    MotionPlayer player;
    REQUIRE(player.play(state));
    for (int i = 0; i < 21; ++i) player.update(state, 1.0 / 30);
    player.pause(state);
    CHECK_FALSE(player.playing());
    CHECK(state.doc->history_size() == 1);
    CHECK(state.doc->undo_label() == "Move features");
    REQUIRE(player.play(state));
    for (int i = 0; i < 5; ++i) player.update(state, 1.0 / 30);
    player.pause(state);
    player.step(state);
    CHECK(state.doc->history_size() == 3);
    CHECK(state.doc->scenario() == stepped(start, player.steps()));
    state.doc->undo();
    state.doc->undo();
    state.doc->undo();
    CHECK(state.doc->scenario() == start);
    CHECK_FALSE(state.doc->modified());
  }

  TEST_CASE("motion_player: nothing to play without a velocity, another document stops the play") {
    EditorState still = state_with(make_empty_scenario(20, 20, 1));
    MotionPlayer player;
    CHECK_FALSE(player.play(still));
    CHECK_FALSE(player.playing());
    REQUIRE_FALSE(still.messages.empty());
    CHECK(still.messages.entries().back().severity == Severity::Warning);

    EditorState state = state_with(moving_scenario());
    REQUIRE(player.play(state));
    player.update(state, 0.1);
    player.update(state, 0.1);
    CHECK(player.steps() == 3);
    state.open_document(std::make_unique<Document>(moving_scenario()));
    player.update(state, 0.1);
    CHECK_FALSE(player.playing());
    CHECK(player.steps() == 0);
    CHECK(state.doc->history_size() == 0);
  }
}

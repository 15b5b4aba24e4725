// The canvas turns a frame's pointer input into tool events and camera moves: a stroke
// visits every position the pointer passed, a pan moves the map by exactly what the
// pointer moved after the press, and a press over a panel never reaches the map.

#include "app/editor/canvas.hpp"
#include "app/editor/tool.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>

using namespace pathscope;
using namespace pathscope::app;

namespace {

// An editor on an empty 100 x 80 m world of 1 m cells, seen at 10 pixels per metre with
// the world's origin at the screen's: screen = 10 * world.
struct CanvasRig {
  EditorState state;
  Canvas canvas;
  std::unique_ptr<Tool> tool;

  explicit CanvasRig(const char* tool_name = "brush") {
    state.open_document(std::make_unique<Document>(make_empty_scenario(100, 80, 1)));
    state.camera.set_viewport({0, 0}, {1000, 800});
    state.camera.set_zoom(10);
    state.camera.set_center({50, 40});
    tool = find_tool(tool_name)->create();
  }
  // One frame: the pointer passes `moves` (the last is where it rests).
  void frame(std::vector<Vec2> moves, int press = -1, int release = -1, bool over_canvas = true) {
    CanvasInput in;
    in.moves = moves;
    in.mouse = moves.back();
    in.mouse_valid = true;
    in.over_canvas = over_canvas;
    for (int b = 0; b < 3; ++b) {
      in.pressed[b] = b == press;
      in.released[b] = b == release;
      if (b == press) held[b] = true;
      if (b == release) held[b] = false;
      in.down[b] = held[b];
    }
    canvas.handle_input(state, tool.get(), in);
  }
  std::uint8_t terrain_at(Vec2 world) const {
    const TileGrid& g = *state.doc->scenario().tiles;
    return g.terrain[std::size_t(std::floor(world.y)) * g.width + std::size_t(std::floor(world.x))];
  }
  std::array<bool, 3> held{};
};

bool same(Vec2 a, Vec2 b) { return std::abs(a.x - b.x) < 1e-9 && std::abs(a.y - b.y) < 1e-9; }

}  // namespace

TEST_CASE("canvas: a brush stroke paints every cell along the pointer's way, as one undo step") {
  CanvasRig rig;
  rig.state.paint.brush_terrain = 1;
  rig.state.paint.brush_size = 3;  // a 3 x 3 stamp covers every cell the line crosses
  rig.frame({{100, 100}}, 0);      // press at world (10, 10)
  REQUIRE(rig.canvas.dragging());
  // Twenty small moves to (60, 30), over a few frames, as a hand makes them.
  for (int f = 0; f < 4; ++f) {
    std::vector<Vec2> moves;
    for (int k = 1; k <= 5; ++k) {
      const double t = (f * 5 + k) / 20.0;
      moves.push_back(Vec2{100, 100} + (Vec2{600, 300} - Vec2{100, 100}) * t);
    }
    rig.frame(moves);
  }
  rig.frame({{600, 300}}, -1, 0);
  CHECK_FALSE(rig.canvas.dragging());
  for (int i = 0; i <= 50; ++i) {
    const Vec2 p = Vec2{10.5, 10.5} + (Vec2{59.5, 29.5} - Vec2{10.5, 10.5}) * (i / 50.0);
    CAPTURE(p);
    CHECK(rig.terrain_at(p) == 1);
  }
  CHECK(rig.terrain_at({30.5, 30.5}) == 0);  // off the stroke
  CHECK(rig.terrain_at({30.5, 40.5}) == 0);
  REQUIRE(rig.state.doc->can_undo());
  rig.state.doc->undo();  // the tile grid's creation stays; the stroke is gone
  CHECK(rig.terrain_at({10.5, 10.5}) == 0);
  CHECK(rig.terrain_at({59.5, 29.5}) == 0);
}

TEST_CASE("canvas: a pan moves the map by exactly what the pointer moved after the press") {
  CanvasRig rig("select");
  const Vec2 before = rig.state.camera.to_screen({0, 0});
  // The pointer arrives and the right button goes down in the same frame: the arrival
  // is not a drag.
  rig.frame({{300, 300}, {400, 350}}, 1);
  CHECK(rig.canvas.panning());
  CHECK(same(rig.state.camera.to_screen({0, 0}), before));
  for (int k = 1; k <= 20; ++k) rig.frame({{400.0 + 6 * k, 350.0 + 3 * k}});
  rig.frame({{520, 410}}, -1, 1);
  CHECK_FALSE(rig.canvas.panning());
  CHECK(same(rig.state.camera.to_screen({0, 0}), before + Vec2{120, 60}));
  // The pointer moving afterwards pans nothing.
  rig.frame({{700, 700}});
  CHECK(same(rig.state.camera.to_screen({0, 0}), before + Vec2{120, 60}));
  CHECK_FALSE(rig.state.doc->modified());
}

TEST_CASE("canvas: Space + left drag pans instead of painting") {
  CanvasRig rig;
  const Vec2 before = rig.state.camera.to_screen({0, 0});
  CanvasInput in;
  in.moves = {{500, 500}};
  in.mouse = {500, 500};
  in.mouse_valid = in.over_canvas = true;
  in.space = true;
  in.pressed[0] = in.down[0] = true;
  rig.canvas.handle_input(rig.state, rig.tool.get(), in);
  in.pressed[0] = false;
  in.moves = {{480, 490}, {440, 470}};
  in.mouse = {440, 470};
  rig.canvas.handle_input(rig.state, rig.tool.get(), in);
  in.down[0] = false;
  in.released[0] = true;
  in.moves = {{440, 470}};
  rig.canvas.handle_input(rig.state, rig.tool.get(), in);
  CHECK(same(rig.state.camera.to_screen({0, 0}), before + Vec2{-60, -30}));
  CHECK_FALSE(rig.state.doc->scenario().tiles.has_value());
}

TEST_CASE("canvas: a press over a panel reaches neither the tool nor the camera") {
  CanvasRig rig;
  const Vec2 before = rig.state.camera.to_screen({0, 0});
  rig.frame({{100, 100}}, 0, -1, false);
  rig.frame({{300, 100}}, -1, -1, false);
  rig.frame({{300, 100}}, -1, 0, false);
  rig.frame({{100, 100}}, 1, -1, false);
  rig.frame({{300, 100}}, -1, -1, false);
  rig.frame({{300, 100}}, -1, 1, false);
  CHECK_FALSE(rig.canvas.dragging());
  CHECK_FALSE(rig.canvas.hover_world());
  CHECK(same(rig.state.camera.to_screen({0, 0}), before));
  CHECK_FALSE(rig.state.doc->modified());
}

TEST_CASE("canvas: a stroke goes on when the pointer crosses a panel, and ends at the release") {
  CanvasRig rig;
  rig.state.paint.brush_terrain = 1;
  rig.frame({{100, 100}}, 0);
  rig.frame({{200, 100}, {300, 100}}, -1, -1, false);  // over a panel, button held
  rig.frame({{400, 100}}, -1, 0, true);
  for (double x = 10.5; x <= 39.5; x += 1) CHECK(rig.terrain_at({x, 10.5}) == 1);
  CHECK_FALSE(rig.canvas.dragging());
}

TEST_CASE("canvas: the brush outline goes when the pointer leaves the canvas") {
  CanvasRig rig;
  const ToolContext ctx{rig.state, *rig.state.doc, 10.0};
  render::DrawList preview;
  rig.frame({{300, 300}});
  rig.frame({{310, 300}});
  CHECK(rig.canvas.hover_world());
  rig.tool->draw_preview(ctx, preview);
  CHECK_FALSE(preview.empty());
  rig.frame({{310, 300}}, -1, -1, false);  // over a panel
  CHECK_FALSE(rig.canvas.hover_world());
  preview.clear();
  rig.tool->draw_preview(ctx, preview);
  CHECK(preview.empty());
}

namespace {

// A tool that only records its right clicks.
class RightClicks final : public Tool {
 public:
  void on_right_click(ToolContext&, const PointerEvent& e) override { clicks.push_back(e.world); }
  std::vector<Vec2> clicks;
};

}  // namespace

TEST_CASE("canvas: a right press and release without a drag is a click for the tool, a right drag pans") {
  CanvasRig rig("select");
  auto recorder = std::make_unique<RightClicks>();
  RightClicks& clicks = *recorder;
  rig.tool = std::move(recorder);
  const Vec2 before = rig.state.camera.to_screen({0, 0});
  // Press, a wobble within the slop, release: a click where the button went down, no pan.
  rig.frame({{300, 200}}, 1);
  rig.frame({{302, 201}});
  rig.frame({{302, 201}}, -1, 1);
  REQUIRE(clicks.clicks.size() == 1);
  CHECK(same(clicks.clicks[0], {30, 20}));
  CHECK(same(rig.state.camera.to_screen({0, 0}), before));
  CHECK_FALSE(rig.canvas.panning());
  // Pressed and released within one frame.
  rig.frame({{500, 400}}, 1, 1);
  REQUIRE(clicks.clicks.size() == 2);
  CHECK(same(clicks.clicks[1], {50, 40}));
  // A right drag pans and clicks nothing.
  rig.frame({{300, 300}}, 1);
  for (int k = 1; k <= 10; ++k) rig.frame({{300.0 + 5 * k, 300}});
  rig.frame({{350, 300}}, -1, 1);
  CHECK(clicks.clicks.size() == 2);
  CHECK(same(rig.state.camera.to_screen({0, 0}), before + Vec2{50, 0}));
}

namespace {

// A tool that takes every right drag, recording each call.
class RightDrags final : public Tool {
 public:
  bool takes_right_drag(const ToolContext&, const PointerEvent&) const override { return true; }
  void on_right_click(ToolContext&, const PointerEvent& e) override { clicks.push_back(e.world); }
  void on_right_drag(ToolContext&, const PointerEvent& from, const PointerEvent& to, bool done) override {
    starts.push_back(from.world);
    ends.push_back(to.world);
    dones.push_back(done);
  }
  std::vector<Vec2> clicks, starts, ends;
  std::vector<bool> dones;
};

}  // namespace

TEST_CASE("canvas: a right drag the tool takes reaches it, move by move, instead of panning") {
  CanvasRig rig("select");
  auto recorder = std::make_unique<RightDrags>();
  RightDrags& drags = *recorder;
  rig.tool = std::move(recorder);
  const Vec2 before = rig.state.camera.to_screen({0, 0});
  // Within the slop: a click where the button went down.
  rig.frame({{300, 200}}, 1);
  rig.frame({{302, 201}});
  rig.frame({{302, 201}}, -1, 1);
  REQUIRE(drags.clicks.size() == 1);
  CHECK(same(drags.clicks[0], {30, 20}));
  CHECK(drags.dones.empty());
  // A drag: every position past the slop, from where it began, then the release.
  rig.frame({{400, 300}}, 1);
  rig.frame({{401, 300}, {420, 300}, {440, 310}});
  rig.frame({{460, 320}}, -1, 1);
  CHECK(drags.clicks.size() == 1);
  REQUIRE(drags.dones.size() == 4);
  for (const Vec2 s : drags.starts) CHECK(same(s, {40, 30}));
  CHECK(same(drags.ends[0], {42, 30}));  // (401, 300) is within the slop
  CHECK(same(drags.ends[1], {44, 31}));
  CHECK(same(drags.ends[2], {46, 32}));
  CHECK(same(drags.ends[3], {46, 32}));
  CHECK(drags.dones == std::vector<bool>{false, false, false, true});
  // The map never moved, and the next right press is a fresh start.
  CHECK(same(rig.state.camera.to_screen({0, 0}), before));
  CHECK_FALSE(rig.canvas.panning());
  rig.frame({{100, 100}}, 1, 1);
  CHECK(drags.clicks.size() == 2);
}

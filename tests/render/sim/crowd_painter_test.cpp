// The crowd painter: DetourCrowd's agents as rings (ghosts over our units) or discs (drawn
// alone), their moves over one second and their goals, each on its layer, from agents made
// here (no crowd needed).

#include "render/sim/crowd_painter.hpp"

#include "tests/render/draw_list_test_support.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <utility>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;
using pathscope::render::test_support::shapes;

namespace {

// Three agents: one moving with a goal, one standing with a goal, one standing without.
std::vector<CrowdAgent> crowd_painter_agents() {
  std::vector<CrowdAgent> agents(3);
  agents[0].radius = 0.5;
  agents[0].previous = {2.0, 3.0};
  agents[0].position = {2.1, 3.0};  // 0.1 m in a step of 0.05 s: 2 m/s
  agents[0].has_goal = true;
  agents[0].goal = {9, 3};
  agents[1].radius = 0.4;
  agents[1].previous = agents[1].position = {5, 5};
  agents[1].has_goal = true;
  agents[1].goal = {5, 9};
  agents[2].radius = 0.4;
  agents[2].previous = agents[2].position = {7, 1};
  return agents;
}

}  // namespace

TEST_CASE(
    "crowd painter: ghosts are rings of each agent's radius, a move line over one second, goal crosses") {
  const std::vector<CrowdAgent> agents = crowd_painter_agents();
  DrawList out;
  paint_crowd(agents, 0.05, CrowdStyle::Ghosts, LayerSet::all(), out);
  const auto circles = shapes<CirclePrim>(out, Layer::Units);
  REQUIRE(circles.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK_FALSE(circles[i]->filled);
    CHECK(circles[i]->center == agents[i].position);
    CHECK(circles[i]->radius == agents[i].radius);
  }
  for (const Primitive& p : out.layer(Layer::Units)) CHECK(p.color.r == crowd_palette::kAgent.r);
  // Only the moving agent has a move line: 2 m/s drawn 2 m long, along +x.
  const auto lines = shapes<LinePrim>(out, Layer::Units);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]->a == agents[0].position);
  CHECK(lines[0]->b.x == doctest::Approx(4.1));
  CHECK(lines[0]->b.y == doctest::Approx(3.0));
  // A cross (two lines through the goal) per agent with a goal.
  const auto goals = shapes<LinePrim>(out, Layer::SimTargets);
  REQUIRE(goals.size() == 4);
  for (const auto& [k, goal] : {std::pair{0, Vec2{9, 3}}, std::pair{2, Vec2{5, 9}}}) {
    const Vec2 mid = (goals[std::size_t(k)]->a + goals[std::size_t(k)]->b) / 2.0;
    CHECK(mid.x == doctest::Approx(goal.x));
    CHECK(mid.y == doctest::Approx(goal.y));
  }
}

TEST_CASE(
    "crowd painter: drawn alone, each agent is a filled disc under its ring, and layers off draw nothing") {
  const std::vector<CrowdAgent> agents = crowd_painter_agents();
  DrawList out;
  paint_crowd(agents, 0.05, CrowdStyle::Alone, LayerSet::all(), out);
  const auto circles = shapes<CirclePrim>(out, Layer::Units);
  REQUIRE(circles.size() == 6);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(circles[2 * i]->filled);
    CHECK_FALSE(circles[2 * i + 1]->filled);
    CHECK(circles[2 * i]->center == agents[i].position);
  }
  LayerSet only_units;
  only_units.set(Layer::Units);
  DrawList units;
  paint_crowd(agents, 0.05, CrowdStyle::Ghosts, only_units, units);
  CHECK(units.count(Layer::SimTargets) == 0);
  CHECK(units.count(Layer::Units) == 4);
  DrawList none;
  paint_crowd(agents, 0.05, CrowdStyle::Ghosts, LayerSet{}, none);
  CHECK(none.empty());
}

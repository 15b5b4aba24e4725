// The platoon layer: what is drawn for a platoon the simulation drives (a Simulation built
// from a scenario with a platoon group) and for crew states made here.

#include "render/sim/platoon_painter.hpp"

#include "render/sim/sim_painter.hpp"
#include "tests/render/draw_list_test_support.hpp"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;
using pathscope::render::test_support::shapes;

namespace platoon_painter_test {

/// An open 240 x 160 m world with a platoon (group 1) of `n` tracked vehicles in a line
/// round (60, 80) facing east, ordered to (200, 80).
Scenario line_platoon(std::size_t n) {
  Scenario s = make_empty_scenario(240, 160, 2);
  const std::size_t c = *s.find_class("tracked");
  const sim::PlatoonFormation f = sim::make_formation(sim::FormationShape::Line, n, 10);
  UnitGroup g;
  g.id = 1;
  for (std::size_t k = 0; k < n; ++k) {
    Unit u;
    u.id = static_cast<std::uint32_t>(k + 1);
    u.movement_class = c;
    u.position = sim::formation_point({60, 80}, 0, f.offsets[k]);
    s.units.push_back(u);
    g.units.push_back(u.id);
  }
  g.order = Order{OrderKind::Move, {{200, 80}}, PatrolMode::Loop};
  g.platoon = PlatoonSpec{"line", 10, 0};
  s.groups.push_back(g);
  return s;
}

/// Steps `sim` until its first platoon drives with drive-to points (at most 60 s).
void step_until_driving(sim::Simulation& sim) {
  for (int i = 0; i < 600; ++i) {
    const sim::PlatoonRun& p = sim.platoons()[0];
    if (p.order == sim::PlatoonOrderState::Driving && !p.targets.empty() && p.motion.along > 5) return;
    sim.step();
  }
}

/// The number of circles of `list`'s platoon layer centred within 1e-9 of `at`, of `color`.
int circles_at(const DrawList& list, Vec2 at, Color color, bool filled) {
  int n = 0;
  for (const Primitive& p : list.layer(Layer::SimPlatoons)) {
    const auto* c = std::get_if<CirclePrim>(&p.shape);
    if (c && c->filled == filled && p.color == color && glm::distance(c->center, at) < 1e-9) ++n;
  }
  return n;
}

/// Lines of the platoon layer from `a` to `b` (either way).
int lines_between(const DrawList& list, Vec2 a, Vec2 b) {
  int n = 0;
  for (const LinePrim* l : shapes<LinePrim>(list, Layer::SimPlatoons)) {
    if ((glm::distance(l->a, a) < 1e-9 && glm::distance(l->b, b) < 1e-9) ||
        (glm::distance(l->a, b) < 1e-9 && glm::distance(l->b, a) < 1e-9))
      ++n;
  }
  return n;
}

}  // namespace platoon_painter_test

using platoon_painter_test::circles_at;
using platoon_painter_test::line_platoon;
using platoon_painter_test::lines_between;
using platoon_painter_test::step_until_driving;

TEST_CASE("platoon painter: a driving platoon's path, pose, slots and drive-to points, from the simulation") {
  sim::Simulation sim(line_platoon(3));
  step_until_driving(sim);
  const sim::PlatoonRun& p = sim.platoons()[0];
  REQUIRE(p.order == sim::PlatoonOrderState::Driving);
  REQUIRE(p.targets.size() == 3);

  DrawList out;
  paint_sim(sim_scene(sim), LayerSet::defaults(), out);
  // The planned path, once, as planned.
  std::vector<const PolylinePrim*> paths, areas;
  for (const Primitive& prim : out.layer(Layer::SimPlatoons)) {
    const auto* l = std::get_if<PolylinePrim>(&prim.shape);
    if (l == nullptr) continue;
    if (prim.color == platoon_palette::kPath) paths.push_back(l);
    if (prim.color == platoon_palette::kArea) areas.push_back(l);
  }
  CHECK(shapes<PolylinePrim>(out, Layer::SimPlatoons).size() == 2);
  REQUIRE(paths.size() == 1);
  CHECK(paths[0]->points == p.path);
  // Its area: a closed outline through vehicles' positions only (the hull's corners).
  REQUIRE(areas.size() == 1);
  CHECK(areas[0]->closed);
  CHECK(areas[0]->points.size() >= 2);
  for (const Vec2 corner : areas[0]->points) {
    bool vehicle = false;
    for (const sim::UnitId id : p.slots) vehicle = vehicle || sim.unit(id)->body.position == corner;
    CHECK(vehicle);
  }
  // The pose: a ring at the platoon's position and an arrow from it along its heading.
  CHECK(circles_at(out, p.motion.position, platoon_palette::kPose, false) == 1);
  CHECK(out.count(Layer::SimPlatoons, PrimitiveKind::Polygon) == 1);
  // Every slot: a hollow formation ring, a filled drive-to dot coloured by its morph and
  // a line from its vehicle to it.
  for (std::size_t k = 0; k < 3; ++k) {
    const sim::SlotTarget& t = p.targets[k];
    CHECK(circles_at(out, t.formation, platoon_palette::kFormation, false) == 1);
    CHECK(circles_at(out, t.drive_to, drive_to_color(p.morph[k]), true) == 1);
    CHECK(lines_between(out, sim.unit(p.slots[k])->body.position, t.drive_to) == 1);
    // A column dot only while pulled in (open ground: none).
    CHECK(circles_at(out, t.column, platoon_palette::kColumn, true) == (p.morph[k] > 0 ? 1 : 0));
  }
  // Open ground, moving: nobody waits.
  CHECK(p.motion.phase == sim::PlatoonPhase::Moving);
  CHECK(out.count(Layer::SimPlatoons, PrimitiveKind::Text) == 3 - [&] {
    int still = 0;
    for (const sim::CrewState& c : p.crews) still += c.heading_case == sim::HeadingCase::Still ? 1 : 0;
    return still;
  }());

  // The layer's toggle: off, nothing of it; other layers unchanged.
  LayerSet layers = LayerSet::defaults();
  layers.set(Layer::SimPlatoons, false);
  DrawList none;
  paint_sim(sim_scene(sim), layers, none);
  CHECK(none.count(Layer::SimPlatoons) == 0);
  CHECK(none.count(Layer::Units) == out.count(Layer::Units));
  CHECK(layer_from_string("sim_platoons") == Layer::SimPlatoons);
  CHECK(map_layers(LayerSet::all(), true).contains(Layer::SimPlatoons) == false);
}

TEST_CASE("platoon painter: a slot whose vehicle left is drawn empty, with no line to its drive-to point") {
  sim::Simulation sim(line_platoon(3));
  const sim::UnitId lead = sim.platoons()[0].slots[0];
  const std::vector<sim::UnitId> one{lead};
  REQUIRE(sim.give_order(one, Order{OrderKind::Move, {{60, 20}}, PatrolMode::Loop}).ok());
  step_until_driving(sim);
  const sim::PlatoonRun& p = sim.platoons()[0];
  REQUIRE(p.order == sim::PlatoonOrderState::Driving);
  REQUIRE(p.targets.size() == 3);

  DrawList out;
  paint_platoons(sim.platoons(), sim.slots(), out);
  CHECK(circles_at(out, p.targets[0].formation, platoon_palette::kEmpty, false) == 1);
  CHECK(circles_at(out, p.targets[0].formation, platoon_palette::kFormation, false) == 0);
  CHECK(circles_at(out, p.targets[0].drive_to, drive_to_color(p.morph[0]), true) == 0);
  // Two drive-to dots (slots 1, 2), not three.
  int dots = 0;
  for (std::size_t k = 0; k < 3; ++k)
    dots += circles_at(out, p.targets[k].drive_to, drive_to_color(p.morph[k]), true);
  CHECK(dots == 2);
  CHECK(lines_between(out, sim.unit(lead)->body.position, p.targets[0].drive_to) == 0);
}

TEST_CASE(
    "platoon painter: crew cases, reversing, steering, avoidance, the stop mark, pulled-in slots, waiting") {
  std::vector<sim::SimUnit> units(2);
  for (std::uint32_t i = 0; i < 2; ++i) {
    units[i].id = {i, 1};
    units[i].alive = true;
    units[i].body.position = units[i].body.previous = Vec2{10.0 + 10 * i, 20};
  }
  sim::PlatoonRun p;
  p.slots = {units[0].id, units[1].id};
  const std::vector<Vec2> path{{15, 20}, {60, 20}};
  p.path = path;
  p.walk = sim::PathWalk({15, 20}, 0, path, 8);
  p.motion.position = {15, 20};
  p.motion.phase = sim::PlatoonPhase::Waiting;
  p.morph = {0, 1};
  p.targets.resize(2);
  p.targets[0] = {{12, 25}, {12, 20}, {12, 25}, 0};
  p.targets[1] = {{22, 25}, {5, 20}, {5, 20}, 1};  // 15 m from its vehicle: the straggler.
  p.crews.resize(2);
  p.crews[0].heading_case = sim::HeadingCase::BehindSameHeading;
  p.crews[0].direction = -1;
  p.crews[0].steering = {-2, 0};
  p.crews[0].avoided = units[1].id;
  p.crews[0].stopped = true;
  p.crews[1].heading_case = sim::HeadingCase::Still;

  DrawList out;
  paint_platoons(std::span<const sim::PlatoonRun>(&p, 1), units, out);
  std::vector<std::string> texts;
  for (const TextPrim* t : shapes<TextPrim>(out, Layer::SimPlatoons)) texts.push_back(t->text);
  // Case 3 reversing for the first crew, none for the still one; the wait and how far.
  CHECK(texts == std::vector<std::string>{"3R", "waiting: 15.0 m"});
  CHECK(lines_between(out, {10, 20}, {8, 20}) == 1);   // Steering, one second of it.
  CHECK(lines_between(out, {10, 20}, {20, 20}) == 1);  // To the vehicle it avoids.
  // The lead-in: from 8 m behind the path's start to it.
  CHECK(lines_between(out, {7, 20}, {15, 20}) == 1);
  // The stop mark: two red strokes on the first vehicle only.
  int red = 0;
  for (const Primitive& prim : out.layer(Layer::SimPlatoons))
    red += prim.color == platoon_palette::kStopped ? 1 : 0;
  CHECK(red == 2);
  // The pulled-in slot: its column dot, and a drive-to in the pulled-in colour.
  CHECK(circles_at(out, {5, 20}, platoon_palette::kColumn, true) == 1);
  CHECK(circles_at(out, {5, 20}, platoon_palette::kPulledIn, true) == 1);
  CHECK(circles_at(out, {12, 25}, platoon_palette::kDriveTo, true) == 1);
  CHECK(circles_at(out, {12, 20}, platoon_palette::kColumn, true) == 0);  // Not pulled in: no column dot.
  CHECK(!(drive_to_color(1) == drive_to_color(0)));

  // No walk (never ordered): nothing.
  sim::PlatoonRun idle;
  DrawList empty;
  paint_platoons(std::span<const sim::PlatoonRun>(&idle, 1), units, empty);
  CHECK(empty.count(Layer::SimPlatoons) == 0);
}

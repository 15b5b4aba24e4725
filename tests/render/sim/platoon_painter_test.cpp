#include "render/sim/platoon_painter.hpp"

#include <string>
#include <variant>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/formation_cases.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::render {

namespace platoon_painter_test {

/// The shapes of `kind` on SimPlatoons.
template <typename T>
std::vector<T> shapes_of(const DrawList& out, PrimitiveKind kind) {
  std::vector<T> v;
  for (const Primitive* p : out.find(Layer::SimPlatoons, kind)) v.push_back(std::get<T>(p->shape));
  return v;
}

}  // namespace platoon_painter_test

TEST_CASE(
    "platoon painter: the platoon's arrow and phase, each slot's drive-to point and its vehicle's line to "
    "it") {
  using platoon_painter_test::shapes_of;
  sim::Simulation sim(sim::formation_case(sim::FormationCase::Town, "tracked", 4));
  for (int i = 0; i < 300; ++i) sim.step();  // 10 s: driving, every slot with a point
  REQUIRE(sim.platoons().size() == 1);
  const sim::PlatoonRun& p = sim.platoons()[0];
  REQUIRE(p.order == sim::PlatoonOrderState::Driving);
  REQUIRE(p.targets.size() == 4);
  DrawList out;
  paint_platoons(sim.platoons(), sim.slots(), out);

  // One arrow, at the platoon's position, and its label.
  const auto arrows = shapes_of<PolygonPrim>(out, PrimitiveKind::Polygon);
  REQUIRE(arrows.size() == 1);
  Vec2 centroid{0, 0};
  for (const Vec2& v : arrows[0].points) centroid += v / 3.0;
  CHECK(glm::distance(centroid, p.motion.position) < 0.5 * p.spacing);
  const auto texts = shapes_of<TextPrim>(out, PrimitiveKind::Text);
  bool labelled = false;
  for (const TextPrim& t : texts) labelled = labelled || t.text == "platoon 1: moving";
  CHECK(labelled);
  // A filled dot on every drive-to point, and a line from each vehicle to it.
  const auto circles = shapes_of<CirclePrim>(out, PrimitiveKind::Circle);
  const auto lines = shapes_of<LinePrim>(out, PrimitiveKind::Line);
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    const Vec2 point = p.targets[k].drive_to;
    const Vec2 vehicle = sim.unit(p.slots[k])->body.position;
    bool dot = false;
    for (const CirclePrim& c : circles) dot = dot || (c.filled && glm::distance(c.center, point) < 1e-9);
    CHECK(dot);
    bool joined = false;
    for (const LinePrim& l : lines)
      joined = joined || (glm::distance(l.a, vehicle) < 1e-9 && glm::distance(l.b, point) < 1e-9);
    CHECK(joined);
  }
  // The path: the lead-in as a line, the planned path as one polyline.
  CHECK(shapes_of<PolylinePrim>(out, PrimitiveKind::Polyline).size() >= 1);
}

TEST_CASE("platoon painter: a slot whose vehicle is gone is drawn empty, with no line to it") {
  using platoon_painter_test::shapes_of;
  sim::Simulation sim(sim::formation_case(sim::FormationCase::Town, "tracked", 4));
  for (int i = 0; i < 150; ++i) sim.step();
  const sim::UnitId gone = sim.platoons()[0].slots[3];
  REQUIRE(sim.remove_unit(gone));
  for (int i = 0; i < 30; ++i) sim.step();
  const sim::PlatoonRun& p = sim.platoons()[0];
  REQUIRE(p.targets.size() == 4);
  DrawList out;
  paint_platoons(sim.platoons(), sim.slots(), out);
  const Vec2 empty = p.targets[3].drive_to;
  for (const LinePrim& l : shapes_of<LinePrim>(out, PrimitiveKind::Line))
    CHECK(glm::distance(l.b, empty) > 1e-9);
  bool ring = false;
  for (const CirclePrim& c : shapes_of<CirclePrim>(out, PrimitiveKind::Circle))
    ring = ring || (!c.filled && glm::distance(c.center, p.targets[3].formation) < 1e-9);
  CHECK(ring);
  // Nothing is drawn for no platoons.
  DrawList none;
  paint_platoons({}, sim.slots(), none);
  CHECK(none.empty());
}

}  // namespace pathscope::render

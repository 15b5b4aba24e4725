// The simulation painter: units, paths, predicted positions, collisions, cooperation
// targets and the density heat map, each on its layer, from values made here (no
// Simulation needed).

#include "render/sim/sim_painter.hpp"

#include "render/core/color_ramp.hpp"
#include "tests/render/draw_list_test_support.hpp"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;
using pathscope::render::test_support::shapes;

namespace {

// Two factions (red, blue), a round class and an elongated one (hard aspect 0.5).
Scenario sim_painter_scenario() {
  Scenario s = make_empty_scenario(20, 20, 1);
  s.factions.resize(2);
  s.factions[0].name = "red";
  s.factions[0].color = {220, 30, 30, 255};
  s.factions[1].name = "blue";
  s.factions[1].color = {30, 60, 220, 255};
  s.classes.resize(2);
  s.classes[0].name = "round";
  s.classes[0].radius = 0.5;
  s.classes[1].name = "long";
  s.classes[1].radius = 1;
  s.classes[1].hard_radius = 2;
  s.classes[1].hard_aspect = 0.5;
  return s;
}

sim::SimUnit make_unit(std::uint32_t index, Vec2 position, std::size_t faction = 0,
                       std::size_t movement_class = 0) {
  sim::SimUnit u;
  u.id = {index, 1};
  u.alive = true;
  u.scenario_id = index + 1;
  u.body.position = u.body.previous = position;
  u.faction = faction;
  u.movement_class = movement_class;
  return u;
}

sim::Collision make_collision(sim::UnitId a, sim::UnitId b, bool hard, bool immediate, Vec2 point,
                              sim::CollisionState state) {
  sim::Collision c;
  c.a = a;
  c.b = b;
  c.hard = hard;
  c.immediate = immediate;
  c.point = point;
  c.state = state;
  return c;
}

std::size_t filled_circles(const DrawList& list, Layer layer) {
  std::size_t n = 0;
  for (const CirclePrim* c : shapes<CirclePrim>(list, layer)) n += c->filled ? 1 : 0;
  return n;
}

}  // namespace

TEST_SUITE("render") {
  TEST_CASE("sim painter: one body per alive unit in its faction's colour, heading and velocity lines") {
    const Scenario s = sim_painter_scenario();
    std::vector<sim::SimUnit> units = {make_unit(0, {2, 2}, 0), make_unit(1, {5, 5}, 1),
                                       make_unit(2, {8, 8}, 1), make_unit(3, {9, 9}, 0)};
    units[2].alive = false;                         // a removed unit's slot
    units[1].body.heading = 3.141592653589793 / 2;  // facing up the screen (-y)
    units[1].body.speed = 3;
    DrawList out;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);

    REQUIRE(filled_circles(out, Layer::Units) == 3);
    std::vector<Vec2> centres;
    for (const Primitive& p : out.layer(Layer::Units)) {
      const auto* c = std::get_if<CirclePrim>(&p.shape);
      if (!c || !c->filled) continue;
      centres.push_back(c->center);
      CHECK(c->radius == doctest::Approx(0.5));  // the class's radius (hard radius by default)
      CHECK(p.color == s.factions[c->center == Vec2{5, 5} ? 1 : 0].color);
    }
    CHECK(centres == std::vector<Vec2>{{2, 2}, {5, 5}, {9, 9}});
    // A soft-radius ring per unit, 1.5 x the hard radius by default, faint.
    std::size_t rings = 0;
    for (const Primitive& p : out.layer(Layer::Units)) {
      const auto* c = std::get_if<CirclePrim>(&p.shape);
      if (c && !c->filled && c->radius == doctest::Approx(0.75)) {
        ++rings;
        CHECK(p.color.a < 255);
      }
    }
    CHECK(rings == 3);
    // Heading lines for all three; one velocity arrow, for the moving unit, 3 m long, up:
    // a line and its head, whose tip is where one second takes it.
    std::vector<const LinePrim*> velocity;
    for (const Primitive& p : out.layer(Layer::Units)) {
      if (p.color == sim_palette::kVelocity && p.kind() == PrimitiveKind::Line) {
        velocity.push_back(&std::get<LinePrim>(p.shape));
      }
    }
    CHECK(out.count(Layer::Units, PrimitiveKind::Line) == 4);
    REQUIRE(velocity.size() == 1);
    CHECK(velocity[0]->a == Vec2{5, 5});
    CHECK(velocity[0]->b.x == doctest::Approx(5));
    CHECK(velocity[0]->b.y < 5);
    const auto heads = out.find(Layer::Units, PrimitiveKind::Polygon);
    REQUIRE(heads.size() == 1);
    const std::vector<Vec2>& tip = std::get<PolygonPrim>(heads[0]->shape).points;
    CHECK(tip[0].x == doctest::Approx(5));
    CHECK(tip[0].y == doctest::Approx(2));
    // Nothing selected, nothing highlighted.
    for (const Primitive& p : out.layer(Layer::Units)) CHECK(p.color != sim_palette::kSelected);
  }

  TEST_CASE("sim painter: an elongated class is an ellipse along the heading, selected units get a ring") {
    const Scenario s = sim_painter_scenario();
    std::vector<sim::SimUnit> units = {make_unit(0, {10, 10}, 0, 1), make_unit(1, {4, 4})};
    units[0].body.heading = 0;  // along +x
    const std::vector<sim::UnitId> selected = {units[0].id, sim::UnitId{7, 1}, sim::UnitId{1, 9}};
    DrawList out;
    paint_sim({&s, units, {}, nullptr, selected, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);

    CHECK(filled_circles(out, Layer::Units) == 1);  // only the round unit
    const auto polygons = shapes<PolygonPrim>(out, Layer::Units);
    REQUIRE(polygons.size() == 1);
    double min_x = 1e9, max_x = -1e9, min_y = 1e9, max_y = -1e9;
    for (const Vec2& p : polygons[0]->points) {
      min_x = std::min(min_x, p.x);
      max_x = std::max(max_x, p.x);
      min_y = std::min(min_y, p.y);
      max_y = std::max(max_y, p.y);
    }
    CHECK(max_x - min_x == doctest::Approx(4));                    // 2 x hard radius along the heading
    CHECK(max_y - min_y == doctest::Approx(2));                    // half as wide across it
    CHECK(out.count(Layer::Units, PrimitiveKind::Polyline) == 1);  // its outline

    // The selected unit alone has the highlight ring; unknown ids are ignored.
    std::vector<const CirclePrim*> highlight;
    for (const Primitive& p : out.layer(Layer::Units)) {
      if (p.color == sim_palette::kSelected) highlight.push_back(&std::get<CirclePrim>(p.shape));
    }
    REQUIRE(highlight.size() == 1);
    CHECK(highlight[0]->center == Vec2{10, 10});
    CHECK_FALSE(highlight[0]->filled);
  }

  TEST_CASE("sim painter: stuck units are ringed in red and a log entry's point is marked") {
    const Scenario s = sim_painter_scenario();
    std::vector<sim::SimUnit> units = {make_unit(0, {2, 2}, 0), make_unit(1, {5, 5}, 1),
                                       make_unit(2, {8, 8}, 0)};
    units[2].alive = false;
    const auto stuck_rings = [](const DrawList& out) {
      std::vector<Vec2> centres;
      for (const Primitive& p : out.layer(Layer::Units)) {
        const auto* c = std::get_if<CirclePrim>(&p.shape);
        if (c && !c->filled && p.color == sim_palette::kStuck) centres.push_back(c->center);
      }
      return centres;
    };
    DrawList none;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), none);
    CHECK(stuck_rings(none).empty());
    // Unit 1 stuck; unit 2's slot is dead and an id of another generation names nobody.
    DrawList out;
    const std::vector<sim::UnitId> stuck{units[1].id, units[2].id, sim::UnitId{0, 7}};
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, Vec2{3, 4}, stuck, {}, {}, {}}, LayerSet::all(), out);
    CHECK(stuck_rings(out) == std::vector<Vec2>{{5, 5}});
    bool focus = false;
    for (const Primitive& p : out.layer(Layer::SimTargets)) {
      const auto* c = std::get_if<CirclePrim>(&p.shape);
      focus = focus || (c && p.color == sim_palette::kFocus && c->center == Vec2{3, 4});
    }
    CHECK(focus);
  }

  TEST_CASE("sim painter: a collision is a line between its units in its state's colour") {
    const Scenario s = sim_painter_scenario();
    const std::vector<sim::SimUnit> units = {make_unit(0, {2, 2}), make_unit(1, {4, 2}),
                                             make_unit(2, {6, 6})};
    const std::vector<sim::Collision> collisions = {
        make_collision(units[0].id, units[1].id, true, true, {3, 2}, sim::CollisionState::Unresolved),
        make_collision(units[1].id, units[2].id, true, false, {5, 4}, sim::CollisionState::Resolving),
        make_collision(units[0].id, units[2].id, false, false, {4, 4}, sim::CollisionState::Resolved),
        // A unit of an old generation in slot 1: skipped.
        make_collision(units[0].id, sim::UnitId{1, 0}, true, true, {3, 2}, sim::CollisionState::Unresolved),
    };
    DrawList out;
    paint_sim({&s, units, collisions, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);

    const auto lines = out.find(Layer::SimCollisions, PrimitiveKind::Line);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0]->color == sim_palette::kUnresolved);
    CHECK(lines[1]->color == sim_palette::kResolving);
    CHECK(lines[2]->color == with_alpha(sim_palette::kResolved, 150));  // soft only: fainter
    const LinePrim& a = std::get<LinePrim>(lines[0]->shape);
    CHECK(a.a == Vec2{2, 2});
    CHECK(a.b == Vec2{4, 2});
    // Immediate collisions are thicker than predicted ones, which also mark their point.
    CHECK(a.thickness > std::get<LinePrim>(lines[1]->shape).thickness);
    const auto points = out.find(Layer::SimCollisions, PrimitiveKind::Circle);
    REQUIRE(points.size() == 2);
    CHECK(std::get<CirclePrim>(points[0]->shape).center == Vec2{5, 4});
    CHECK(collision_color(sim::CollisionState::Resolved) == sim_palette::kResolved);

    LayerSet no_collisions = LayerSet::all();
    no_collisions.set(Layer::SimCollisions, false);
    out.clear();
    paint_sim({&s, units, collisions, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, no_collisions, out);
    CHECK(out.count(Layer::SimCollisions) == 0);
    CHECK(filled_circles(out, Layer::Units) == 3);
  }

  TEST_CASE("sim painter: the remaining path from the unit on, its waypoint, its predicted positions") {
    const Scenario s = sim_painter_scenario();
    std::vector<sim::SimUnit> units = {make_unit(0, {2, 2}), make_unit(1, {5, 5})};
    units[0].route.path = {{1, 2}, {4, 2}, {4, 8}, {9, 8}};
    units[0].route.waypoint = 2;
    units[0].route.predicted = {{{3, 2}, 0, 0.1}, {{4, 2}, 0, 0.2}, {{4, 3}, 1.5, 0.3}};
    units[1].route.path = {{5, 5}, {6, 6}};
    units[1].route.waypoint = 2;  // past its path's end: nothing left to draw
    DrawList out;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);

    const auto paths = shapes<PolylinePrim>(out, Layer::SimPaths);
    REQUIRE(paths.size() == 1);
    CHECK(paths[0]->points == std::vector<Vec2>{{2, 2}, {4, 8}, {9, 8}});
    const auto waypoint = shapes<CirclePrim>(out, Layer::SimPaths);
    REQUIRE(waypoint.size() == 1);
    CHECK(waypoint[0]->center == Vec2{4, 8});

    const auto predicted = shapes<PolylinePrim>(out, Layer::SimPredicted);
    REQUIRE(predicted.size() == 1);
    CHECK(predicted[0]->points == std::vector<Vec2>{{2, 2}, {3, 2}, {4, 2}, {4, 3}});
    CHECK(out.count(Layer::SimPredicted, PrimitiveKind::Circle) == 3);
  }

  TEST_CASE("sim painter: move-aside targets, homes and get-to points") {
    const Scenario s = sim_painter_scenario();
    std::vector<sim::SimUnit> units = {make_unit(0, {2, 2}), make_unit(1, {5, 5}), make_unit(2, {8, 8}),
                                       make_unit(3, {12, 12})};
    units[0].coop.yield = sim::Yield::MoveAside;
    units[0].coop.yield_to = units[2].id;
    units[0].coop.aside = {2, 4};
    units[0].coop.get_to = {3, 3};
    units[1].coop.yield = sim::Yield::Return;
    units[1].coop.home = {6, 5};
    units[2].coop.yield = sim::Yield::SlowDown;
    units[2].coop.yield_to = units[0].id;
    units[2].coop.get_to = {9, 9};
    // units[3] yields nothing: nothing drawn for it.
    DrawList out;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);

    const auto rings = out.find(Layer::SimTargets, PrimitiveKind::Circle);
    REQUIRE(rings.size() == 2);
    CHECK(std::get<CirclePrim>(rings[0]->shape).center == Vec2{2, 4});
    CHECK(rings[0]->color == sim_palette::kAside);
    CHECK(std::get<CirclePrim>(rings[1]->shape).center == Vec2{6, 5});
    CHECK(rings[1]->color == sim_palette::kHome);
    // A line to each target, and a cross (two lines) on each get-to point.
    std::size_t get_to = 0;
    for (const Primitive* p : out.find(Layer::SimTargets, PrimitiveKind::Line)) {
      if (p->color == sim_palette::kGetTo) ++get_to;
    }
    CHECK(get_to == 4);
    CHECK(out.count(Layer::SimTargets, PrimitiveKind::Line) == 6);
  }

  TEST_CASE(
      "sim painter: a unit waiting with nobody to yield to draws no get-to point (none at the origin)") {
    const Scenario s = sim_painter_scenario();
    std::vector<sim::SimUnit> units = {make_unit(0, {2, 2}), make_unit(1, {5, 5})};
    // Braking clear of the way, and stepping aside before a passage: nobody asked, and
    // get_to is unset (the origin) or the unit's own spot.
    constexpr sim::UnitId kNobody{std::numeric_limits<std::uint32_t>::max(), 0};
    units[0].coop.yield = sim::Yield::Wait;
    units[0].coop.yield_to = kNobody;
    units[1].coop.yield = sim::Yield::MoveAside;
    units[1].coop.yield_to = kNobody;
    units[1].coop.aside = units[1].coop.home = units[1].coop.get_to = {5, 7};
    DrawList out;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);
    for (const Primitive* p : out.find(Layer::SimTargets, PrimitiveKind::Line)) {
      CHECK(p->color != sim_palette::kGetTo);
      const LinePrim& line = std::get<LinePrim>(p->shape);
      CHECK(glm::length(line.a) > 1);  // nothing near the origin
      CHECK(glm::length(line.b) > 1);
    }
    // The move aside is drawn: its ring and the line to it.
    CHECK(out.count(Layer::SimTargets, PrimitiveKind::Circle) == 1);
    CHECK(out.count(Layer::SimTargets, PrimitiveKind::Line) == 1);
  }

  TEST_CASE("sim painter: the density heat map, normalised by its largest value, empty draws nothing") {
    const Scenario s = sim_painter_scenario();
    DrawList out;
    sim::DensityMap density;
    paint_sim({&s, {}, {}, &density, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);
    CHECK(out.empty());

    density.width = 4;
    density.height = 2;
    density.cell_size = 5;
    density.value.assign(8, 0.0f);
    paint_sim({&s, {}, {}, &density, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);
    CHECK(out.empty());  // all zero

    density.value[1] = 2.0f;
    density.value[6] = 4.0f;
    density.max_value = 4.0f;
    paint_sim({&s, {}, {}, &density, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::defaults(), out);
    CHECK(out.empty());  // off by default
    paint_sim({&s, {}, {}, &density, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);
    const auto images = shapes<ImagePrim>(out, Layer::SimDensity);
    REQUIRE(images.size() == 1);
    const ImagePrim& img = *images[0];
    CHECK(img.width == 4);
    CHECK(img.height == 2);
    CHECK(img.min == Vec2{0, 0});
    CHECK(img.max == Vec2{20, 10});
    auto alpha = [&](int i) { return img.rgba[std::size_t(i) * 4 + 3]; };
    CHECK(alpha(0) == 0);
    CHECK(alpha(1) > 0);
    CHECK(alpha(6) > alpha(1));
    CHECK(out.size() == 1);
  }

  TEST_CASE("sim painter: cells carrying density cost are outlined, one rectangle per run along a row") {
    const Scenario s = sim_painter_scenario();
    // 4 x 2 cells of 5 m: cells 1 and 2 of the first row and cell 7 carry cost.
    const std::vector<float> cost = {1.0f, 2.0f, 3.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.5f};
    const SimScene scene{&s, {}, {}, nullptr, {}, {}, 4, 5, {}, {}, cost, {}, {}};
    DrawList out;
    paint_sim(scene, LayerSet::defaults(), out);
    CHECK(out.empty());  // the density layer is off by default
    paint_sim(scene, LayerSet::all(), out);
    const auto rects = shapes<RectPrim>(out, Layer::SimDensity);
    REQUIRE(rects.size() == 2);
    CHECK(rects[0]->min == Vec2{5, 0});
    CHECK(rects[0]->max == Vec2{15, 5});
    CHECK_FALSE(rects[0]->filled);
    CHECK(rects[1]->min == Vec2{15, 5});
    CHECK(rects[1]->max == Vec2{20, 10});
  }

  TEST_CASE("sim painter: the claimed way out of a passage, one filled rectangle per run along a row") {
    const Scenario s = sim_painter_scenario();
    // 4 x 2 cells of 5 m: cells 0, 1 and 3 of the first row and cell 6 are claimed.
    const std::vector<std::uint8_t> claimed = {1, 1, 0, 1, 0, 0, 1, 0};
    SimScene scene{&s, {}, {}, nullptr, {}, {}, 4, 5, {}, {}, {}, {}, {}};
    scene.claimed = {claimed};
    DrawList out;
    paint_sim(scene, LayerSet::all(), out);
    const auto rects = shapes<RectPrim>(out, Layer::SimPassages);
    REQUIRE(rects.size() == 3);
    CHECK(rects[0]->min == Vec2{0, 0});
    CHECK(rects[0]->max == Vec2{10, 5});
    CHECK(rects[0]->filled);
    CHECK(rects[1]->min == Vec2{15, 0});
    CHECK(rects[2]->min == Vec2{10, 5});
    CHECK(rects[2]->max == Vec2{15, 10});
    DrawList none;
    scene.claimed = {std::span<const std::uint8_t>()};
    paint_sim(scene, LayerSet::all(), none);
    CHECK(shapes<RectPrim>(none, Layer::SimPassages).empty());
  }

  TEST_CASE("sim painter: a passage's cells, tinted when held, its flow and queue arrows and its label") {
    const Scenario s = sim_painter_scenario();
    sim::Passage free_one;
    free_one.cells = {0, 1};
    free_one.bounds = Box2{{0, 0}, {4, 2}};
    sim::Passage held = free_one;
    held.cells = {13, 14, 15};
    held.bounds = Box2{{6, 2}, {12, 4}};
    held.held = true;
    held.flow = {1, 0};
    held.queued = true;
    held.queue_flow = {-1, 0};
    held.inside = 2;
    held.waiting = 3;
    const std::vector<sim::Passage> passages = {free_one, held};
    DrawList out;
    paint_sim({&s, {}, {}, nullptr, {}, {passages}, 5, 2, {}, {}, {}, {}, {}}, LayerSet::all(), out);
    const auto rects = shapes<RectPrim>(out, Layer::SimPassages);
    REQUIRE(rects.size() == 5);
    // Cell 14 of a grid 5 cells wide, 2 m cells: column 4, row 2.
    CHECK(rects[3]->min == Vec2{8, 4});
    CHECK(rects[3]->max == Vec2{10, 6});
    CHECK(out.layer(Layer::SimPassages)[0].color == sim_palette::kPassage);
    CHECK(out.layer(Layer::SimPassages)[2].color == sim_palette::kPassageHeld);
    std::size_t flow = 0, queue = 0;
    for (const Primitive& p : out.layer(Layer::SimPassages)) {
      flow += p.kind() == PrimitiveKind::Polygon && p.color == sim_palette::kPassageFlow ? 1 : 0;
      queue += p.kind() == PrimitiveKind::Polygon && p.color == sim_palette::kPassageQueue ? 1 : 0;
    }
    CHECK(flow == 1);
    CHECK(queue == 1);
    const auto texts = shapes<TextPrim>(out, Layer::SimPassages);
    REQUIRE(texts.size() == 1);
    CHECK(texts[0]->text == "2 in, 3 waiting");
    DrawList none;
    LayerSet layers = LayerSet::all();
    layers.set(Layer::SimPassages, false);
    paint_sim({&s, {}, {}, nullptr, {}, {passages}, 5, 2, {}, {}, {}, {}, {}}, layers, none);
    CHECK(none.empty());
  }

  TEST_CASE("group orders: the ordered point once, and each unit's slot goal") {
    const Scenario s = sim_painter_scenario();
    std::vector<sim::SimUnit> units = {make_unit(0, {2, 2}), make_unit(1, {4, 2}), make_unit(2, {6, 2})};
    for (std::size_t i = 0; i < 2; ++i) {
      units[i].goal.formation = true;
      units[i].goal.formation_point = {10, 10};
      units[i].route.order = Order{OrderKind::Move, {{10 + 1.5 * double(i), 10}}, PatrolMode::Loop};
    }
    units[2].route.order = Order{OrderKind::Move, {{15, 15}}, PatrolMode::Loop};  // its own order: no slot
    DrawList out;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet::all(), out);
    const auto rings = out.find(Layer::SimFormation, PrimitiveKind::Circle);
    REQUIRE(rings.size() == 3);  // the ordered point, two slots
    int at_point = 0, slots = 0;
    for (const Primitive* p : rings) {
      const auto& c = std::get<CirclePrim>(p->shape);
      if (c.center == Vec2{10, 10} && c.radius == 0.6) ++at_point;
      if ((c.center == Vec2{10, 10} || c.center == Vec2{11.5, 10}) && c.radius == 0.5) ++slots;
    }
    CHECK(at_point == 1);
    CHECK(slots == 2);
    // A cross on the point (two lines) and one faint line to each slot.
    CHECK(out.count(Layer::SimFormation, PrimitiveKind::Line) == 4);
    LayerSet layers = LayerSet::all();
    layers.set(Layer::SimFormation, false);
    DrawList none;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, layers, none);
    CHECK(none.count(Layer::SimFormation) == 0);
  }

  TEST_CASE("the simulation's layers: names, defaults, painted apart from the map") {
    CHECK(std::string(to_string(Layer::SimCollisions)) == "sim_collisions");
    CHECK(layer_from_string("sim_density") == Layer::SimDensity);
    CHECK(layer_from_string("sim_paths") == Layer::SimPaths);
    CHECK(layer_from_string("sim_predicted") == Layer::SimPredicted);
    CHECK(layer_from_string("sim_targets") == Layer::SimTargets);
    CHECK_FALSE(LayerSet::defaults().contains(Layer::SimDensity));
    CHECK(layer_from_string("sim_passages") == Layer::SimPassages);
    CHECK(layer_from_string("sim_formation") == Layer::SimFormation);
    for (const Layer l : {Layer::SimPassages, Layer::SimPaths, Layer::SimPredicted, Layer::SimCollisions,
                          Layer::SimTargets, Layer::SimFormation}) {
      CHECK(LayerSet::defaults().contains(l));
      CHECK_FALSE(map_layers(LayerSet::all(), true).contains(l));
      CHECK_FALSE(map_layers(LayerSet::all(), false).contains(l));
      CHECK(l > Layer::Path);
      CHECK(l < Layer::Units);
    }
    // Nothing at all without its layers.
    const Scenario s = sim_painter_scenario();
    const std::vector<sim::SimUnit> units = {make_unit(0, {2, 2})};
    DrawList out;
    paint_sim({&s, units, {}, nullptr, {}, {}, 0, 1, {}, {}, {}, {}, {}}, LayerSet(), out);
    CHECK(out.empty());
  }
}  // TEST_SUITE

// Generated platoon cases and their run (formation_cases.hpp): seed 004's situations
// (a town, a forest gap, a bridge, the sharp turn of Figure 9, platoons meeting) built
// from the default classes and terrains, measured by the simulation's referee.

#include "planner/sim/formation_cases.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <vector>

#include <glm/geometric.hpp>

#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/platoon_formation.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

constexpr double kWorldMargin = 30;  // metres between a platoon and the world's edge

/// A rectangle of `terrain` (an obstacle feature).
void add_rect(Scenario& s, Vec2 min, Vec2 max, const std::string& terrain) {
  Feature f;
  f.id = static_cast<std::uint32_t>(s.features.size() + 1);
  f.terrain = *s.find_terrain(terrain);
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = min;
  f.shape.max = max;
  s.features.push_back(f);
}

/// How a case's platoons stand: their formation, its depth (metres behind the lead) and
/// half its width.
struct Layout {
  std::string formation;
  FormationShape shape = FormationShape::Wedge;
  double spacing = 8;
  double depth = 0;
  double half_width = 0;
};

Layout layout_of(FormationShape shape, int vehicles, double spacing) {
  Layout l;
  l.shape = shape;
  l.formation = std::string(formation_shape_name(shape));
  l.spacing = spacing;
  const PlatoonFormation f = make_formation(shape, static_cast<std::size_t>(vehicles), spacing);
  for (const Vec2& o : f.offsets) {
    l.depth = std::max(l.depth, -o.x);
    l.half_width = std::max(l.half_width, std::abs(o.y));
  }
  return l;
}

/// Adds platoon `group` of `vehicles` units of class `cls` standing in `layout` at `at`
/// facing `heading`, ordered to `goal` to face `final_heading` there.
void add_platoon(Scenario& s, std::uint32_t group, std::size_t cls, int vehicles, const Layout& layout,
                 Vec2 at, double heading, Vec2 goal, double final_heading) {
  const PlatoonFormation f = make_formation(layout.shape, static_cast<std::size_t>(vehicles), layout.spacing);
  UnitGroup g;
  g.id = group;
  g.name = "platoon " + std::to_string(group);
  for (const Vec2& o : f.offsets) {
    Unit u;
    u.id = static_cast<std::uint32_t>(s.units.size() + 1);
    u.faction = group % 2 == 1 ? "blue" : "red";
    u.movement_class = cls;
    u.position = formation_point(at, heading, o);
    u.heading = heading;
    s.units.push_back(u);
    g.units.push_back(u.id);
  }
  g.order = Order{OrderKind::Move, {goal}, PatrolMode::Loop};
  g.platoon = PlatoonSpec{layout.formation, layout.spacing, final_heading};
  s.groups.push_back(g);
}

}  // namespace

std::string_view formation_case_name(FormationCase c) {
  switch (c) {
    case FormationCase::Town: return "town";
    case FormationCase::ForestGap: return "forest_gap";
    case FormationCase::Bridge: return "bridge";
    case FormationCase::SharpTurn: return "sharp_turn";
    case FormationCase::HeadOn: return "head_on";
    case FormationCase::BridgeBothWays: return "bridge_both_ways";
  }
  return "town";
}

Scenario formation_case(FormationCase c, const std::string& class_name, int vehicles) {
  const Scenario defaults = make_empty_scenario(100, 100, 2);
  const std::size_t cls = defaults.find_class(class_name).value_or(0);
  const double radius = defaults.classes[cls].radius;
  const double spacing = 4 * radius;  // two body widths between centres
  const bool bridge = c == FormationCase::Bridge || c == FormationCase::BridgeBothWays;
  const FormationShape shape = c == FormationCase::ForestGap ? FormationShape::Line
                               : bridge                      ? FormationShape::Column
                                                             : FormationShape::Wedge;
  const Layout layout = layout_of(shape, vehicles, spacing);
  // The world: room for the formation at both ends and 200 m of obstacles between.
  const double start_x = kWorldMargin + layout.depth;
  const double ox = start_x + 60;  // where the obstacles begin
  const double goal_x = ox + 200 + layout.depth;
  // Past the goal: the margin, and room for the platoon that starts there (head-on).
  const double width = std::ceil((goal_x + layout.depth + kWorldMargin) / 2) * 2;
  const double height = std::ceil(std::max(240.0, 2 * (layout.half_width + kWorldMargin)) / 2) * 2;
  const double mid = std::floor(height / 4) * 2;  // on the grid's lines (2 m cells)
  Scenario s = make_empty_scenario(width, height, 2);
  s.name = std::string(formation_case_name(c)) + " " + class_name + " " + std::to_string(vehicles);
  Faction blue;
  blue.name = "blue";
  blue.color = Color{70, 120, 230, 255};
  Faction red;
  red.name = "red";
  red.color = Color{220, 70, 60, 255};
  s.factions = {blue, red};
  const Vec2 start{start_x, mid};
  const Vec2 goal{goal_x, mid};
  switch (c) {
    case FormationCase::Town:
      s.description = "a wedge crosses a town by its 24 m avenue";
      for (const double x : {ox + 20, ox + 70, ox + 120}) {
        for (const double y : {mid - 76, mid - 36, mid + 12, mid + 52})
          add_rect(s, {x, y}, {x + 24, y + 24}, "wall");
      }
      add_platoon(s, 1, cls, vehicles, layout, start, 0, goal, 0);
      break;
    case FormationCase::ForestGap:
      s.description = "a line goes through a 24 m gap in a forest band";
      add_rect(s, {ox + 90, 0}, {ox + 110, mid - 12}, "wall");
      add_rect(s, {ox + 90, mid + 12}, {ox + 110, height}, "wall");
      add_platoon(s, 1, cls, vehicles, layout, start, 0, goal, 0);
      break;
    case FormationCase::Bridge:
      s.description = "a column crosses a river by its one bridge, 10 m wide";
      add_rect(s, {ox + 90, 0}, {ox + 110, height}, "deep water");
      s.bridges.push_back(Bridge{1, {ox + 84, mid}, {ox + 116, mid}, 10, true});
      add_platoon(s, 1, cls, vehicles, layout, start, 0, goal, 0);
      break;
    case FormationCase::SharpTurn:
      s.description = "a wedge turns twice round a building, 90 degrees each (seed 004, Figure 9)";
      add_rect(s, {ox + 50, 0}, {ox + 150, height - 60}, "wall");
      add_platoon(s, 1, cls, vehicles, layout, start, 0, goal, 0);
      break;
    case FormationCase::HeadOn:
      s.description = "two wedges on one line, each ordered to the other's start";
      add_platoon(s, 1, cls, vehicles, layout, start, 0, goal, 0);
      add_platoon(s, 2, cls, vehicles, layout, goal, std::numbers::pi, start, std::numbers::pi);
      break;
    case FormationCase::BridgeBothWays:
      s.description = "a column on each bank of a river, each ordered across its one bridge, 10 m wide";
      add_rect(s, {ox + 90, 0}, {ox + 110, height}, "deep water");
      s.bridges.push_back(Bridge{1, {ox + 84, mid}, {ox + 116, mid}, 10, true});
      add_platoon(s, 1, cls, vehicles, layout, start, 0, goal, 0);
      add_platoon(s, 2, cls, vehicles, layout, goal, std::numbers::pi, start, std::numbers::pi);
      break;
  }
  return s;
}

FormationFigures run_formation_case(const Scenario& scenario, double seconds,
                                    const std::function<std::uint64_t()>& clock) {
  Simulation sim(scenario);
  SimReferee referee;
  FormationFigures f;
  const double dt = scenario.sim.dt;
  const auto max_steps = static_cast<std::uint64_t>(std::ceil(seconds / dt));
  for (const PlatoonRun& p : sim.platoons()) {
    for (const UnitId id : p.slots) {
      if (const SimUnit* u = sim.unit(id)) {
        ++f.vehicles;
        const Motion m = resolve_motion(scenario.classes[u->movement_class]);
        f.arrival_radius_m =
            std::max(f.arrival_radius_m,
                     platoon_arrival_radius(m, vehicle_of(scenario.classes[u->movement_class], m)));
      }
    }
  }
  std::set<std::uint32_t> left;  // slot indices of vehicles that left their formation
  double error_sum = 0;
  std::uint64_t error_count = 0;
  std::uint64_t step_ns = 0;
  while (f.steps < max_steps) {
    const std::uint64_t t0 = clock ? clock() : 0;
    sim.step();
    if (clock) step_ns += clock() - t0;
    ++f.steps;
    referee.check_step(sim);
    bool all_done = true;
    for (const PlatoonRun& p : sim.platoons()) {
      if (p.order != PlatoonOrderState::None) all_done = false;
      if (p.order != PlatoonOrderState::Driving || p.targets.size() != p.slots.size()) continue;
      const CostGrid& grid = sim.world().grid(p.path_class);
      const std::uint16_t key = move_key_at(grid, p.motion.position);
      for (std::size_t k = 0; k < p.slots.size(); ++k) {
        const SimUnit* u = sim.unit(p.slots[k]);
        if (u == nullptr || u->route.state != MoveState::InPlatoon) continue;
        const double e = glm::distance(u->body.position, p.targets[k].drive_to);
        error_sum += e;
        ++error_count;
        f.max_slot_error_m = std::max(f.max_slot_error_m, e);
        if (e > p.params.wait_factor * p.params.max_speed) left.insert(u->id.index);
        if (key != 0 && point_blocked(grid, key, p.targets[k].drive_to)) ++f.drive_to_in_walls;
        if (p.to.shape == FormationShape::Column) {
          const auto pts = p.walk.points();
          double best = 1e300;
          for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
            const Vec2 d = pts[i + 1] - pts[i];
            const double t = std::clamp(glm::dot(u->body.position - pts[i], d) / glm::dot(d, d), 0.0, 1.0);
            best = std::min(best, glm::distance(u->body.position, pts[i] + d * t));
          }
          f.max_column_offset_m = std::max(f.max_column_offset_m, best);
        }
      }
    }
    // One platoon at a time on a bridge: its own measure, from where the vehicles stand.
    for (const Bridge& b : scenario.bridges) {
      if (!b.intact) continue;
      std::set<std::uint32_t> on;  // groups with a vehicle on the deck
      const Vec2 d = b.b - b.a;
      for (const PlatoonRun& p : sim.platoons()) {
        for (const UnitId id : p.slots) {
          const SimUnit* u = sim.unit(id);
          if (u == nullptr) continue;
          const double t = glm::dot(d, d) > 0
                               ? std::clamp(glm::dot(u->body.position - b.a, d) / glm::dot(d, d), 0.0, 1.0)
                               : 0.0;
          if (glm::distance(u->body.position, b.a + d * t) <= 0.5 * b.width) on.insert(p.group);
        }
      }
      if (on.size() > 1) ++f.bridge_conflicts;
    }
    if (all_done && sim.arrived_count() == f.vehicles) {
      f.seconds_to_arrive = sim.time();
      break;
    }
  }
  f.mean_slot_error_m = error_count > 0 ? error_sum / static_cast<double>(error_count) : 0;
  f.left_formation = left.size();
  const RefereeCounts& rc = referee.counts();
  f.referee_violations = rc.hard_overlaps + rc.tunnelled + rc.inside_walls;
  f.arrived_pct =
      f.vehicles > 0 ? 100.0 * static_cast<double>(sim.arrived_count()) / static_cast<double>(f.vehicles) : 0;
  f.stuck = f.vehicles - std::min(f.vehicles, sim.arrived_count());
  for (const PlatoonRun& p : sim.platoons()) {
    for (std::size_t k = 0; k < p.slots.size() && k < p.targets.size(); ++k) {
      if (const SimUnit* u = sim.unit(p.slots[k]))
        f.max_slot_error_end_m =
            std::max(f.max_slot_error_end_m, glm::distance(u->body.position, p.targets[k].drive_to));
    }
  }
  for (const PlatoonRun& p : sim.platoons()) {
    for (const CrewState& crew : p.crews) {
      f.three_point_turns += crew.three_point_turns;
      f.private_paths += crew.private_paths;
    }
  }
  f.micros_per_vehicle_step = f.steps > 0 && f.vehicles > 0 ? static_cast<double>(step_ns) / 1000.0 /
                                                                  static_cast<double>(f.steps * f.vehicles)
                                                            : 0;
  f.state_hash = sim.state_hash();
  return f;
}

}  // namespace pathscope::sim

#include "planner/sim/sim_cases.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

MovementClass infantry() {
  MovementClass c;
  c.name = "infantry";
  c.radius = 0.5;
  c.speed = 1.5;
  return c;
}

Scenario open_world(double width, double height, double cell) {
  Scenario s = make_empty_scenario(width, height, cell);
  s.classes = {infantry()};
  for (TerrainType& t : s.terrains) t.cost.resize(1, std::nullopt);
  // make_empty_scenario's terrains are per default class; keep ground and wall only.
  TerrainType ground = s.terrains[0];
  ground.cost = {1.0};
  TerrainType wall;
  wall.name = "wall";
  wall.symbol = '#';
  wall.color = Color{60, 60, 70, 255};
  wall.cost = {std::nullopt};
  s.terrains = {ground, wall};
  Faction blue;
  blue.name = "blue";
  blue.color = Color{70, 120, 230, 255};
  s.factions = {blue};
  return s;
}

// A faction for the second side of a two-sided case.
Faction red_faction() {
  Faction red;
  red.name = "red";
  red.color = Color{220, 70, 60, 255};
  return red;
}

}  // namespace

Scenario circle_case(int units) {
  const double radius = std::max(10.0, units * 1.5 / (2 * std::numbers::pi));
  const double side = 2 * radius + 20;
  // Keep the grid at most 2048 cells a side.
  const double cell = std::max(1.0, std::ceil(side / 2048.0));
  Scenario s = open_world(side, side, cell);
  s.name = "circle " + std::to_string(units);
  s.description = std::to_string(units) + " units on a circle swap to the antipode";
  const Vec2 c{side / 2, side / 2};
  for (int i = 0; i < units; ++i) {
    const double a = 2 * std::numbers::pi * i / units;
    const Vec2 d{std::cos(a), std::sin(a)};
    Unit u;
    u.id = static_cast<std::uint32_t>(i + 1);
    u.faction = "blue";
    u.position = c + d * radius;
    u.heading = std::atan2(d.y, -d.x);  // towards the centre (headings turn counter-clockwise on screen)
    u.order = Order{OrderKind::Move, {c - d * radius}, PatrolMode::Loop};
    s.units.push_back(u);
  }
  return s;
}

namespace {

// Two blocks of `per_group` infantry (10 rows, 1.5 m apart; columns as needed) on either
// side of a wall `thickness` metres thick across the world's middle, with one opening
// `gap` metres wide at its centre, each ordered across to the other side. The world is
// 12 m wider than each block on both sides, plus `extra` metres.
Scenario swap_through_wall(int per_group, double gap, double thickness, double extra) {
  const int rows = 10;
  const int cols = (per_group + rows - 1) / rows;
  const double block = cols * 1.5;
  Scenario s = open_world(std::ceil(2 * (block + 12) + extra), std::ceil(rows * 1.5 + 24), 1.0);
  const double wx = std::floor(s.world.width / 2 - thickness / 2);
  const double gy0 = std::floor(s.world.height / 2 - gap / 2), gy1 = gy0 + gap;
  Feature top, bottom;
  top.id = 1;
  top.terrain = 1;
  top.shape.kind = ShapeKind::Rect;
  top.shape.min = {wx, 0};
  top.shape.max = {wx + thickness, gy0};
  bottom = top;
  bottom.id = 2;
  bottom.shape.min = {wx, gy1};
  bottom.shape.max = {wx + thickness, s.world.height};
  s.features = {top, bottom};
  s.factions.push_back(red_faction());
  std::uint32_t id = 1;
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < per_group; ++i) {
      const int col = i / rows, row = i % rows;
      const double y = 12 + row * 1.5 + 0.75;
      const double x_left = 4 + col * 1.5 + 0.75;
      const double x_right = s.world.width - 4 - col * 1.5 - 0.75;
      Unit u;
      u.id = id++;
      u.faction = side == 0 ? "blue" : "red";
      u.position = {side == 0 ? x_left : x_right, y};
      u.heading = side == 0 ? 0 : std::numbers::pi;
      // The block moves across as a whole, so that the units in front (nearest the
      // wall) go farthest and arrivals do not stand in the doorway.
      const double shift = s.world.width - 8 - block;
      u.order = Order{OrderKind::Move, {{side == 0 ? x_left + shift : x_right - shift, y}}, PatrolMode::Loop};
      s.units.push_back(u);
    }
  }
  return s;
}

}  // namespace

Scenario crossing_case(int per_group, double gap) {
  Scenario s = swap_through_wall(per_group, gap, 2.0, 4.0);
  s.name = "crossing " + std::to_string(per_group);
  s.description = "two groups of " + std::to_string(per_group) + " cross through a gap";
  return s;
}

Scenario street_case(int per_group, double width, double length) {
  Scenario s = swap_through_wall(per_group, width, length, length);
  s.name = "street " + std::to_string(per_group);
  s.description = "two groups of " + std::to_string(per_group) + " swap sides through a street";
  return s;
}

Scenario funnel_case(int units, double gap) {
  Scenario s = crossing_case(units, gap);
  s.name = "funnel " + std::to_string(units);
  s.description = "a group of " + std::to_string(units) + " through a gap, nobody the other way";
  s.units.resize(static_cast<std::size_t>(units));  // the first group's (blue, on the left)
  return s;
}

Scenario random_goals_case(Scenario map, int units, std::uint64_t seed) {
  const PlanningWorld world(map);
  const CostGrid& grid = world.grid(0);
  const RegionMap& regions = world.regions(0);
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> open;
  for (std::uint32_t i = 0; i < grid.cell_count(); ++i) {
    if (grid.passable(i)) open.push_back(i);
  }
  map.units.clear();
  map.groups.clear();
  map.queries.clear();
  if (map.factions.empty()) {
    Faction blue;
    blue.name = "blue";
    blue.color = Color{70, 120, 230, 255};
    map.factions = {blue};
  }
  if (open.empty()) return map;
  std::vector<std::uint8_t> taken(grid.cell_count(), 0);
  std::uniform_int_distribution<std::size_t> pick(0, open.size() - 1);
  std::uint32_t id = 1;
  for (int tries = 0; static_cast<int>(map.units.size()) < units && tries < units * 50; ++tries) {
    const std::uint32_t a = open[pick(rng)];
    const std::uint32_t b = open[pick(rng)];
    if (taken[a] || a == b || regions.region(a) != regions.region(b)) continue;
    // Neighbours of a taken cell stay free too, so no two units start overlapping.
    const glm::ivec2 ca = grid.cell(a);
    bool crowded = false;
    for (int dy = -1; dy <= 1 && !crowded; ++dy) {
      for (int dx = -1; dx <= 1 && !crowded; ++dx) {
        crowded = grid.in_bounds(ca.x + dx, ca.y + dy) && taken[grid.index(ca.x + dx, ca.y + dy)];
      }
    }
    if (crowded) continue;
    taken[a] = 1;
    Unit u;
    u.id = id++;
    u.faction = map.factions.empty() ? std::string() : map.factions[0].name;
    u.position = grid.center(a);
    u.order = Order{OrderKind::Move, {grid.center(b)}, PatrolMode::Loop};
    map.units.push_back(u);
  }
  return map;
}

}  // namespace pathscope::sim

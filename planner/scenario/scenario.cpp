#include "planner/scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pathscope {

namespace {

// Cells needed to cover `extent` metres with cells of `cell` metres. A quotient that is
// an integer up to rounding (3 / 0.1 = 30.000000000000004) does not gain a sliver cell.
int cells_for(double extent, double cell) {
  if (!(extent > 0) || !(cell > 0)) return 0;
  const double q = std::ceil(extent / cell);
  if (!(q < static_cast<double>(std::numeric_limits<int>::max()))) return std::numeric_limits<int>::max();
  int n = static_cast<int>(q);
  if (n > 1 && static_cast<double>(n - 1) * cell >= extent) --n;
  return n;
}

constexpr std::optional<double> kImpassable = std::nullopt;

}  // namespace

glm::ivec2 Scenario::grid_size() const {
  return {cells_for(world.width, world.cell_size), cells_for(world.height, world.cell_size)};
}

std::optional<std::size_t> Scenario::find_terrain(std::string_view name) const {
  for (std::size_t i = 0; i < terrains.size(); ++i) {
    if (terrains[i].name == name) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> Scenario::find_class(std::string_view name) const {
  for (std::size_t i = 0; i < classes.size(); ++i) {
    if (classes[i].name == name) return i;
  }
  return std::nullopt;
}

bool flies(const MovementClass& movement_class) { return movement_class.vehicle == VehicleModel::Rotary; }

std::optional<double> terrain_cost(const Scenario& scenario, std::size_t terrain,
                                   std::size_t movement_class) {
  if (flies(scenario.classes[movement_class])) return 1.0;
  return scenario.terrains[terrain].cost[movement_class];
}

bool crosses_groups(const MovementClass& movement_class) {
  return movement_class.amphibious || flies(movement_class);
}

std::optional<std::size_t> Scenario::find_faction(std::string_view name) const {
  for (std::size_t i = 0; i < factions.size() && !name.empty(); ++i) {
    if (factions[i].name == name) return i;
  }
  return std::nullopt;
}

const char* to_string(ExpectKind kind) {
  switch (kind) {
    case ExpectKind::Arrive: return "arrive";
    case ExpectKind::NoOverlaps: return "no_overlaps";
    case ExpectKind::NoTunnelling: return "no_tunnelling";
    case ExpectKind::NoStuck: return "no_stuck";
    case ExpectKind::Passes: return "passes";
    case ExpectKind::Avoids: return "avoids";
  }
  return "";
}

std::vector<MovementClass> default_movement_classes() {
  return {
      {.name = "infantry", .radius = 0.5, .speed = 1.5, .amphibious = false},
      {.name = "tracked",
       .radius = 2.5,
       .speed = 12.0,
       .amphibious = false,
       .vehicle = VehicleModel::Tracked},
      {.name = "wheeled",
       .radius = 2.0,
       .speed = 18.0,
       .amphibious = false,
       .vehicle = VehicleModel::Wheeled},
      {.name = "hover", .radius = 2.0, .speed = 20.0, .amphibious = true},
      {.name = "rotary", .radius = 3.0, .speed = 40.0, .amphibious = true, .vehicle = VehicleModel::Rotary},
  };
}

std::vector<TerrainType> default_terrain_types() {
  // Costs in the order of default_movement_classes(): infantry, tracked, wheeled, hover, rotary.
  return {
      {"ground", '.', {0x7f, 0x9f, 0x5f, 0xff}, {1.0, 1.0, 1.0, 1.0, 1.0}, ""},
      {"rough", 'r', {0xa8, 0x90, 0x60, 0xff}, {1.5, 1.3, 2.0, 1.2, 1.0}, ""},
      {"forest", 'T', {0x2f, 0x6b, 0x3a, 0xff}, {2.0, 3.0, kImpassable, kImpassable, 1.0}, ""},
      {"swamp", 'S', {0x5e, 0x7d, 0x6e, 0xff}, {3.0, 2.5, kImpassable, 1.0, 1.0}, ""},
      {"nebula", 'N', {0xb0, 0x7c, 0xc6, 0xff}, {2.0, 2.0, 2.0, 2.0, 2.0}, ""},
      {"shallow water", 'w', {0x6f, 0xb3, 0xd9, 0xff}, {4.0, 3.0, kImpassable, 1.0, 1.0}, ""},
      {"deep water",
       'W',
       {0x2a, 0x5d, 0x9f, 0xff},
       {kImpassable, kImpassable, kImpassable, 1.0, 1.0},
       "water"},
      {"wall",
       '#',
       {0x4a, 0x4a, 0x4f, 0xff},
       {kImpassable, kImpassable, kImpassable, kImpassable, kImpassable},
       ""},
  };
}

Scenario make_empty_scenario(double width, double height, double cell_size) {
  Scenario s;
  s.world = WorldInfo{width, height, cell_size};
  s.classes = default_movement_classes();
  s.terrains = default_terrain_types();
  return s;
}

}  // namespace pathscope

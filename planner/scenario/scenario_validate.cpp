#include "planner/scenario/scenario_validate.hpp"

// Validation: Scenario -> the first problem, in file order. The checks are the ones
// docs/formats.md lists for each field; they run on loaded scenarios and on edited ones.
//
// [SECTION] Field checks (text, numbers, points, ids, names, references)
// [SECTION] Sections (world, classes, terrains, tiles, features, ..., viewer)
// [SECTION] Entry point
//
// Each check returns a Status: the first problem, which its caller returns on, up to
// validate_scenario.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "planner/core/geometry.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_json_detail.hpp"

namespace pathscope {

namespace scenario_detail {

namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] Field checks
// ---------------------------------------------------------------------------------------

// Ranges of version 2's simulation fields (docs/formats.md).
constexpr int kMaxPriority = 1000;            // movement_classes[i].priority in [-1000, 1000]
constexpr double kMinSimDt = 1e-4;            // sim.dt, seconds
constexpr double kMaxSimDt = 1;               // sim.dt, seconds
constexpr double kMaxPredictionSeconds = 10;  // sim.prediction_seconds
constexpr int kMaxPathBudget = 1'000'000;     // sim.path_budget, requests per step
constexpr double kMaxDensityCost = 100;       // sim.density_cost, weight
constexpr double kMaxDensityRefresh = 60;     // sim.density_refresh, seconds
constexpr double kMaxDensityHalfLife = 3600;  // sim.density_half_life, seconds

// Upper bounds of the sizes that drive a simulation's work (docs/formats.md, Limits).
// Each is far beyond any unit a game has (the default classes reach 3 m and 40 m/s), and
// low enough that no step's work depends on an unbounded number: the cells a unit's way
// claims and the neighbours it checks grow with its radii, the cells a move sweeps with
// its speed. Acceleration and turn rate only need to stay finite: their bounds let a
// class reach top speed or turn round within any step.
constexpr double kMaxRadius = 64;        // radius and hard_radius, metres
constexpr double kMaxSoftRadius = 128;   // soft_radius, metres
constexpr double kMaxSpeed = 1000;       // speed, metres per second
constexpr double kMaxTurnRadius = 1000;  // a wheeled vehicle's smallest turning radius, metres
constexpr double kMaxSpacing = 1000;     // a platoon's spacing, metres
// The built-in formations' names (planner/sim/platoon_formation.hpp), and "custom".
constexpr const char* kBuiltinFormations[] = {"column", "line", "wedge", "echelon", "custom"};
constexpr double kMaxAcceleration = 1e6;    // acceleration and deceleration, m/s^2
constexpr double kMaxTurnRate = 1000;       // turn_rate, radians per second
constexpr std::size_t kMaxUnits = 100'000;  // units in a scenario

bool valid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = 0;
    std::uint32_t code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xe0) == 0xc0) {
      extra = 1;
      code = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      extra = 2;
      code = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      extra = 3;
      code = c & 0x07;
    } else
      return false;
    if (i + extra >= s.size()) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      code = (code << 6) | (cc & 0x3f);
    }
    static constexpr std::uint32_t kMinCode[4] = {0, 0x80, 0x800, 0x10000};
    if (code < kMinCode[extra] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += extra + 1;
  }
  return true;
}

Status check_text(const std::string& s, const std::string& where) {
  if (!valid_utf8(s)) return make_error(ErrorCode::Value, where, "text is not valid UTF-8");
  return Ok{};
}

Status check_name(const std::string& s, const std::string& where) {
  if (Status st = check_text(s, where); !st) return st;
  if (s.empty()) return make_error(ErrorCode::Value, where, "expected a non-empty name");
  return Ok{};
}

Status check_positive(double v, const std::string& where) {
  if (!(std::isfinite(v) && v > 0))
    return make_error(ErrorCode::Value, where, "expected a finite number > 0, found " + format_number(v));
  return Ok{};
}

// A positive size with an upper bound (a whole number): Value when not a finite number
// > 0, Limit above the bound. The message names the range and its unit.
Status check_size(double v, double max, const char* unit, const std::string& where) {
  if (Status st = check_positive(v, where); !st) return st;
  if (v > max) {
    return make_error(ErrorCode::Limit, where,
                      "expected a number in (0, " + std::to_string(static_cast<long long>(max)) + "] " +
                          unit + ", found " + format_number(v));
  }
  return Ok{};
}

Status check_finite(double v, const std::string& where) {
  if (!std::isfinite(v))
    return make_error(ErrorCode::Value, where, "expected a finite number, found " + format_number(v));
  return Ok{};
}

// Points must lie in the world rectangle [0, width] x [0, height], edges included.
Status check_inside(Vec2 p, const WorldInfo& world, const std::string& where) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
    return make_error(ErrorCode::Value, where, "expected finite [x, y] numbers, found " + format_point(p));
  }
  if (p.x < 0 || p.y < 0 || p.x > world.width || p.y > world.height) {
    return make_error(ErrorCode::Value, where,
                      "point " + format_point(p) + " is outside the world [0, " + format_number(world.width) +
                          "] x [0, " + format_number(world.height) + "]");
  }
  return Ok{};
}

Status check_points(const std::vector<Vec2>& points, std::size_t min_count, const WorldInfo& world,
                    const std::string& where) {
  if (points.size() < min_count) {
    return make_error(
        ErrorCode::Value, where,
        "expected at least " + std::to_string(min_count) + " points, found " + std::to_string(points.size()));
  }
  if (Status st = check_count(points.size(), Limits::kMaxPolygonPoints, where, "points"); !st) return st;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (Status st = check_inside(points[i], world, item(where, i)); !st) return st;
  }
  return Ok{};
}

template <typename T>
Status check_unique_ids(const std::vector<T>& items, const std::string& where) {
  std::unordered_map<std::uint32_t, std::size_t> seen;
  seen.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto [it, fresh] = seen.emplace(items[i].id, i);
    if (!fresh) {
      return make_error(
          ErrorCode::Value, field(item(where, i), "id"),
          "duplicate id " + std::to_string(items[i].id) + " (also used by " + item(where, it->second) + ")");
    }
  }
  return Ok{};
}

template <typename T>
Status check_unique_names(const std::vector<T>& items, const std::string& where) {
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (Status st = check_name(items[i].name, field(item(where, i), "name")); !st) return st;
    const auto [it, fresh] = seen.emplace(items[i].name, i);
    if (!fresh) {
      return make_error(
          ErrorCode::Value, field(item(where, i), "name"),
          "duplicate name " + quote_text(items[i].name) + " (also used by " + item(where, it->second) + ")");
    }
  }
  return Ok{};
}

// A list of items with stable ids (features, threats, allies, roads, bridges, units):
// the count and the ids, then check_one(s, entry, "where[i]") on each entry.
template <typename T>
Status check_id_list(const Scenario& s, const std::vector<T>& items, const std::string& where,
                     Status (*check_one)(const Scenario&, const T&, const std::string&)) {
  if (Status st = check_count(items.size(), Limits::kMaxItems, where, where); !st) return st;
  if (Status st = check_unique_ids(items, where); !st) return st;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (Status st = check_one(s, items[i], item(where, i)); !st) return st;
  }
  return Ok{};
}

Status check_faction_ref(const Scenario& s, const std::string& name, const std::string& where) {
  for (const Faction& f : s.factions) {
    if (f.name == name) return Ok{};
  }
  return unknown_name(where, "faction", name, names_of(s.factions));
}

// Terrain symbols: printable ASCII other than digits (run counts) and space.
bool valid_symbol(char c) { return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9'); }

Status check_class_index(const Scenario& s, std::size_t index, const std::string& where) {
  if (index >= s.classes.size()) {
    return make_error(ErrorCode::Value, where,
                      "movement class index " + std::to_string(index) + " is out of range (" +
                          std::to_string(s.classes.size()) + " classes)");
  }
  return Ok{};
}

}  // namespace

// ---------------------------------------------------------------------------------------
// [SECTION] Sections
// ---------------------------------------------------------------------------------------

Status check_world(const Scenario& s) {
  const WorldInfo& w = s.world;
  for (const auto& [value, key] : {std::pair{w.width, "world.width"}, std::pair{w.height, "world.height"}}) {
    if (Status st = check_positive(value, key); !st) return st;
    if (value > Limits::kMaxWorldSide) {
      return make_error(ErrorCode::Limit, key,
                        format_number(value) + " m exceeds the largest world side, " +
                            format_number(Limits::kMaxWorldSide) + " m");
    }
  }
  if (Status st = check_positive(w.cell_size, "world.cell_size"); !st) return st;
  if (w.cell_size < Limits::kMinCellSize) {
    return make_error(ErrorCode::Value, "world.cell_size",
                      format_number(w.cell_size) + " m is below the smallest cell size, " +
                          format_number(Limits::kMinCellSize) + " m");
  }
  const glm::ivec2 grid = s.grid_size();
  if (grid.x > Limits::kMaxGridSide || grid.y > Limits::kMaxGridSide) {
    return make_error(ErrorCode::Limit, "world.cell_size",
                      "the grid would be " + std::to_string(grid.x) + " x " + std::to_string(grid.y) +
                          " cells; the limit is " + std::to_string(Limits::kMaxGridSide) +
                          " per side (use larger cells or a smaller world)");
  }
  return Ok{};
}

Status check_classes(const Scenario& s) {
  const std::string where = "movement_classes";
  if (s.classes.empty()) return make_error(ErrorCode::Value, where, "expected at least one movement class");
  if (Status st = check_count(s.classes.size(), Limits::kMaxMovementClasses, where, "movement classes"); !st)
    return st;
  if (Status st = check_unique_names(s.classes, where); !st) return st;
  for (std::size_t i = 0; i < s.classes.size(); ++i) {
    const MovementClass& c = s.classes[i];
    const std::string at = item(where, i);
    if (Status st = check_size(c.radius, kMaxRadius, "m", field(at, "radius")); !st) return st;
    if (Status st = check_size(c.speed, kMaxSpeed, "m/s", field(at, "speed")); !st) return st;
    // The simulation's limits (version 2); absent ones are derived by the simulation.
    for (const auto& [value, key] :
         {std::pair{c.acceleration, "acceleration"}, std::pair{c.deceleration, "deceleration"}}) {
      if (value) {
        if (Status st = check_size(*value, kMaxAcceleration, "m/s^2", field(at, key)); !st) return st;
      }
    }
    if (c.turn_rate) {
      if (Status st = check_size(*c.turn_rate, kMaxTurnRate, "radians per second", field(at, "turn_rate"));
          !st)
        return st;
    }
    if (c.hard_radius) {
      if (Status st = check_size(*c.hard_radius, kMaxRadius, "m", field(at, "hard_radius")); !st) return st;
    }
    if (c.soft_radius) {
      const double hard = c.hard_radius.value_or(c.radius);
      if (!(std::isfinite(*c.soft_radius) && *c.soft_radius >= hard)) {
        return make_error(ErrorCode::Value, field(at, "soft_radius"),
                          "expected a finite number >= the hard radius (" + format_number(hard) +
                              " m), found " + format_number(*c.soft_radius));
      }
      if (*c.soft_radius > kMaxSoftRadius) {
        return make_error(ErrorCode::Limit, field(at, "soft_radius"),
                          "expected a number in [the hard radius (" + format_number(hard) + " m), " +
                              std::to_string(static_cast<long long>(kMaxSoftRadius)) + "] m, found " +
                              format_number(*c.soft_radius));
      }
    }
    if (!(c.hard_aspect > 0 && c.hard_aspect <= 1)) {
      return make_error(ErrorCode::Value, field(at, "hard_aspect"),
                        "expected a number in (0, 1], found " + format_number(c.hard_aspect));
    }
    if (c.priority < -kMaxPriority || c.priority > kMaxPriority) {
      return make_error(ErrorCode::Value, field(at, "priority"),
                        "expected an integer in [-" + std::to_string(kMaxPriority) + ", " +
                            std::to_string(kMaxPriority) + "], found " + std::to_string(c.priority));
    }
    if (Status st = check_name(c.planner, field(at, "planner")); !st) return st;
    if (auto found = require_planner(c.planner, field(at, "planner")); !found) return found.error();
    // Vehicles (version 3).
    if (static_cast<int>(c.vehicle) > static_cast<int>(VehicleModel::Rotary)) {
      return make_error(ErrorCode::Value, field(at, "vehicle"),
                        "unknown vehicle model " + std::to_string(static_cast<int>(c.vehicle)));
    }
    if (c.min_turn_radius) {
      if (Status st = check_size(*c.min_turn_radius, kMaxTurnRadius, "m", field(at, "min_turn_radius")); !st)
        return st;
    }
    if (c.reverse_speed) {
      if (Status st = check_size(*c.reverse_speed, kMaxSpeed, "m/s", field(at, "reverse_speed")); !st)
        return st;
    }
  }
  return Ok{};
}

// The scenario's own formations: named apart from each other and from the built-in ones,
// each slot's offset finite and within the world's size.
Status check_formations(const Scenario& s) {
  const std::string where = "formations";
  if (Status st = check_count(s.formations.size(), Limits::kMaxItems, where, "formations"); !st) return st;
  if (Status st = check_unique_names(s.formations, where); !st) return st;
  const double reach = std::max(s.world.width, s.world.height);
  for (std::size_t i = 0; i < s.formations.size(); ++i) {
    const FormationDef& f = s.formations[i];
    const std::string at = item(where, i);
    if (Status st = check_name(f.name, field(at, "name")); !st) return st;
    for (const char* builtin : kBuiltinFormations) {
      if (f.name == builtin) {
        return make_error(
            ErrorCode::Value, field(at, "name"),
            "\"" + f.name + "\" is a built-in formation's name; give the scenario's own another");
      }
    }
    const std::string offsets_at = field(at, "offsets");
    if (f.offsets.empty())
      return make_error(ErrorCode::Value, offsets_at, "expected at least one offset (the lead's)");
    if (Status st = check_count(f.offsets.size(), Limits::kMaxItems, offsets_at, "offsets"); !st) return st;
    for (std::size_t k = 0; k < f.offsets.size(); ++k) {
      const Vec2 o = f.offsets[k];
      if (!(std::isfinite(o.x) && std::isfinite(o.y) && std::abs(o.x) <= reach && std::abs(o.y) <= reach)) {
        return make_error(ErrorCode::Value, item(offsets_at, k),
                          "expected finite metres within the world's size (" + format_number(reach) +
                              "), found [" + format_number(o.x) + ", " + format_number(o.y) + "]");
      }
    }
  }
  return Ok{};
}

// A group's platoon: a known formation with a slot for each unit, a spacing, a heading.
// `group_at` is the group's path (its order is the group's own field), `at` the platoon's.
Status check_platoon(const Scenario& s, const UnitGroup& g, const std::string& group_at) {
  const std::string at = field(group_at, "platoon");
  const PlatoonSpec& p = *g.platoon;
  const std::string formation_at = field(at, "formation");
  bool builtin = false;
  for (const char* name : kBuiltinFormations) builtin = builtin || p.formation == name;
  if (p.formation == "custom") builtin = false;
  if (!builtin) {
    const auto it = std::find_if(s.formations.begin(), s.formations.end(),
                                 [&](const FormationDef& f) { return f.name == p.formation; });
    if (it == s.formations.end()) {
      return make_error(
          ErrorCode::Value, formation_at,
          "no formation is named \"" + p.formation +
              "\" (built-in: column, line, wedge, echelon; or one of the scenario's \"formations\")");
    }
    if (it->offsets.size() < g.units.size()) {
      return make_error(ErrorCode::Value, formation_at,
                        "formation \"" + p.formation + "\" has " + std::to_string(it->offsets.size()) +
                            " slots for " + std::to_string(g.units.size()) + " units");
    }
  }
  if (Status st = check_size(p.spacing, kMaxSpacing, "m", field(at, "spacing")); !st) return st;
  if (p.heading) {
    if (Status st = check_finite(*p.heading, field(at, "heading")); !st) return st;
  }
  if (g.order.kind == OrderKind::Patrol) {
    return make_error(ErrorCode::Value, field(field(group_at, "order"), "kind"),
                      "a platoon takes move, waypoints, stop or none orders");
  }
  return Ok{};
}

Status check_terrains(const Scenario& s) {
  const std::string where = "terrain_types";
  if (s.terrains.empty()) return make_error(ErrorCode::Value, where, "expected at least one terrain type");
  if (Status st = check_count(s.terrains.size(), Limits::kMaxTerrainTypes, where, "terrain types"); !st)
    return st;
  if (Status st = check_unique_names(s.terrains, where); !st) return st;
  std::array<int, 128> symbol_owner{};
  symbol_owner.fill(-1);
  for (std::size_t i = 0; i < s.terrains.size(); ++i) {
    const TerrainType& t = s.terrains[i];
    const std::string at = item(where, i);
    if (!valid_symbol(t.symbol)) {
      return make_error(ErrorCode::Value, field(at, "symbol"),
                        "expected a printable ASCII character other than a digit or space, found " +
                            describe_symbol(t.symbol));
    }
    int& owner = symbol_owner[static_cast<unsigned char>(t.symbol)];
    if (owner >= 0) {
      return make_error(
          ErrorCode::Value, field(at, "symbol"),
          "duplicate symbol " + describe_symbol(t.symbol) + " (also used by " + item(where, owner) + ")");
    }
    owner = static_cast<int>(i);
    if (Status st = check_text(t.group, field(at, "group")); !st) return st;
    if (t.cost.size() != s.classes.size()) {
      return make_error(ErrorCode::Value, field(at, "cost"),
                        "expected one cost per movement class (" + std::to_string(s.classes.size()) +
                            "), found " + std::to_string(t.cost.size()));
    }
    for (std::size_t c = 0; c < t.cost.size(); ++c) {
      if (!t.cost[c]) continue;
      const double v = *t.cost[c];
      const std::string cost_at = field(field(at, "cost"), s.classes[c].name);
      if (!(std::isfinite(v) && v > 0)) {
        return make_error(ErrorCode::Value, cost_at,
                          "expected a number > 0 or \"impassable\", found " + format_number(v));
      }
      if (v > Limits::kMaxCostMultiplier) {
        return make_error(ErrorCode::Limit, cost_at,
                          "cost " + format_number(v) + " exceeds the largest multiplier, " +
                              format_number(Limits::kMaxCostMultiplier) + " (use \"impassable\")");
      }
    }
  }
  return Ok{};
}

namespace {

Status check_tiles(const Scenario& s) {
  if (!s.tiles) return Ok{};
  const TileGrid& t = *s.tiles;
  for (const auto& [value, key] : {std::pair{t.width, "tiles.width"}, std::pair{t.height, "tiles.height"}}) {
    if (value <= 0)
      return make_error(ErrorCode::Value, key, "expected an integer > 0, found " + std::to_string(value));
    if (value > Limits::kMaxGridSide) {
      return make_error(
          ErrorCode::Limit, key,
          std::to_string(value) + " cells exceeds the limit of " + std::to_string(Limits::kMaxGridSide));
    }
  }
  // A relative tolerance keeps e.g. 30 tiles of 0.1 m inside a 3 m world.
  const double cs = s.world.cell_size;
  constexpr double kSlack = 1 + 1e-9;
  if (t.width * cs > s.world.width * kSlack) {
    return make_error(ErrorCode::Value, "tiles.width",
                      std::to_string(t.width) + " tiles of " + format_number(cs) +
                          " m are wider than the world (" + format_number(s.world.width) + " m)");
  }
  if (t.height * cs > s.world.height * kSlack) {
    return make_error(ErrorCode::Value, "tiles.height",
                      std::to_string(t.height) + " tiles of " + format_number(cs) +
                          " m are taller than the world (" + format_number(s.world.height) + " m)");
  }
  const std::size_t cells = static_cast<std::size_t>(t.width) * static_cast<std::size_t>(t.height);
  if (t.terrain.size() != cells) {
    return make_error(
        ErrorCode::Value, "tiles",
        "expected " + std::to_string(cells) + " cells, found " + std::to_string(t.terrain.size()));
  }
  for (std::size_t i = 0; i < cells; ++i) {
    if (t.terrain[i] >= s.terrains.size()) {
      return make_error(ErrorCode::Value, item("tiles.rows", i / static_cast<std::size_t>(t.width)),
                        "terrain index " + std::to_string(t.terrain[i]) + " at column " +
                            std::to_string(i % static_cast<std::size_t>(t.width)) + " is out of range");
    }
  }
  return Ok{};
}

Status check_feature(const Scenario& s, const Feature& f, const std::string& at) {
  if (Status st = check_text(f.name, field(at, "name")); !st) return st;
  if (f.terrain >= s.terrains.size()) {
    return make_error(ErrorCode::Value, field(at, "terrain"),
                      "terrain index " + std::to_string(f.terrain) + " is out of range");
  }
  const Shape& shape = f.shape;
  switch (shape.kind) {
    case ShapeKind::Polygon: {
      const std::string points_at = field(at, "points");
      if (Status st = check_points(shape.points, 3, s.world, points_at); !st) return st;
      if (const auto hit = find_self_intersection(shape.points)) {
        const std::size_t n = shape.points.size();
        auto [a, b] = *hit;
        if (a > b) std::swap(a, b);
        if (shape.points[a] == shape.points[b]) {
          return make_error(ErrorCode::Value, item(points_at, b),
                            "repeats " + item("points", a) + " " + format_point(shape.points[a]) +
                                "; polygons must be simple");
        }
        auto edge = [&](std::size_t e) {
          return "edge " + std::to_string(e) + " (points[" + std::to_string(e) + "] to points[" +
                 std::to_string((e + 1) % n) + "])";
        };
        return make_error(ErrorCode::Value, points_at,
                          "self-intersecting polygon: " + edge(a) + " and " + edge(b) + " intersect");
      }
      if (!(polygon_area(shape.points) > 0))
        return make_error(ErrorCode::Value, points_at, "polygon has zero area");
      break;
    }
    case ShapeKind::Rect:
      if (Status st = check_inside(shape.min, s.world, field(at, "min")); !st) return st;
      if (Status st = check_inside(shape.max, s.world, field(at, "max")); !st) return st;
      if (!(shape.min.x < shape.max.x && shape.min.y < shape.max.y)) {
        return make_error(ErrorCode::Value, field(at, "max"),
                          "expected max > min in both x and y, found min " + format_point(shape.min) +
                              " and max " + format_point(shape.max));
      }
      break;
    case ShapeKind::Circle:
      // The centre must be in the world; the disc may extend past the edge.
      if (Status st = check_inside(shape.center, s.world, field(at, "center")); !st) return st;
      if (Status st = check_positive(shape.radius, field(at, "radius")); !st) return st;
      break;
  }
  const double speed_limit = ScenarioLimits::kMaxWorldSide;  // crosses the largest world in a second
  if (!std::isfinite(f.velocity.x) || !std::isfinite(f.velocity.y) || std::abs(f.velocity.x) > speed_limit ||
      std::abs(f.velocity.y) > speed_limit) {
    return make_error(ErrorCode::Value, field(at, "velocity"),
                      "expected finite [vx, vy] metres per second within +-" + format_number(speed_limit) +
                          ", found " + format_point(f.velocity));
  }
  return Ok{};
}

Status check_influence(const Scenario& s, const Influence& z, const std::string& at) {
  if (Status st = check_inside(z.center, s.world, field(at, "center")); !st) return st;
  if (Status st = check_positive(z.radius, field(at, "radius")); !st) return st;
  if (!(std::isfinite(z.strength) && z.strength >= 0)) {
    return make_error(ErrorCode::Value, field(at, "strength"),
                      "expected a finite number >= 0, found " + format_number(z.strength));
  }
  if (Status st = check_text(z.faction, field(at, "faction")); !st) return st;
  if (!z.faction.empty()) {
    if (Status st = check_faction_ref(s, z.faction, field(at, "faction")); !st) return st;
  }
  return Ok{};
}

// The raster interns every (terrain, road factor, bridge) combination in 16-bit ids
// (planner/world/terrain_raster.hpp): bound the factors so that can never overflow.
Status check_road_factors(const Scenario& s) {
  std::set<float> seen;  // ordered: lookup only, at most 255 entries
  for (std::size_t i = 0; i < s.roads.size(); ++i) {
    const float f = float(s.roads[i].speed_factor);
    if (seen.count(f) != 0) continue;
    if (seen.size() == Limits::kMaxRoadSpeedFactors) {
      return make_error(
          ErrorCode::Limit, field(item("roads", i), "speed_factor"),
          "more than " + std::to_string(Limits::kMaxRoadSpeedFactors) + " distinct road speed factors");
    }
    seen.insert(f);
  }
  return Ok{};
}

Status check_road(const Scenario& s, const Road& r, const std::string& at) {
  if (Status st = check_points(r.points, 2, s.world, field(at, "points")); !st) return st;
  if (Status st = check_positive(r.width, field(at, "width")); !st) return st;
  if (!(std::isfinite(r.speed_factor) && r.speed_factor >= 1)) {
    return make_error(ErrorCode::Value, field(at, "speed_factor"),
                      "expected a finite number >= 1, found " + format_number(r.speed_factor));
  }
  return Ok{};
}

Status check_bridge(const Scenario& s, const Bridge& b, const std::string& at) {
  if (Status st = check_inside(b.a, s.world, field(at, "a")); !st) return st;
  if (Status st = check_inside(b.b, s.world, field(at, "b")); !st) return st;
  if (b.a == b.b)
    return make_error(ErrorCode::Value, field(at, "b"), "bridge ends coincide at " + format_point(b.a));
  if (Status st = check_positive(b.width, field(at, "width")); !st) return st;
  return Ok{};
}

// Containers share one terrain: it fills everything outside them.
Status check_containers(const Scenario& s) {
  const Feature* first = nullptr;
  for (std::size_t i = 0; i < s.features.size(); ++i) {
    const Feature& f = s.features[i];
    if (!f.container) continue;
    if (!first) {
      first = &f;
    } else if (f.terrain != first->terrain) {
      return make_error(ErrorCode::Value, field(item("features", i), "terrain"),
                        "every container must have the same terrain (the first container's is \"" +
                            s.terrains[first->terrain].name + "\"): it is what lies outside them");
    }
  }
  return Ok{};
}

Status check_factions(const Scenario& s) {
  if (Status st = check_count(s.factions.size(), Limits::kMaxItems, "factions", "factions"); !st) return st;
  if (Status st = check_unique_names(s.factions, "factions"); !st) return st;
  for (std::size_t i = 0; i < s.factions.size(); ++i) {
    const Faction& f = s.factions[i];
    const std::string at = item("factions", i);
    const double sight = f.sight;
    if (!(std::isfinite(sight) && sight >= 0 && sight <= Limits::kMaxWorldSide)) {
      return make_error(ErrorCode::Value, field(at, "sight"),
                        "expected a number in [0, " + format_number(Limits::kMaxWorldSide) + "], found " +
                            format_number(sight));
    }
    const std::string memory_at = field(at, "memory");
    if (Status st = check_count(f.memory.size(), Limits::kMaxItems, memory_at, "remembered features"); !st)
      return st;
    // Pieces of one partly seen feature share its id: ids need not be unique here.
    for (std::size_t k = 0; k < f.memory.size(); ++k) {
      if (Status st = check_feature(s, f.memory[k], item(memory_at, k)); !st) return st;
      if (f.memory[k].container) {
        return make_error(ErrorCode::Value, field(item(memory_at, k), "container"),
                          "containers are terrain, known to every faction: they are never remembered");
      }
    }
    const std::string bridges_at = field(at, "bridges");
    if (Status st = check_count(f.bridges.size(), Limits::kMaxItems, bridges_at, "remembered bridges"); !st)
      return st;
    std::map<std::uint32_t, std::size_t> first_of;  // id -> first index
    for (std::size_t k = 0; k < f.bridges.size(); ++k) {
      if (Status st = check_bridge(s, f.bridges[k], item(bridges_at, k)); !st) return st;
      const auto [it, fresh] = first_of.emplace(f.bridges[k].id, k);
      if (!fresh) {
        return make_error(ErrorCode::Value, field(item(bridges_at, k), "id"),
                          "duplicate id " + std::to_string(f.bridges[k].id) + " (also used by " +
                              item(bridges_at, it->second) + ")");
      }
    }
    if (!f.tiles.empty()) {
      // The tile memory covers the tile grid, each entry a terrain or "not seen".
      const std::string tiles_at = field(at, "tiles");
      const std::size_t n = s.tiles ? std::size_t(s.tiles->width) * std::size_t(s.tiles->height) : 0;
      if (f.tiles.size() != n) {
        return make_error(ErrorCode::Value, tiles_at,
                          std::to_string(f.tiles.size()) + " remembered tiles, expected " +
                              std::to_string(n) + " (the tile grid's)");
      }
      for (std::size_t k = 0; k < n; ++k) {
        if (f.tiles[k] != Faction::kUnseenTile && f.tiles[k] >= s.terrains.size()) {
          return make_error(ErrorCode::Value, tiles_at,
                            "tile " + std::to_string(k) + " has terrain index " + std::to_string(f.tiles[k]) +
                                " (there are " + std::to_string(s.terrains.size()) + ")");
        }
      }
    }
  }
  return Ok{};
}

// An order's point count fits its kind; its points lie in the world.
Status check_order(const Scenario& s, const Order& o, const std::string& at) {
  const std::string points_at = field(at, "points");
  const std::size_t n = o.points.size();
  switch (o.kind) {
    case OrderKind::None:
    case OrderKind::Stop:
      if (n != 0) {
        return make_error(ErrorCode::Value, points_at,
                          std::string(o.kind == OrderKind::None ? "no order" : "a stop order") +
                              " has no points, found " + std::to_string(n));
      }
      break;
    case OrderKind::Move:
      if (n != 1)
        return make_error(ErrorCode::Value, points_at,
                          "a move order has exactly 1 point, found " + std::to_string(n));
      break;
    case OrderKind::Waypoints:
      if (n < 1)
        return make_error(ErrorCode::Value, points_at, "a waypoints order has at least 1 point, found 0");
      break;
    case OrderKind::Patrol:
      if (n < 2)
        return make_error(ErrorCode::Value, points_at,
                          "a patrol has at least 2 points, found " + std::to_string(n));
      break;
    default:
      return make_error(ErrorCode::Value, field(at, "kind"),
                        "unknown order kind " + std::to_string(static_cast<int>(o.kind)));
  }
  if (o.patrol != PatrolMode::Loop && o.patrol != PatrolMode::BackForth) {
    return make_error(ErrorCode::Value, field(at, "patrol"),
                      "unknown patrol mode " + std::to_string(static_cast<int>(o.patrol)));
  }
  if (Status st = check_points(o.points, 0, s.world, points_at); !st) return st;
  return Ok{};
}

Status check_unit(const Scenario& s, const Unit& u, const std::string& at) {
  if (Status st = check_name(u.faction, field(at, "faction")); !st) return st;
  if (Status st = check_faction_ref(s, u.faction, field(at, "faction")); !st) return st;
  if (Status st = check_class_index(s, u.movement_class, field(at, "class")); !st) return st;
  if (Status st = check_inside(u.position, s.world, field(at, "position")); !st) return st;
  if (Status st = check_finite(u.heading, field(at, "heading")); !st) return st;
  if (Status st = check_order(s, u.order, field(at, "order")); !st) return st;
  return Ok{};
}

// Groups name existing units, each unit in at most one group.
Status check_groups(const Scenario& s) {
  const std::string where = "groups";
  if (Status st = check_count(s.groups.size(), Limits::kMaxItems, where, "groups"); !st) return st;
  if (Status st = check_unique_ids(s.groups, where); !st) return st;
  std::unordered_map<std::uint32_t, std::size_t> units;  // unit id -> index
  units.reserve(s.units.size());
  for (std::size_t i = 0; i < s.units.size(); ++i) units.emplace(s.units[i].id, i);
  std::unordered_map<std::uint32_t, std::string> member_at;  // unit id -> "groups[i].units[k]"
  for (std::size_t i = 0; i < s.groups.size(); ++i) {
    const UnitGroup& g = s.groups[i];
    const std::string at = item(where, i);
    if (Status st = check_text(g.name, field(at, "name")); !st) return st;
    const std::string units_at = field(at, "units");
    if (Status st = check_count(g.units.size(), Limits::kMaxItems, units_at, "units"); !st) return st;
    for (std::size_t k = 0; k < g.units.size(); ++k) {
      const std::uint32_t id = g.units[k];
      const std::string unit_at = item(units_at, k);
      if (units.count(id) == 0)
        return make_error(ErrorCode::Value, unit_at, "no unit has id " + std::to_string(id));
      const auto [it, fresh] = member_at.emplace(id, unit_at);
      if (!fresh) {
        return make_error(ErrorCode::Value, unit_at,
                          "unit " + std::to_string(id) + " is already in a group (at " + it->second +
                              "); a unit is in at most one group");
      }
    }
    if (Status st = check_order(s, g.order, field(at, "order")); !st) return st;
    if (g.platoon) {
      if (Status st = check_platoon(s, g, at); !st) return st;
    }
  }
  return Ok{};
}

Status check_sim(const Scenario& s) {
  const SimSettings& sim = s.sim;
  auto in_range = [](double v, double lo, double hi, bool open_lo, const char* where,
                     const char* unit) -> Status {
    if (!(std::isfinite(v) && (open_lo ? v > lo : v >= lo) && v <= hi)) {
      return make_error(ErrorCode::Value, where,
                        std::string("expected a number in ") + (open_lo ? "(" : "[") + format_number(lo) +
                            ", " + format_number(hi) + "] " + unit + ", found " + format_number(v));
    }
    return Ok{};
  };
  if (Status st = in_range(sim.dt, kMinSimDt, kMaxSimDt, false, "sim.dt", "seconds"); !st) return st;
  if (sim.avoidance != AvoidanceMode::None && sim.avoidance != AvoidanceMode::PotentialField &&
      sim.avoidance != AvoidanceMode::SteeringArcs) {
    return make_error(ErrorCode::Value, "sim.avoidance",
                      "unknown avoidance mode " + std::to_string(static_cast<int>(sim.avoidance)));
  }
  if (!(std::isfinite(sim.memory_seconds) && sim.memory_seconds >= 0)) {
    return make_error(ErrorCode::Value, "sim.memory_seconds",
                      "expected a finite number >= 0 seconds, found " + format_number(sim.memory_seconds));
  }
  if (Status st = in_range(sim.prediction_seconds, 0, kMaxPredictionSeconds, true, "sim.prediction_seconds",
                           "seconds");
      !st)
    return st;
  if (sim.path_budget < 1 || sim.path_budget > kMaxPathBudget) {
    return make_error(ErrorCode::Value, "sim.path_budget",
                      "expected an integer in [1, " + std::to_string(kMaxPathBudget) +
                          "] path requests per step, found " + std::to_string(sim.path_budget));
  }
  if (Status st = check_positive(sim.stuck_seconds, "sim.stuck_seconds"); !st) return st;
  if (Status st = check_positive(sim.stuck_progress, "sim.stuck_progress"); !st) return st;
  if (Status st = in_range(sim.density_cost, 0, kMaxDensityCost, false, "sim.density_cost", "(weight)"); !st)
    return st;
  if (Status st =
          in_range(sim.density_refresh, 0, kMaxDensityRefresh, true, "sim.density_refresh", "seconds");
      !st)
    return st;
  if (Status st =
          in_range(sim.density_half_life, 0, kMaxDensityHalfLife, false, "sim.density_half_life", "seconds");
      !st)
    return st;
  return Ok{};
}

Status check_queries(const Scenario& s) {
  const std::string where = "queries";
  if (Status st = check_count(s.queries.size(), Limits::kMaxItems, where, "queries"); !st) return st;
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    const Query& q = s.queries[i];
    const std::string at = item(where, i);
    if (Status st = check_text(q.name, field(at, "name")); !st) return st;
    if (Status st = check_inside(q.start, s.world, field(at, "start")); !st) return st;
    if (Status st = check_inside(q.goal, s.world, field(at, "goal")); !st) return st;
    if (Status st = check_class_index(s, q.movement_class, field(at, "class")); !st) return st;
    if (!q.faction.empty()) {
      if (Status st = check_faction_ref(s, q.faction, field(at, "faction")); !st) return st;
    }
    auto found = require_planner(q.planner, field(at, "planner"));
    if (!found) return found.error();
    const PlannerInfo* planner = *found;
    for (std::size_t k = 0; k < q.params.size(); ++k) {
      const std::string param_at = field(field(at, "params"), q.params[k].name);
      if (k > 0 && !(q.params[k - 1].name < q.params[k].name)) {
        return make_error(ErrorCode::Value, param_at, "parameters must be unique and sorted by name");
      }
      if (Status st = check_finite(q.params[k].value, param_at); !st) return st;
    }
    if (auto resolved = resolve_params(*planner, q.params, at); !resolved) return resolved.error();
    if (q.expected_length && !(std::isfinite(*q.expected_length) && *q.expected_length >= 0)) {
      return make_error(ErrorCode::Value, field(at, "expected_length"),
                        "expected a finite number >= 0, found " + format_number(*q.expected_length));
    }
  }
  return Ok{};
}

Status check_viewer(const Scenario& s) {
  const ViewerHints& v = s.viewer;
  if (v.center && !(std::isfinite(v.center->x) && std::isfinite(v.center->y))) {
    return make_error(ErrorCode::Value, "viewer.center",
                      "expected finite [x, y] numbers, found " + format_point(*v.center));
  }
  if (v.zoom) {
    if (Status st = check_positive(*v.zoom, "viewer.zoom"); !st) return st;
  }
  if (Status st = check_count(v.layers.size(), Limits::kMaxItems, "viewer.layers", "layers"); !st) return st;
  for (std::size_t i = 0; i < v.layers.size(); ++i) {
    if (Status st = check_name(v.layers[i], item("viewer.layers", i)); !st) return st;
  }
  return Ok{};
}

// Expectations name existing units; Arrive names units that can arrive (a Move or
// Waypoints order, their own or their group's).
Status check_expect(const Scenario& s) {
  const std::string where = "expect";
  if (Status st = check_count(s.expect.size(), Limits::kMaxItems, where, "expectations"); !st) return st;
  std::unordered_map<std::uint32_t, OrderKind> orders;  // unit id -> the order it runs
  orders.reserve(s.units.size());
  for (const Unit& u : s.units) orders.emplace(u.id, u.order.kind);
  for (const UnitGroup& g : s.groups) {
    if (g.order.kind == OrderKind::None) continue;  // its units keep their own
    for (std::uint32_t id : g.units) orders[id] = g.order.kind;
  }
  for (std::size_t i = 0; i < s.expect.size(); ++i) {
    const Expectation& e = s.expect[i];
    // One expectation is written as an object (scenario_json_write), more as an array.
    const std::string at = s.expect.size() == 1 ? where : item(where, i);
    if (e.kind > ExpectKind::Avoids) {
      return make_error(ErrorCode::Value, field(at, "kind"),
                        "unknown expectation kind " + std::to_string(static_cast<int>(e.kind)));
    }
    if (Status st = check_text(e.name, field(at, "name")); !st) return st;
    if (e.within) {
      if (Status st = check_positive(*e.within, field(at, "within")); !st) return st;
    }
    if (e.kind == ExpectKind::Arrive && !e.within) {
      return make_error(ErrorCode::Value, at, "missing required field \"within\" (seconds to arrive in)");
    }
    const std::string units_at = field(at, "units");
    if (e.kind == ExpectKind::Arrive && e.units.empty() &&
        std::none_of(orders.begin(), orders.end(), [](const auto& entry) {
          return entry.second == OrderKind::Move || entry.second == OrderKind::Waypoints;
        })) {
      return make_error(ErrorCode::Value, at, "no unit has a move or waypoints order, so none can arrive");
    }
    if (!e.units.empty() && (e.kind == ExpectKind::NoOverlaps || e.kind == ExpectKind::NoTunnelling)) {
      return make_error(ErrorCode::Value, units_at,
                        std::string(to_string(e.kind)) + " is about every unit: it takes no units");
    }
    if (Status st = check_count(e.units.size(), Limits::kMaxItems, units_at, "units"); !st) return st;
    for (std::size_t k = 0; k < e.units.size(); ++k) {
      const auto it = orders.find(e.units[k]);
      if (it == orders.end())
        return make_error(ErrorCode::Value, item(units_at, k),
                          "no unit has id " + std::to_string(e.units[k]));
      if (e.kind == ExpectKind::Arrive && it->second != OrderKind::Move &&
          it->second != OrderKind::Waypoints) {
        return make_error(
            ErrorCode::Value, item(units_at, k),
            "unit " + std::to_string(e.units[k]) + " has no move or waypoints order, so it never arrives");
      }
    }
    if (e.kind == ExpectKind::Passes) {
      if (Status st = check_inside(e.point, s.world, field(at, "point")); !st) return st;
      if (Status st = check_positive(e.radius, field(at, "radius")); !st) return st;
    }
    if (e.kind == ExpectKind::Avoids) {
      const std::string area_at = field(at, "area");
      if (e.area.kind == ShapeKind::Circle) {
        if (Status st = check_inside(e.area.center, s.world, field(area_at, "center")); !st) return st;
        if (Status st = check_positive(e.area.radius, field(area_at, "radius")); !st) return st;
      } else if (e.area.kind == ShapeKind::Rect) {
        if (Status st = check_finite(e.area.min.x, field(area_at, "min")); !st) return st;
        if (Status st = check_finite(e.area.min.y, field(area_at, "min")); !st) return st;
        if (Status st = check_finite(e.area.max.x, field(area_at, "max")); !st) return st;
        if (Status st = check_finite(e.area.max.y, field(area_at, "max")); !st) return st;
        if (!(e.area.min.x < e.area.max.x && e.area.min.y < e.area.max.y)) {
          return make_error(ErrorCode::Value, field(area_at, "max"),
                            "expected max " + format_point(e.area.max) + " above and right of min " +
                                format_point(e.area.min));
        }
      } else {
        return make_error(ErrorCode::Value, field(area_at, "shape"), "expected a rect or a circle");
      }
    }
  }
  return Ok{};
}

// Every check, in file order, except that factions are checked before the threats and
// allies that name them: a bad definition is the clearer message.
Status check_scenario(const Scenario& s) {
  if (Status st = check_text(s.name, "name"); !st) return st;
  if (Status st = check_text(s.description, "description"); !st) return st;
  if (Status st = check_world(s); !st) return st;
  if (Status st = check_classes(s); !st) return st;
  if (Status st = check_terrains(s); !st) return st;
  if (Status st = check_tiles(s); !st) return st;
  if (Status st = check_id_list(s, s.features, "features", check_feature); !st) return st;
  if (Status st = check_containers(s); !st) return st;
  if (Status st = check_factions(s); !st) return st;
  if (Status st = check_id_list(s, s.threats, "threats", check_influence); !st) return st;
  if (Status st = check_id_list(s, s.allies, "allies", check_influence); !st) return st;
  if (Status st = check_id_list(s, s.roads, "roads", check_road); !st) return st;
  if (Status st = check_road_factors(s); !st) return st;
  if (Status st = check_id_list(s, s.bridges, "bridges", check_bridge); !st) return st;
  if (Status st = check_count(s.units.size(), kMaxUnits, "units", "units"); !st) return st;
  if (Status st = check_id_list(s, s.units, "units", check_unit); !st) return st;
  if (Status st = check_formations(s); !st) return st;
  if (Status st = check_groups(s); !st) return st;
  if (Status st = check_sim(s); !st) return st;
  if (Status st = check_queries(s); !st) return st;
  if (Status st = check_viewer(s); !st) return st;
  if (Status st = check_expect(s); !st) return st;
  return Ok{};
}

}  // namespace

}  // namespace scenario_detail

// ---------------------------------------------------------------------------------------
// [SECTION] Entry point
// ---------------------------------------------------------------------------------------

Status validate_scenario(const Scenario& scenario) { return scenario_detail::check_scenario(scenario); }

}  // namespace pathscope

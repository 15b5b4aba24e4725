#include "planner/scenario/scenario_json_read.hpp"

// Reading scenario JSON: text -> DOM (scenario_json_dom) -> Scenario. The format is
// specified field by field in docs/formats.md.
//
// [SECTION] Field readers (types, unknown fields, names -> indices)
// [SECTION] Sections (DOM -> Scenario)
// [SECTION] Entry point
//
// A problem is thrown as scenario_detail::Rejected (see scenario_json_detail.hpp) and
// returned as an Error by read_scenario_json.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "planner/core/default_planner.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/scenario/scenario_json_detail.hpp"
#include "planner/scenario/scenario_json_dom.hpp"

namespace pathscope {

namespace {

using namespace scenario_detail;

// ---------------------------------------------------------------------------------------
// [SECTION] Field readers
// ---------------------------------------------------------------------------------------

// A JSON object with a fixed set of known fields; unknown fields are rejected.
class ObjectReader {
 public:
  ObjectReader(const Json& j, std::string path, const std::vector<std::string_view>& known)
      : j_(j), path_(std::move(path)) {
    if (!j.is_object()) reject(ErrorCode::Schema, path_, "expected an object, found " + describe(j));
    for (const auto& [key, value] : j.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string list;
        for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        reject(ErrorCode::Schema, field(path_, key),
               "unknown field " + quote_text(key) + " (known: " + list + ")");
      }
    }
  }

  /// The field, or nullptr when absent.
  const Json* find(std::string_view key) const {
    const auto it = j_.find(std::string(key));
    return it == j_.end() ? nullptr : &*it;
  }

  /// The field; rejects when absent.
  const Json& need(std::string_view key) const {
    const Json* v = find(key);
    if (v == nullptr)
      reject(ErrorCode::Schema, path_, "missing required field " + quote_text(std::string(key)));
    return *v;
  }

  std::string at(std::string_view key) const { return field(path_, key); }
  const std::string& path() const { return path_; }

 private:
  const Json& j_;
  std::string path_;
};

double read_number(const Json& j, const std::string& where) {
  if (!j.is_number()) reject(ErrorCode::Schema, where, "expected a number, found " + describe(j));
  const double v = j.get<double>();
  if (!std::isfinite(v)) reject(ErrorCode::Value, where, "expected a finite number");
  return v;
}

std::uint64_t read_unsigned(const Json& j, const std::string& where, std::uint64_t max) {
  if (!j.is_number_integer()) reject(ErrorCode::Schema, where, "expected an integer, found " + describe(j));
  if (!j.is_number_unsigned())
    reject(ErrorCode::Value, where, "expected an integer >= 0, found " + describe(j));
  const auto v = j.get<std::uint64_t>();
  if (v > max) {
    reject(ErrorCode::Value, where,
           std::to_string(v) + " is out of range (largest: " + std::to_string(max) + ")");
  }
  return v;
}

// A signed integer that fits an int (the validator checks the field's own range).
int read_int(const Json& j, const std::string& where) {
  if (!j.is_number_integer()) reject(ErrorCode::Schema, where, "expected an integer, found " + describe(j));
  const bool fits = j.is_number_unsigned()
                        ? j.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max())
                        : j.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                              j.get<std::int64_t>() <= std::numeric_limits<int>::max();
  if (!fits) reject(ErrorCode::Value, where, j.dump() + " is out of range for an integer");
  return static_cast<int>(j.get<std::int64_t>());
}

std::uint32_t read_id(const ObjectReader& obj) {
  return static_cast<std::uint32_t>(
      read_unsigned(obj.need("id"), obj.at("id"), std::numeric_limits<std::uint32_t>::max()));
}

std::string read_string(const Json& j, const std::string& where) {
  if (!j.is_string()) reject(ErrorCode::Schema, where, "expected a string, found " + describe(j));
  return j.get<std::string>();
}

bool read_bool(const Json& j, const std::string& where) {
  if (!j.is_boolean()) reject(ErrorCode::Schema, where, "expected true or false, found " + describe(j));
  return j.get<bool>();
}

Vec2 read_vec2(const Json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number() || !j[1].is_number()) {
    reject(ErrorCode::Schema, where,
           "expected [x, y] numbers, found " + (j.is_array() ? j.dump() : describe(j)));
  }
  return {read_number(j[0], item(where, 0)), read_number(j[1], item(where, 1))};
}

const Json::array_t& read_array(const Json& j, const std::string& where, std::size_t limit) {
  if (!j.is_array()) reject(ErrorCode::Schema, where, "expected an array, found " + describe(j));
  check_count(j.size(), limit, where, "entries");
  return j.get_ref<const Json::array_t&>();
}

// An array of at most `limit` entries, each read by read_one(entry, "where[i]").
template <typename ReadOne>
auto read_list(const Json& j, const std::string& where, std::size_t limit, ReadOne read_one) {
  const Json::array_t& arr = read_array(j, where, limit);
  std::vector<decltype(read_one(arr.front(), where))> out;
  out.reserve(arr.size());
  for (std::size_t i = 0; i < arr.size(); ++i) out.push_back(read_one(arr[i], item(where, i)));
  return out;
}

std::vector<Vec2> read_points(const Json& j, const std::string& where) {
  return read_list(j, where, Limits::kMaxPolygonPoints, read_vec2);
}

Color read_color(const Json& j, const std::string& where) {
  const std::string text = read_string(j, where);
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  const bool shape_ok = (text.size() == 7 || text.size() == 9) && text[0] == '#' &&
                        std::all_of(text.begin() + 1, text.end(), [&](char c) { return hex(c) >= 0; });
  if (!shape_ok)
    reject(ErrorCode::Value, where,
           "expected a colour \"#rrggbb\" or \"#rrggbbaa\", found " + quote_text(text));
  auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(hex(text[i]) * 16 + hex(text[i + 1])); };
  Color c{byte(1), byte(3), byte(5), 255};
  if (text.size() == 9) c.a = byte(7);
  return c;
}

// One of `names` (JSON spellings of an enum's values, in the enum's order); its index.
std::size_t read_choice(const Json& j, const std::string& where, const std::vector<std::string_view>& names) {
  const std::string text = read_string(j, where);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return i;
  }
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + quote_text(std::string(names[i]));
  }
  reject(ErrorCode::Value, where, "expected " + list + ", found " + quote_text(text));
}

// The required field `key` of `obj`, read with `read`.
template <typename T>
T read_need(const ObjectReader& obj, std::string_view key, T (*read)(const Json&, const std::string&)) {
  return read(obj.need(key), obj.at(key));
}

// The optional field `key` of `obj`, read with `read`, or `fallback` when absent.
template <typename T>
T read_or(const ObjectReader& obj, std::string_view key, T fallback,
          T (*read)(const Json&, const std::string&)) {
  const Json* v = obj.find(key);
  return v == nullptr ? fallback : read(*v, obj.at(key));
}

// A name that must match an entry of `items` (movement classes, terrains); returns its index.
template <typename T>
std::size_t read_ref(const std::vector<T>& items, std::string_view what, const ObjectReader& obj,
                     std::string_view key) {
  const std::string name = read_need(obj, key, read_string);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == name) return i;
  }
  reject_unknown(obj.at(key), what, name, names_of(items));
}

// ---------------------------------------------------------------------------------------
// [SECTION] Sections
// ---------------------------------------------------------------------------------------

void read_world(const Json& j, Scenario& s) {
  const ObjectReader obj(j, "world", {"width", "height", "cell_size"});
  s.world.width = read_need(obj, "width", read_number);
  s.world.height = read_need(obj, "height", read_number);
  s.world.cell_size = read_or(obj, "cell_size", 1.0, read_number);
}

// The optional number `key` of `obj`: nullopt when absent.
std::optional<double> read_optional_number(const ObjectReader& obj, std::string_view key) {
  const Json* v = obj.find(key);
  return v == nullptr ? std::nullopt : std::optional<double>(read_number(*v, obj.at(key)));
}

MovementClass read_class(const Json& j, const std::string& at) {
  const ObjectReader obj(
      j, at,
      {"name", "radius", "speed", "amphibious", "acceleration", "deceleration", "turn_rate", "hard_radius",
       "soft_radius", "hard_aspect", "priority", "planner", "vehicle", "min_turn_radius", "reverse_speed"});
  MovementClass c;
  c.name = read_need(obj, "name", read_string);
  c.radius = read_need(obj, "radius", read_number);
  c.speed = read_need(obj, "speed", read_number);
  c.amphibious = read_or(obj, "amphibious", false, read_bool);
  c.acceleration = read_optional_number(obj, "acceleration");
  c.deceleration = read_optional_number(obj, "deceleration");
  c.turn_rate = read_optional_number(obj, "turn_rate");
  c.hard_radius = read_optional_number(obj, "hard_radius");
  c.soft_radius = read_optional_number(obj, "soft_radius");
  c.hard_aspect = read_or(obj, "hard_aspect", 1.0, read_number);
  c.priority = read_or(obj, "priority", 0, read_int);
  c.planner = read_or(obj, "planner", std::string(kDefaultPlanner), read_string);
  if (const Json* v = obj.find("vehicle")) {
    c.vehicle = static_cast<VehicleModel>(
        read_choice(*v, obj.at("vehicle"), {"infantry", "tracked", "wheeled", "rotary"}));
  }
  c.min_turn_radius = read_optional_number(obj, "min_turn_radius");
  c.reverse_speed = read_optional_number(obj, "reverse_speed");
  return c;
}

void read_terrains(const Json& j, Scenario& s) {
  std::vector<std::string_view> cost_keys;
  for (const MovementClass& c : s.classes) cost_keys.push_back(c.name);
  s.terrains =
      read_list(j, "terrain_types", Limits::kMaxTerrainTypes, [&](const Json& e, const std::string& at) {
        const ObjectReader obj(e, at, {"name", "symbol", "color", "group", "cost"});
        TerrainType t;
        t.name = read_need(obj, "name", read_string);
        const std::string symbol = read_need(obj, "symbol", read_string);
        if (symbol.size() != 1) {
          reject(ErrorCode::Value, obj.at("symbol"),
                 "expected a one-character string, found " + quote_text(symbol));
        }
        t.symbol = symbol[0];
        t.color = read_need(obj, "color", read_color);
        t.group = read_or(obj, "group", std::string(), read_string);
        const ObjectReader cost(obj.need("cost"), obj.at("cost"), cost_keys);
        for (const MovementClass& c : s.classes) {
          const Json* v = cost.find(c.name);
          if (v == nullptr)
            reject(ErrorCode::Schema, cost.path(), "missing cost for movement class " + quote_text(c.name));
          if (v->is_string() && v->get<std::string>() == "impassable") {
            t.cost.push_back(std::nullopt);
          } else if (v->is_number()) {
            t.cost.push_back(v->get<double>());
          } else {
            reject(ErrorCode::Schema, cost.at(c.name),
                   "expected a number > 0 or \"impassable\", found " + describe(*v));
          }
        }
        return t;
      });
}

void read_tiles(const Json& j, Scenario& s) {
  const ObjectReader obj(j, "tiles", {"width", "height", "rows"});
  TileGrid grid;
  const auto side_limit = static_cast<std::uint64_t>(Limits::kMaxGridSide);
  for (const auto& [key, out] :
       {std::pair<std::string_view, int*>{"width", &grid.width}, {"height", &grid.height}}) {
    const std::uint64_t v =
        read_unsigned(obj.need(key), obj.at(key), std::numeric_limits<std::uint64_t>::max());
    if (v == 0) reject(ErrorCode::Value, obj.at(key), "expected an integer > 0, found 0");
    if (v > side_limit) {
      reject(ErrorCode::Limit, obj.at(key),
             std::to_string(v) + " cells exceeds the limit of " + std::to_string(Limits::kMaxGridSide));
    }
    *out = static_cast<int>(v);
  }
  const Json::array_t& rows = read_array(obj.need("rows"), obj.at("rows"), side_limit);
  if (rows.size() != static_cast<std::size_t>(grid.height)) {
    reject(ErrorCode::Value, obj.at("rows"),
           "expected " + std::to_string(grid.height) + " rows (tiles.height), found " +
               std::to_string(rows.size()));
  }
  std::array<int, 256> index_of{};
  index_of.fill(-1);
  std::string known;
  for (std::size_t t = 0; t < s.terrains.size(); ++t) {
    index_of[static_cast<unsigned char>(s.terrains[t].symbol)] = static_cast<int>(t);
    known += (known.empty() ? "" : " ") + std::string(1, s.terrains[t].symbol);
  }
  const auto width = static_cast<std::size_t>(grid.width);
  grid.terrain.reserve(width * static_cast<std::size_t>(grid.height));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string at = item(obj.at("rows"), r);
    const std::string text = read_string(rows[r], at);
    std::size_t column = 0;
    std::size_t i = 0;
    while (i < text.size()) {
      const std::size_t run_start = i;
      std::size_t count = 0;
      bool has_count = false;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        has_count = true;
        count = count * 10 + static_cast<std::size_t>(text[i] - '0');
        if (count > width) {
          reject(ErrorCode::Value, at,
                 "run count at character " + std::to_string(run_start) + " exceeds the row width " +
                     std::to_string(width));
        }
        ++i;
      }
      if (i == text.size()) {
        reject(ErrorCode::Value, at,
               "run count at character " + std::to_string(run_start) + " has no terrain symbol");
      }
      if (has_count && count == 0) {
        reject(ErrorCode::Value, at,
               "run count 0 at character " + std::to_string(run_start) + " (counts are >= 1)");
      }
      if (!has_count) count = 1;
      const int terrain = index_of[static_cast<unsigned char>(text[i])];
      if (terrain < 0) {
        reject(ErrorCode::Value, at,
               "unknown terrain symbol " + describe_symbol(text[i]) + " at column " + std::to_string(column) +
                   " (character " + std::to_string(i) + "); known symbols: " + known);
      }
      if (column + count > width) {
        reject(ErrorCode::Value, at,
               "row is longer than tiles.width (" + std::to_string(width) + " cells): the run at character " +
                   std::to_string(run_start) + " ends at column " + std::to_string(column + count));
      }
      grid.terrain.insert(grid.terrain.end(), count, static_cast<std::uint8_t>(terrain));
      column += count;
      ++i;
    }
    if (column != width) {
      reject(ErrorCode::Value, at,
             "row has " + std::to_string(column) + " cells, expected " + std::to_string(width) +
                 " (tiles.width)");
    }
  }
  s.tiles = std::move(grid);
}

Shape read_shape(const ObjectReader& obj, ShapeKind kind) {
  Shape shape;
  shape.kind = kind;
  switch (kind) {
    case ShapeKind::Polygon: shape.points = read_need(obj, "points", read_points); break;
    case ShapeKind::Rect:
      shape.min = read_need(obj, "min", read_vec2);
      shape.max = read_need(obj, "max", read_vec2);
      break;
    case ShapeKind::Circle:
      shape.center = read_need(obj, "center", read_vec2);
      shape.radius = read_need(obj, "radius", read_number);
      break;
  }
  return shape;
}

Feature read_feature(const Scenario& s, const Json& j, const std::string& at) {
  if (!j.is_object()) reject(ErrorCode::Schema, at, "expected an object, found " + describe(j));
  const auto shape_it = j.find("shape");
  if (shape_it == j.end()) reject(ErrorCode::Schema, at, "missing required field \"shape\"");
  const std::string shape_name = read_string(*shape_it, field(at, "shape"));
  ShapeKind kind = ShapeKind::Polygon;
  std::vector<std::string_view> known = {"id", "name", "terrain", "shape"};
  if (shape_name == "polygon") {
    known.push_back("points");
  } else if (shape_name == "rect") {
    kind = ShapeKind::Rect;
    known.insert(known.end(), {"min", "max"});
  } else if (shape_name == "circle") {
    kind = ShapeKind::Circle;
    known.insert(known.end(), {"center", "radius"});
  } else {
    reject(ErrorCode::Value, field(at, "shape"),
           "expected \"polygon\", \"rect\" or \"circle\", found " + quote_text(shape_name));
  }
  known.push_back("velocity");
  known.push_back("container");
  const ObjectReader obj(j, at, known);
  Feature f;
  f.id = read_id(obj);
  f.name = read_or(obj, "name", std::string(), read_string);
  f.terrain = read_ref(s.terrains, "terrain", obj, "terrain");
  f.shape = read_shape(obj, kind);
  f.velocity = read_or(obj, "velocity", Vec2{0, 0}, read_vec2);
  f.container = read_or(obj, "container", false, read_bool);
  return f;
}

Influence read_influence(const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"id", "center", "radius", "strength", "faction"});
  Influence z;
  z.id = read_id(obj);
  z.center = read_need(obj, "center", read_vec2);
  z.radius = read_need(obj, "radius", read_number);
  z.strength = read_or(obj, "strength", 1.0, read_number);
  z.faction = read_or(obj, "faction", std::string(), read_string);
  return z;
}

Road read_road(const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"id", "points", "width", "speed_factor"});
  Road r;
  r.id = read_id(obj);
  r.points = read_need(obj, "points", read_points);
  r.width = read_or(obj, "width", 4.0, read_number);
  r.speed_factor = read_or(obj, "speed_factor", 1.5, read_number);
  return r;
}

Bridge read_bridge(const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"id", "a", "b", "width", "intact"});
  Bridge b;
  b.id = read_id(obj);
  b.a = read_need(obj, "a", read_vec2);
  b.b = read_need(obj, "b", read_vec2);
  b.width = read_or(obj, "width", 6.0, read_number);
  b.intact = read_or(obj, "intact", true, read_bool);
  return b;
}

Faction read_faction(const Scenario& s, const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"name", "color", "sight", "partial", "memory", "bridges"});
  Faction f;
  f.name = read_need(obj, "name", read_string);
  f.color = read_need(obj, "color", read_color);
  f.sight = read_or(obj, "sight", 0.0, read_number);
  f.partial = read_or(obj, "partial", false, read_bool);
  if (const Json* v = obj.find("memory")) {
    f.memory = read_list(*v, obj.at("memory"), Limits::kMaxItems,
                         [&s](const Json& e, const std::string& where) { return read_feature(s, e, where); });
  }
  if (const Json* v = obj.find("bridges")) {
    f.bridges = read_list(*v, obj.at("bridges"), Limits::kMaxItems,
                          [](const Json& e, const std::string& where) { return read_bridge(e, where); });
  }
  return f;
}

Order read_order(const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"kind", "points", "patrol"});
  Order o;
  o.kind = static_cast<OrderKind>(
      read_choice(obj.need("kind"), obj.at("kind"), {"none", "move", "waypoints", "patrol", "stop"}));
  o.points = read_or(obj, "points", std::vector<Vec2>{}, read_points);
  if (const Json* v = obj.find("patrol"))
    o.patrol = static_cast<PatrolMode>(read_choice(*v, obj.at("patrol"), {"loop", "back_forth"}));
  return o;
}

Unit read_unit(const Scenario& s, const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"id", "faction", "class", "position", "heading", "order"});
  Unit u;
  u.id = read_id(obj);
  u.faction = read_need(obj, "faction", read_string);
  u.movement_class = read_ref(s.classes, "movement class", obj, "class");
  u.position = read_need(obj, "position", read_vec2);
  u.heading = read_or(obj, "heading", 0.0, read_number);
  u.order = read_or(obj, "order", Order{}, read_order);
  return u;
}

PlatoonSpec read_platoon(const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"formation", "spacing", "heading", "break_when_blocked"});
  PlatoonSpec p;
  p.formation = read_or(obj, "formation", p.formation, read_string);
  p.spacing = read_or(obj, "spacing", p.spacing, read_number);
  p.heading = read_optional_number(obj, "heading");
  p.break_when_blocked = read_or(obj, "break_when_blocked", false, read_bool);
  return p;
}

FormationDef read_formation(const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"name", "offsets"});
  FormationDef f;
  f.name = read_need(obj, "name", read_string);
  f.offsets = read_need(obj, "offsets", read_points);
  return f;
}

UnitGroup read_group(const Json& j, const std::string& at) {
  const ObjectReader obj(j, at, {"id", "name", "units", "order", "platoon"});
  UnitGroup g;
  g.id = read_id(obj);
  g.name = read_or(obj, "name", std::string(), read_string);
  g.units = read_list(
      obj.need("units"), obj.at("units"), Limits::kMaxItems, [](const Json& e, const std::string& where) {
        return static_cast<std::uint32_t>(read_unsigned(e, where, std::numeric_limits<std::uint32_t>::max()));
      });
  g.order = read_or(obj, "order", Order{}, read_order);
  if (const Json* v = obj.find("platoon")) g.platoon = read_platoon(*v, obj.at("platoon"));
  return g;
}

void read_sim(const Json& j, Scenario& s) {
  const ObjectReader obj(
      j, "sim",
      {"dt", "continuous", "prevention", "cooperation", "passages", "avoidance", "memory_seconds",
       "prediction_seconds", "path_budget", "stuck_seconds", "stuck_progress", "density_cost",
       "density_refresh", "density_half_life", "formation_goals", "detours"});
  const SimSettings defaults;
  SimSettings& sim = s.sim;
  sim.dt = read_or(obj, "dt", defaults.dt, read_number);
  sim.continuous = read_or(obj, "continuous", defaults.continuous, read_bool);
  sim.prevention = read_or(obj, "prevention", defaults.prevention, read_bool);
  sim.cooperation = read_or(obj, "cooperation", defaults.cooperation, read_bool);
  sim.passages = read_or(obj, "passages", defaults.passages, read_bool);
  if (const Json* v = obj.find("avoidance")) {
    sim.avoidance = static_cast<AvoidanceMode>(
        read_choice(*v, obj.at("avoidance"), {"none", "potential_field", "steering_arcs"}));
  }
  sim.memory_seconds = read_or(obj, "memory_seconds", defaults.memory_seconds, read_number);
  sim.prediction_seconds = read_or(obj, "prediction_seconds", defaults.prediction_seconds, read_number);
  sim.path_budget = read_or(obj, "path_budget", defaults.path_budget, read_int);
  sim.stuck_seconds = read_or(obj, "stuck_seconds", defaults.stuck_seconds, read_number);
  sim.stuck_progress = read_or(obj, "stuck_progress", defaults.stuck_progress, read_number);
  sim.density_cost = read_or(obj, "density_cost", defaults.density_cost, read_number);
  sim.density_refresh = read_or(obj, "density_refresh", defaults.density_refresh, read_number);
  sim.density_half_life = read_or(obj, "density_half_life", defaults.density_half_life, read_number);
  sim.formation_goals = read_or(obj, "formation_goals", defaults.formation_goals, read_bool);
  sim.detours = read_or(obj, "detours", defaults.detours, read_bool);
}

Query read_query(const Scenario& s, const Json& j, const std::string& at) {
  const ObjectReader obj(
      j, at, {"name", "start", "goal", "class", "planner", "params", "expected_length", "faction"});
  Query q;
  q.name = read_or(obj, "name", std::string(), read_string);
  q.start = read_need(obj, "start", read_vec2);
  q.goal = read_need(obj, "goal", read_vec2);
  q.movement_class = read_ref(s.classes, "movement class", obj, "class");
  q.planner = read_or(obj, "planner", std::string(kDefaultPlanner), read_string);
  q.faction = read_or(obj, "faction", std::string(), read_string);
  if (const Json* params = obj.find("params")) {
    if (!params->is_object())
      reject(ErrorCode::Schema, obj.at("params"), "expected an object, found " + describe(*params));
    // Object keys come sorted by name, which is the order Query::params keeps.
    for (const auto& [name, value] : params->items()) {
      q.params.push_back(PlannerParam{name, read_number(value, field(obj.at("params"), name))});
    }
  }
  if (const Json* v = obj.find("expected_length"))
    q.expected_length = read_number(*v, obj.at("expected_length"));
  return q;
}

// One expectation; its known fields depend on its kind.
Expectation read_expectation(const Json& j, const std::string& at) {
  if (!j.is_object()) reject(ErrorCode::Schema, at, "expected an object, found " + describe(j));
  const auto kind_it = j.find("kind");
  if (kind_it == j.end()) reject(ErrorCode::Schema, at, "missing required field \"kind\"");
  Expectation e;
  e.kind = static_cast<ExpectKind>(
      read_choice(*kind_it, field(at, "kind"),
                  {"arrive", "no_overlaps", "no_tunnelling", "no_stuck", "passes", "avoids"}));
  std::vector<std::string_view> known = {"kind", "name", "within"};
  if (e.kind != ExpectKind::NoOverlaps && e.kind != ExpectKind::NoTunnelling) known.push_back("units");
  if (e.kind == ExpectKind::Passes) known.insert(known.end(), {"point", "radius"});
  if (e.kind == ExpectKind::Avoids) known.push_back("area");
  const ObjectReader obj(j, at, known);
  e.name = read_or(obj, "name", std::string(), read_string);
  if (e.kind == ExpectKind::Arrive) {
    e.within = read_need(obj, "within", read_number);
  } else if (const Json* v = obj.find("within")) {
    e.within = read_number(*v, obj.at("within"));
  }
  if (const Json* v = obj.find("units")) {
    e.units = read_list(*v, obj.at("units"), Limits::kMaxItems, [](const Json& u, const std::string& where) {
      return static_cast<std::uint32_t>(read_unsigned(u, where, std::numeric_limits<std::uint32_t>::max()));
    });
  }
  if (e.kind == ExpectKind::Passes) {
    e.point = read_need(obj, "point", read_vec2);
    e.radius = read_need(obj, "radius", read_number);
  }
  if (e.kind == ExpectKind::Avoids) {
    const std::string area_at = obj.at("area");
    const Json& a = obj.need("area");
    if (!a.is_object()) reject(ErrorCode::Schema, area_at, "expected an object, found " + describe(a));
    const auto shape_it = a.find("shape");
    if (shape_it == a.end()) reject(ErrorCode::Schema, area_at, "missing required field \"shape\"");
    const ShapeKind kind = read_choice(*shape_it, field(area_at, "shape"), {"rect", "circle"}) == 0
                               ? ShapeKind::Rect
                               : ShapeKind::Circle;
    const ObjectReader area(a, area_at,
                            kind == ShapeKind::Rect
                                ? std::vector<std::string_view>{"shape", "min", "max"}
                                : std::vector<std::string_view>{"shape", "center", "radius"});
    e.area = read_shape(area, kind);
  }
  return e;
}

// `expect`: one expectation, or an array of them.
std::vector<Expectation> read_expect(const Json& j) {
  if (j.is_object()) return {read_expectation(j, "expect")};
  if (!j.is_array())
    reject(ErrorCode::Schema, "expect", "expected an object or an array, found " + describe(j));
  return read_list(j, "expect", Limits::kMaxItems, read_expectation);
}

void read_viewer(const Json& j, Scenario& s) {
  const ObjectReader obj(j, "viewer", {"center", "zoom", "layers"});
  if (const Json* v = obj.find("center")) s.viewer.center = read_vec2(*v, obj.at("center"));
  if (const Json* v = obj.find("zoom")) s.viewer.zoom = read_number(*v, obj.at("zoom"));
  if (const Json* v = obj.find("layers"))
    s.viewer.layers = read_list(*v, obj.at("layers"), Limits::kMaxItems, read_string);
}

bool has_default_class_names(const Scenario& s) {
  const std::vector<MovementClass> defaults = default_movement_classes();
  if (defaults.size() != s.classes.size()) return false;
  for (std::size_t i = 0; i < defaults.size(); ++i) {
    if (defaults[i].name != s.classes[i].name) return false;
  }
  return true;
}

Scenario read_scenario(const Json& root) {
  if (!root.is_object())
    reject(ErrorCode::Schema, "", "expected a JSON object at the top level, found " + describe(root));
  // The format and version come first: a different kind of file gets the clearest message.
  const auto format_it = root.find("format");
  if (format_it == root.end()) {
    reject(
        ErrorCode::Schema, "",
        "missing required field \"format\" (expected " + quote_text(std::string(kScenarioFormatName)) + ")");
  }
  if (!format_it->is_string() || format_it->get<std::string>() != kScenarioFormatName) {
    reject(ErrorCode::Schema, "format",
           "expected " + quote_text(std::string(kScenarioFormatName)) + ", found " + describe(*format_it));
  }
  const auto version_it = root.find("version");
  if (version_it == root.end()) reject(ErrorCode::Schema, "", "missing required field \"version\"");
  const std::uint64_t version =
      read_unsigned(*version_it, "version", std::numeric_limits<std::uint64_t>::max());
  if (version > static_cast<std::uint64_t>(kScenarioFormatVersion)) {
    reject(ErrorCode::Value, "version",
           "version " + std::to_string(version) + " is newer than this program reads (" +
               std::to_string(kScenarioFormatVersion) + ")");
  }
  // Version 1 files are read by the same code: they have none of version 2's fields
  // (class limits, orders, groups, sim), which take their defaults.
  if (version < 1) {
    reject(ErrorCode::Value, "version",
           "expected version 1 to " + std::to_string(kScenarioFormatVersion) + ", found 0");
  }

  const ObjectReader top(root, "", {"format",  "version",          "name",          "description", "world",
                                    "seed",    "movement_classes", "terrain_types", "tiles",       "features",
                                    "threats", "allies",           "roads",         "bridges",     "factions",
                                    "units",   "groups",           "formations",    "sim",         "queries",
                                    "viewer",  "expect",           "sim_state"});
  Scenario s;
  s.name = read_or(top, "name", std::string(), read_string);
  s.description = read_or(top, "description", std::string(), read_string);
  read_world(top.need("world"), s);
  check_world(s);
  if (const Json* v = top.find("seed"))
    s.seed = read_unsigned(*v, "seed", std::numeric_limits<std::uint64_t>::max());
  if (const Json* v = top.find("movement_classes")) {
    s.classes = read_list(*v, "movement_classes", Limits::kMaxMovementClasses, read_class);
  } else {
    s.classes = default_movement_classes();
  }
  check_classes(s);
  if (const Json* v = top.find("terrain_types")) {
    read_terrains(*v, s);
  } else if (has_default_class_names(s)) {
    s.terrains = default_terrain_types();
  } else {
    reject(ErrorCode::Schema, "",
           "missing field \"terrain_types\": it is required when movement_classes are not the defaults");
  }
  // Tiles are decoded through the terrain symbols, which must be valid first.
  check_terrains(s);
  if (const Json* v = top.find("tiles")) read_tiles(*v, s);
  // The list sections; with_scenario hands the scenario to the readers that resolve
  // terrain and class names to indices.
  auto with_scenario = [&s](auto read_one) {
    return [&s, read_one](const Json& j, const std::string& at) { return read_one(s, j, at); };
  };
  auto read_items = [&top](std::string_view key, auto read_one, auto& out) {
    if (const Json* v = top.find(key)) out = read_list(*v, std::string(key), Limits::kMaxItems, read_one);
  };
  read_items("features", with_scenario(read_feature), s.features);
  read_items("threats", read_influence, s.threats);
  read_items("allies", read_influence, s.allies);
  read_items("roads", read_road, s.roads);
  read_items("bridges", read_bridge, s.bridges);
  read_items("factions", with_scenario(read_faction), s.factions);
  read_items("units", with_scenario(read_unit), s.units);
  read_items("groups", read_group, s.groups);
  read_items("formations", read_formation, s.formations);
  if (const Json* v = top.find("sim")) read_sim(*v, s);
  read_items("queries", with_scenario(read_query), s.queries);
  if (const Json* v = top.find("viewer")) read_viewer(*v, s);
  if (const Json* v = top.find("expect")) s.expect = read_expect(*v);
  if (const Json* v = top.find("sim_state")) {
    if (!v->is_object())
      reject(ErrorCode::Schema, "sim_state", "expected an object (a saved game's simulation state)");
    s.sim_state = v->dump();
  }
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// [SECTION] Entry point
// ---------------------------------------------------------------------------------------

Result<Scenario> read_scenario_json(std::string_view json_text, const std::string& source_name) {
  const Result<Json> dom = parse_json_dom(json_text, source_name);
  if (!dom) return dom.error();
  try {
    return read_scenario(*dom);
  } catch (const Rejected& r) {
    Error e = r.error;
    e.where = locate(source_name, e.where);
    return e;
  }
}

}  // namespace pathscope

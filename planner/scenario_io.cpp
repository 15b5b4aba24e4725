#include "planner/scenario_io.hpp"

// Scenario files: JSON text <-> Scenario, and the semantic checks shared with editing.
// The format itself is specified in maps/README.md.
//
// [SECTION] Errors, paths and message formatting
// [SECTION] JSON text -> DOM (SAX builder: duplicate keys, depth limit, positions)
// [SECTION] Validation (Scenario -> first problem, in file order)
// [SECTION] Reading (DOM -> Scenario: types, unknown fields, names -> indices)
// [SECTION] Writing (Scenario -> canonical text)
// [SECTION] Files (load, atomic save)
//
// Reading and validation stop at the first problem. Inside this file a problem is a
// thrown `Rejected` carrying the Error, which keeps the many small checks readable; the
// public functions catch it and return a Result, so no exception leaves the library.

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <new>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "planner/geometry.hpp"
#include "planner/planner_registry.hpp"

namespace pathscope {

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;
using Limits = ScenarioLimits;

// ---------------------------------------------------------------------------------------
// [SECTION] Errors, paths and message formatting
// ---------------------------------------------------------------------------------------

// The first problem found; caught by the public functions.
struct Rejected {
  Error error;
};

[[noreturn]] void reject(ErrorCode code, std::string where, std::string message) {
  throw Rejected{make_error(code, std::move(where), std::move(message))};
}

// "a.b" paths: field(base, key) and item(base, index).
std::string field(const std::string& base, std::string_view key) {
  return base.empty() ? std::string(key) : base + "." + std::string(key);
}

std::string item(const std::string& base, std::size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

// "source: path", or whichever of the two is not empty.
std::string locate(const std::string& source, const std::string& path) {
  if (source.empty()) return path;
  if (path.empty()) return source;
  return source + ": " + path;
}

// Shortest text that reads back as the same double; "0" for both zeros.
std::string format_number(double v) {
  if (v == 0) return "0";
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::array<char, 32> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

std::string format_point(Vec2 p) { return "(" + format_number(p.x) + ", " + format_number(p.y) + ")"; }

// A JSON string literal; invalid UTF-8 is replaced rather than thrown on.
template <typename J>
std::string quote(const std::string& s) {
  return J(s).dump(-1, ' ', false, J::error_handler_t::replace);
}

std::string quote_text(const std::string& s) { return quote<Json>(s); }

std::string join(const std::vector<std::string>& names, bool quote_each) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ", ";
    out += quote_each ? quote_text(n) : n;
  }
  return out.empty() ? "none" : out;
}

// "a string", "an object", ... for "expected X, found Y" messages.
std::string describe(const Json& j) {
  const std::string type = j.is_number() ? "number" : j.type_name();
  const bool vowel = type[0] == 'a' || type[0] == 'o';
  std::string out = std::string(vowel ? "an " : "a ") + type;
  if (j.is_number()) out += " " + format_number(j.get<double>());
  if (j.is_string()) out += " " + quote_text(j.get<std::string>());
  return out;
}

std::string describe_symbol(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return "'" + std::string(1, c) + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

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

// ---------------------------------------------------------------------------------------
// [SECTION] JSON text -> DOM
// ---------------------------------------------------------------------------------------

// Builds a nlohmann DOM from SAX events while tracking the JSON path of the value being
// parsed, so that a number overflow (1e999), a duplicate key or excessive nesting is
// reported at its field rather than only at a byte offset.
class DomBuilder {
 public:
  DomBuilder(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t& /*text*/) { return put(Json(v)); }
  bool string(Json::string_t& v) { return put(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return put(Json::binary(std::move(v))); }
  bool start_object(std::size_t /*size*/) { return open(Json::object()); }
  bool start_array(std::size_t /*size*/) { return open(Json::array()); }
  bool end_object() {
    frames_.pop_back();
    return true;
  }
  bool end_array() {
    frames_.pop_back();
    return true;
  }

  bool key(Json::string_t& k) {
    Frame& top = frames_.back();
    top.key = k;
    if (top.node->contains(k)) {
      fail(ErrorCode::Schema, locate(source_, path()), "duplicate key " + quote_text(k));
      return false;
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token, const Json::exception& ex) {
    const auto [line, column] = line_and_column(position);
    const std::string at = "line " + std::to_string(line) + ", column " + std::to_string(column);
    if (ex.id == 406) {  // number overflow: a literal such as 1e999 that is no finite double
      fail(ErrorCode::Value, locate(source_, path()),
           "number " + last_token + " is out of range (not a finite double), at " + at);
      return false;
    }
    std::string what = ex.what();
    if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    fail(ErrorCode::Parse, source_ + ":" + std::to_string(line) + ":" + std::to_string(column), what);
    return false;
  }

  Json& root() { return root_; }
  const std::optional<Error>& failure() const { return failure_; }

 private:
  struct Frame {
    Json* node = nullptr;
    std::string key;  // objects: the key of the value being parsed
  };

  // Adds a complete value to the innermost open container (or makes it the root).
  bool put(Json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return true;
    }
    Json& node = *frames_.back().node;
    if (node.is_array()) {
      node.push_back(std::move(v));
    } else {
      node[frames_.back().key] = std::move(v);
    }
    return true;
  }

  bool open(Json container) {
    if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      fail(ErrorCode::Limit, locate(source_, path()),
           "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      return false;
    }
    put(std::move(container));
    Json* child = &root_;
    if (!frames_.empty()) {
      Json& node = *frames_.back().node;
      child = node.is_array() ? &node.back() : &node[frames_.back().key];
    }
    frames_.push_back(Frame{child, {}});
    return true;
  }

  // The path of the value being parsed: the open containers' current children, then
  // the pending element of the innermost one.
  std::string path() const {
    std::string out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Json& node = *frames_[i].node;
      const bool innermost = i + 1 == frames_.size();
      out =
          node.is_array() ? item(out, innermost ? node.size() : node.size() - 1) : field(out, frames_[i].key);
    }
    return out;
  }

  // 1-based line and column of the last character read; `position` counts characters
  // read, so it is one past that character's offset.
  std::pair<std::size_t, std::size_t> line_and_column(std::size_t position) const {
    const std::size_t last = std::min(position == 0 ? 0 : position - 1, text_.size());
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < last; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return {line, last - line_start + 1};
  }

  void fail(ErrorCode code, std::string where, std::string message) {
    if (!failure_) failure_ = make_error(code, std::move(where), std::move(message));
  }

  std::string_view text_;
  const std::string& source_;
  Json root_;
  std::vector<Frame> frames_;
  std::optional<Error> failure_;
};

// ---------------------------------------------------------------------------------------
// [SECTION] Validation
// ---------------------------------------------------------------------------------------

void check_text(const std::string& s, const std::string& where) {
  if (!valid_utf8(s)) reject(ErrorCode::Value, where, "text is not valid UTF-8");
}

void check_name(const std::string& s, const std::string& where) {
  check_text(s, where);
  if (s.empty()) reject(ErrorCode::Value, where, "expected a non-empty name");
}

void check_count(std::size_t count, std::size_t limit, const std::string& where, std::string_view what) {
  if (count > limit) {
    reject(ErrorCode::Limit, where,
           "too many " + std::string(what) + ": " + std::to_string(count) + " (limit " +
               std::to_string(limit) + ")");
  }
}

void check_positive(double v, const std::string& where) {
  if (!(std::isfinite(v) && v > 0))
    reject(ErrorCode::Value, where, "expected a finite number > 0, found " + format_number(v));
}

void check_finite(double v, const std::string& where) {
  if (!std::isfinite(v))
    reject(ErrorCode::Value, where, "expected a finite number, found " + format_number(v));
}

// Points must lie in the world rectangle [0, width] x [0, height], edges included.
void check_inside(Vec2 p, const WorldInfo& world, const std::string& where) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
    reject(ErrorCode::Value, where, "expected finite [x, y] numbers, found " + format_point(p));
  }
  if (p.x < 0 || p.y < 0 || p.x > world.width || p.y > world.height) {
    reject(ErrorCode::Value, where,
           "point " + format_point(p) + " is outside the world [0, " + format_number(world.width) +
               "] x [0, " + format_number(world.height) + "]");
  }
}

void check_points(const std::vector<Vec2>& points, std::size_t min_count, const WorldInfo& world,
                  const std::string& where) {
  if (points.size() < min_count) {
    reject(
        ErrorCode::Value, where,
        "expected at least " + std::to_string(min_count) + " points, found " + std::to_string(points.size()));
  }
  check_count(points.size(), Limits::kMaxPolygonPoints, where, "points");
  for (std::size_t i = 0; i < points.size(); ++i) check_inside(points[i], world, item(where, i));
}

template <typename T>
void check_unique_ids(const std::vector<T>& items, const std::string& where) {
  std::unordered_map<std::uint32_t, std::size_t> seen;
  seen.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto [it, fresh] = seen.emplace(items[i].id, i);
    if (!fresh) {
      reject(
          ErrorCode::Value, field(item(where, i), "id"),
          "duplicate id " + std::to_string(items[i].id) + " (also used by " + item(where, it->second) + ")");
    }
  }
}

template <typename T>
void check_unique_names(const std::vector<T>& items, const std::string& where) {
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    check_name(items[i].name, field(item(where, i), "name"));
    const auto [it, fresh] = seen.emplace(items[i].name, i);
    if (!fresh) {
      reject(
          ErrorCode::Value, field(item(where, i), "name"),
          "duplicate name " + quote_text(items[i].name) + " (also used by " + item(where, it->second) + ")");
    }
  }
}

std::vector<std::string> faction_names(const Scenario& s) {
  std::vector<std::string> names;
  for (const Faction& f : s.factions) names.push_back(f.name);
  return names;
}

void check_faction_ref(const Scenario& s, const std::string& name, const std::string& where) {
  for (const Faction& f : s.factions) {
    if (f.name == name) return;
  }
  reject(ErrorCode::Value, where,
         "unknown faction " + quote_text(name) + " (known: " + join(faction_names(s), true) + ")");
}

void check_class_index(const Scenario& s, std::size_t index, const std::string& where) {
  if (index >= s.classes.size()) {
    reject(ErrorCode::Value, where,
           "movement class index " + std::to_string(index) + " is out of range (" +
               std::to_string(s.classes.size()) + " classes)");
  }
}

void check_world(const Scenario& s) {
  const WorldInfo& w = s.world;
  for (const auto& [value, key] : {std::pair{w.width, "world.width"}, std::pair{w.height, "world.height"}}) {
    check_positive(value, key);
    if (value > Limits::kMaxWorldSide) {
      reject(ErrorCode::Limit, key,
             format_number(value) + " m exceeds the largest world side, " +
                 format_number(Limits::kMaxWorldSide) + " m");
    }
  }
  check_positive(w.cell_size, "world.cell_size");
  if (w.cell_size < Limits::kMinCellSize) {
    reject(ErrorCode::Value, "world.cell_size",
           format_number(w.cell_size) + " m is below the smallest cell size, " +
               format_number(Limits::kMinCellSize) + " m");
  }
  const glm::ivec2 grid = s.grid_size();
  if (grid.x > Limits::kMaxGridSide || grid.y > Limits::kMaxGridSide) {
    reject(ErrorCode::Limit, "world.cell_size",
           "the grid would be " + std::to_string(grid.x) + " x " + std::to_string(grid.y) +
               " cells; the limit is " + std::to_string(Limits::kMaxGridSide) +
               " per side (use larger cells or a smaller world)");
  }
}

void check_classes(const Scenario& s) {
  const std::string where = "movement_classes";
  if (s.classes.empty()) reject(ErrorCode::Value, where, "expected at least one movement class");
  check_count(s.classes.size(), Limits::kMaxMovementClasses, where, "movement classes");
  check_unique_names(s.classes, where);
  for (std::size_t i = 0; i < s.classes.size(); ++i) {
    check_positive(s.classes[i].radius, field(item(where, i), "radius"));
    check_positive(s.classes[i].speed, field(item(where, i), "speed"));
  }
}

bool valid_symbol(char c) { return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9'); }

void check_terrains(const Scenario& s) {
  const std::string where = "terrain_types";
  if (s.terrains.empty()) reject(ErrorCode::Value, where, "expected at least one terrain type");
  check_count(s.terrains.size(), Limits::kMaxTerrainTypes, where, "terrain types");
  check_unique_names(s.terrains, where);
  std::array<int, 128> symbol_owner{};
  symbol_owner.fill(-1);
  for (std::size_t i = 0; i < s.terrains.size(); ++i) {
    const TerrainType& t = s.terrains[i];
    const std::string at = item(where, i);
    if (!valid_symbol(t.symbol)) {
      reject(ErrorCode::Value, field(at, "symbol"),
             "expected a printable ASCII character other than a digit or space, found " +
                 describe_symbol(t.symbol));
    }
    int& owner = symbol_owner[static_cast<unsigned char>(t.symbol)];
    if (owner >= 0) {
      reject(ErrorCode::Value, field(at, "symbol"),
             "duplicate symbol " + describe_symbol(t.symbol) + " (also used by " + item(where, owner) + ")");
    }
    owner = static_cast<int>(i);
    check_text(t.group, field(at, "group"));
    if (t.cost.size() != s.classes.size()) {
      reject(ErrorCode::Value, field(at, "cost"),
             "expected one cost per movement class (" + std::to_string(s.classes.size()) + "), found " +
                 std::to_string(t.cost.size()));
    }
    for (std::size_t c = 0; c < t.cost.size(); ++c) {
      if (!t.cost[c]) continue;
      const double v = *t.cost[c];
      const std::string cost_at = field(field(at, "cost"), s.classes[c].name);
      if (!(std::isfinite(v) && v > 0)) {
        reject(ErrorCode::Value, cost_at,
               "expected a number > 0 or \"impassable\", found " + format_number(v));
      }
      if (v > Limits::kMaxCostMultiplier) {
        reject(ErrorCode::Limit, cost_at,
               "cost " + format_number(v) + " exceeds the largest multiplier, " +
                   format_number(Limits::kMaxCostMultiplier) + " (use \"impassable\")");
      }
    }
  }
}

void check_tiles(const Scenario& s) {
  if (!s.tiles) return;
  const TileGrid& t = *s.tiles;
  for (const auto& [value, key] : {std::pair{t.width, "tiles.width"}, std::pair{t.height, "tiles.height"}}) {
    if (value <= 0) reject(ErrorCode::Value, key, "expected an integer > 0, found " + std::to_string(value));
    if (value > Limits::kMaxGridSide) {
      reject(ErrorCode::Limit, key,
             std::to_string(value) + " cells exceeds the limit of " + std::to_string(Limits::kMaxGridSide));
    }
  }
  // A relative tolerance keeps e.g. 30 tiles of 0.1 m inside a 3 m world.
  const double cs = s.world.cell_size;
  constexpr double kSlack = 1 + 1e-9;
  if (t.width * cs > s.world.width * kSlack) {
    reject(ErrorCode::Value, "tiles.width",
           std::to_string(t.width) + " tiles of " + format_number(cs) + " m are wider than the world (" +
               format_number(s.world.width) + " m)");
  }
  if (t.height * cs > s.world.height * kSlack) {
    reject(ErrorCode::Value, "tiles.height",
           std::to_string(t.height) + " tiles of " + format_number(cs) + " m are taller than the world (" +
               format_number(s.world.height) + " m)");
  }
  const std::size_t cells = static_cast<std::size_t>(t.width) * static_cast<std::size_t>(t.height);
  if (t.terrain.size() != cells) {
    reject(ErrorCode::Value, "tiles",
           "expected " + std::to_string(cells) + " cells, found " + std::to_string(t.terrain.size()));
  }
  for (std::size_t i = 0; i < cells; ++i) {
    if (t.terrain[i] >= s.terrains.size()) {
      reject(ErrorCode::Value, item("tiles.rows", i / static_cast<std::size_t>(t.width)),
             "terrain index " + std::to_string(t.terrain[i]) + " at column " +
                 std::to_string(i % static_cast<std::size_t>(t.width)) + " is out of range");
    }
  }
}

void check_features(const Scenario& s) {
  const std::string where = "features";
  check_count(s.features.size(), Limits::kMaxItems, where, "features");
  check_unique_ids(s.features, where);
  for (std::size_t i = 0; i < s.features.size(); ++i) {
    const Feature& f = s.features[i];
    const std::string at = item(where, i);
    check_text(f.name, field(at, "name"));
    if (f.terrain >= s.terrains.size()) {
      reject(ErrorCode::Value, field(at, "terrain"),
             "terrain index " + std::to_string(f.terrain) + " is out of range");
    }
    const Shape& shape = f.shape;
    switch (shape.kind) {
      case ShapeKind::Polygon: {
        const std::string points_at = field(at, "points");
        check_points(shape.points, 3, s.world, points_at);
        if (const auto hit = find_self_intersection(shape.points)) {
          const std::size_t n = shape.points.size();
          auto [a, b] = *hit;
          if (a > b) std::swap(a, b);
          if (shape.points[a] == shape.points[b]) {
            reject(ErrorCode::Value, item(points_at, b),
                   "repeats " + item("points", a) + " " + format_point(shape.points[a]) +
                       "; polygons must be simple");
          }
          auto edge = [&](std::size_t e) {
            return "edge " + std::to_string(e) + " (points[" + std::to_string(e) + "] to points[" +
                   std::to_string((e + 1) % n) + "])";
          };
          reject(ErrorCode::Value, points_at,
                 "self-intersecting polygon: " + edge(a) + " and " + edge(b) + " intersect");
        }
        if (!(polygon_area(shape.points) > 0)) reject(ErrorCode::Value, points_at, "polygon has zero area");
        break;
      }
      case ShapeKind::Rect:
        check_inside(shape.min, s.world, field(at, "min"));
        check_inside(shape.max, s.world, field(at, "max"));
        if (!(shape.min.x < shape.max.x && shape.min.y < shape.max.y)) {
          reject(ErrorCode::Value, field(at, "max"),
                 "expected max > min in both x and y, found min " + format_point(shape.min) + " and max " +
                     format_point(shape.max));
        }
        break;
      case ShapeKind::Circle:
        // The centre must be in the world; the disc may extend past the edge.
        check_inside(shape.center, s.world, field(at, "center"));
        check_positive(shape.radius, field(at, "radius"));
        break;
    }
  }
}

void check_influences(const Scenario& s, const std::vector<Influence>& list, const std::string& where) {
  check_count(list.size(), Limits::kMaxItems, where, where);
  check_unique_ids(list, where);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Influence& z = list[i];
    const std::string at = item(where, i);
    check_inside(z.center, s.world, field(at, "center"));
    check_positive(z.radius, field(at, "radius"));
    if (!(std::isfinite(z.strength) && z.strength >= 0)) {
      reject(ErrorCode::Value, field(at, "strength"),
             "expected a finite number >= 0, found " + format_number(z.strength));
    }
    check_text(z.faction, field(at, "faction"));
    if (!z.faction.empty()) check_faction_ref(s, z.faction, field(at, "faction"));
  }
}

void check_roads(const Scenario& s) {
  const std::string where = "roads";
  check_count(s.roads.size(), Limits::kMaxItems, where, "roads");
  check_unique_ids(s.roads, where);
  for (std::size_t i = 0; i < s.roads.size(); ++i) {
    const Road& r = s.roads[i];
    const std::string at = item(where, i);
    check_points(r.points, 2, s.world, field(at, "points"));
    check_positive(r.width, field(at, "width"));
    if (!(std::isfinite(r.speed_factor) && r.speed_factor >= 1)) {
      reject(ErrorCode::Value, field(at, "speed_factor"),
             "expected a finite number >= 1, found " + format_number(r.speed_factor));
    }
  }
}

void check_bridges(const Scenario& s) {
  const std::string where = "bridges";
  check_count(s.bridges.size(), Limits::kMaxItems, where, "bridges");
  check_unique_ids(s.bridges, where);
  for (std::size_t i = 0; i < s.bridges.size(); ++i) {
    const Bridge& b = s.bridges[i];
    const std::string at = item(where, i);
    check_inside(b.a, s.world, field(at, "a"));
    check_inside(b.b, s.world, field(at, "b"));
    if (b.a == b.b) reject(ErrorCode::Value, field(at, "b"), "bridge ends coincide at " + format_point(b.a));
    check_positive(b.width, field(at, "width"));
  }
}

void check_factions(const Scenario& s) {
  check_count(s.factions.size(), Limits::kMaxItems, "factions", "factions");
  check_unique_names(s.factions, "factions");
}

void check_units(const Scenario& s) {
  const std::string where = "units";
  check_count(s.units.size(), Limits::kMaxItems, where, "units");
  check_unique_ids(s.units, where);
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    const std::string at = item(where, i);
    check_name(u.faction, field(at, "faction"));
    check_faction_ref(s, u.faction, field(at, "faction"));
    check_class_index(s, u.movement_class, field(at, "class"));
    check_inside(u.position, s.world, field(at, "position"));
    check_finite(u.heading, field(at, "heading"));
  }
}

std::vector<std::string> planner_names() {
  std::vector<std::string> names;
  for (const PlannerInfo& p : planner_registry()) names.push_back(p.name);
  return names;
}

void check_queries(const Scenario& s) {
  const std::string where = "queries";
  check_count(s.queries.size(), Limits::kMaxItems, where, "queries");
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    const Query& q = s.queries[i];
    const std::string at = item(where, i);
    check_text(q.name, field(at, "name"));
    check_inside(q.start, s.world, field(at, "start"));
    check_inside(q.goal, s.world, field(at, "goal"));
    check_class_index(s, q.movement_class, field(at, "class"));
    const PlannerInfo* planner = find_planner(q.planner);
    if (planner == nullptr) {
      reject(ErrorCode::Value, field(at, "planner"),
             "unknown planner " + quote_text(q.planner) + " (known: " + join(planner_names(), true) + ")");
    }
    for (std::size_t k = 0; k < q.params.size(); ++k) {
      const std::string param_at = field(field(at, "params"), q.params[k].name);
      if (k > 0 && !(q.params[k - 1].name < q.params[k].name)) {
        reject(ErrorCode::Value, param_at, "parameters must be unique and sorted by name");
      }
      check_finite(q.params[k].value, param_at);
    }
    if (auto resolved = resolve_params(*planner, q.params, at); !resolved) throw Rejected{resolved.error()};
    if (q.expected_length && !(std::isfinite(*q.expected_length) && *q.expected_length >= 0)) {
      reject(ErrorCode::Value, field(at, "expected_length"),
             "expected a finite number >= 0, found " + format_number(*q.expected_length));
    }
  }
}

void check_viewer(const Scenario& s) {
  const ViewerHints& v = s.viewer;
  if (v.center && !(std::isfinite(v.center->x) && std::isfinite(v.center->y))) {
    reject(ErrorCode::Value, "viewer.center",
           "expected finite [x, y] numbers, found " + format_point(*v.center));
  }
  if (v.zoom) check_positive(*v.zoom, "viewer.zoom");
  check_count(v.layers.size(), Limits::kMaxItems, "viewer.layers", "layers");
  for (std::size_t i = 0; i < v.layers.size(); ++i) check_name(v.layers[i], item("viewer.layers", i));
}

// Every check, in file order, except that factions are checked before the threats and
// allies that name them: a bad definition is the clearer message.
void check_scenario(const Scenario& s) {
  check_text(s.name, "name");
  check_text(s.description, "description");
  check_world(s);
  check_classes(s);
  check_terrains(s);
  check_tiles(s);
  check_features(s);
  check_factions(s);
  check_influences(s, s.threats, "threats");
  check_influences(s, s.allies, "allies");
  check_roads(s);
  check_bridges(s);
  check_units(s);
  check_queries(s);
  check_viewer(s);
}

// ---------------------------------------------------------------------------------------
// [SECTION] Reading
// ---------------------------------------------------------------------------------------

// A JSON object with a fixed set of known fields; unknown fields are rejected.
class ObjectReader {
 public:
  ObjectReader(const Json& j, std::string path, std::vector<std::string_view> known)
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

std::vector<Vec2> read_points(const Json& j, const std::string& where) {
  const Json::array_t& arr = read_array(j, where, Limits::kMaxPolygonPoints);
  std::vector<Vec2> points;
  points.reserve(arr.size());
  for (std::size_t i = 0; i < arr.size(); ++i) points.push_back(read_vec2(arr[i], item(where, i)));
  return points;
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

template <typename T>
T read_or(const ObjectReader& obj, std::string_view key, T fallback,
          T (*read)(const Json&, const std::string&)) {
  const Json* v = obj.find(key);
  return v == nullptr ? fallback : read(*v, obj.at(key));
}

std::vector<std::string> class_names(const Scenario& s) {
  std::vector<std::string> names;
  for (const MovementClass& c : s.classes) names.push_back(c.name);
  return names;
}

std::vector<std::string> terrain_names(const Scenario& s) {
  std::vector<std::string> names;
  for (const TerrainType& t : s.terrains) names.push_back(t.name);
  return names;
}

std::size_t read_class_ref(const Scenario& s, const Json& j, const std::string& where) {
  const std::string name = read_string(j, where);
  if (const auto index = s.find_class(name)) return *index;
  reject(ErrorCode::Value, where,
         "unknown movement class " + quote_text(name) + " (known: " + join(class_names(s), true) + ")");
}

std::size_t read_terrain_ref(const Scenario& s, const Json& j, const std::string& where) {
  const std::string name = read_string(j, where);
  if (const auto index = s.find_terrain(name)) return *index;
  reject(ErrorCode::Value, where,
         "unknown terrain " + quote_text(name) + " (known: " + join(terrain_names(s), true) + ")");
}

void read_world(const Json& j, Scenario& s) {
  const ObjectReader obj(j, "world", {"width", "height", "cell_size"});
  s.world.width = read_number(obj.need("width"), obj.at("width"));
  s.world.height = read_number(obj.need("height"), obj.at("height"));
  s.world.cell_size = read_or(obj, "cell_size", 1.0, read_number);
}

void read_classes(const Json& j, Scenario& s) {
  const std::string where = "movement_classes";
  const Json::array_t& arr = read_array(j, where, Limits::kMaxMovementClasses);
  s.classes.clear();
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item(where, i), {"name", "radius", "speed", "amphibious"});
    MovementClass c;
    c.name = read_string(obj.need("name"), obj.at("name"));
    c.radius = read_number(obj.need("radius"), obj.at("radius"));
    c.speed = read_number(obj.need("speed"), obj.at("speed"));
    c.amphibious = read_or(obj, "amphibious", false, read_bool);
    s.classes.push_back(std::move(c));
  }
}

void read_terrains(const Json& j, Scenario& s) {
  const std::string where = "terrain_types";
  const Json::array_t& arr = read_array(j, where, Limits::kMaxTerrainTypes);
  std::vector<std::string_view> cost_keys;
  for (const MovementClass& c : s.classes) cost_keys.push_back(c.name);
  s.terrains.clear();
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item(where, i), {"name", "symbol", "color", "group", "cost"});
    TerrainType t;
    t.name = read_string(obj.need("name"), obj.at("name"));
    const std::string symbol = read_string(obj.need("symbol"), obj.at("symbol"));
    if (symbol.size() != 1) {
      reject(ErrorCode::Value, obj.at("symbol"),
             "expected a one-character string, found " + quote_text(symbol));
    }
    t.symbol = symbol[0];
    t.color = read_color(obj.need("color"), obj.at("color"));
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
    s.terrains.push_back(std::move(t));
  }
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
    case ShapeKind::Polygon: shape.points = read_points(obj.need("points"), obj.at("points")); break;
    case ShapeKind::Rect:
      shape.min = read_vec2(obj.need("min"), obj.at("min"));
      shape.max = read_vec2(obj.need("max"), obj.at("max"));
      break;
    case ShapeKind::Circle:
      shape.center = read_vec2(obj.need("center"), obj.at("center"));
      shape.radius = read_number(obj.need("radius"), obj.at("radius"));
      break;
  }
  return shape;
}

void read_features(const Json& j, Scenario& s) {
  const std::string where = "features";
  const Json::array_t& arr = read_array(j, where, Limits::kMaxItems);
  s.features.reserve(arr.size());
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string at = item(where, i);
    if (!arr[i].is_object()) reject(ErrorCode::Schema, at, "expected an object, found " + describe(arr[i]));
    const auto shape_it = arr[i].find("shape");
    if (shape_it == arr[i].end()) reject(ErrorCode::Schema, at, "missing required field \"shape\"");
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
    const ObjectReader obj(arr[i], at, known);
    Feature f;
    f.id = read_id(obj);
    f.name = read_or(obj, "name", std::string(), read_string);
    f.terrain = read_terrain_ref(s, obj.need("terrain"), obj.at("terrain"));
    f.shape = read_shape(obj, kind);
    s.features.push_back(std::move(f));
  }
}

std::vector<Influence> read_influences(const Json& j, const std::string& where) {
  const Json::array_t& arr = read_array(j, where, Limits::kMaxItems);
  std::vector<Influence> out;
  out.reserve(arr.size());
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item(where, i), {"id", "center", "radius", "strength", "faction"});
    Influence z;
    z.id = read_id(obj);
    z.center = read_vec2(obj.need("center"), obj.at("center"));
    z.radius = read_number(obj.need("radius"), obj.at("radius"));
    z.strength = read_or(obj, "strength", 1.0, read_number);
    z.faction = read_or(obj, "faction", std::string(), read_string);
    out.push_back(std::move(z));
  }
  return out;
}

void read_roads(const Json& j, Scenario& s) {
  const Json::array_t& arr = read_array(j, "roads", Limits::kMaxItems);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item("roads", i), {"id", "points", "width", "speed_factor"});
    Road r;
    r.id = read_id(obj);
    r.points = read_points(obj.need("points"), obj.at("points"));
    r.width = read_or(obj, "width", 4.0, read_number);
    r.speed_factor = read_or(obj, "speed_factor", 1.5, read_number);
    s.roads.push_back(std::move(r));
  }
}

void read_bridges(const Json& j, Scenario& s) {
  const Json::array_t& arr = read_array(j, "bridges", Limits::kMaxItems);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item("bridges", i), {"id", "a", "b", "width", "intact"});
    Bridge b;
    b.id = read_id(obj);
    b.a = read_vec2(obj.need("a"), obj.at("a"));
    b.b = read_vec2(obj.need("b"), obj.at("b"));
    b.width = read_or(obj, "width", 6.0, read_number);
    b.intact = read_or(obj, "intact", true, read_bool);
    s.bridges.push_back(b);
  }
}

void read_factions(const Json& j, Scenario& s) {
  const Json::array_t& arr = read_array(j, "factions", Limits::kMaxItems);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item("factions", i), {"name", "color"});
    Faction f;
    f.name = read_string(obj.need("name"), obj.at("name"));
    f.color = read_color(obj.need("color"), obj.at("color"));
    s.factions.push_back(std::move(f));
  }
}

void read_units(const Json& j, Scenario& s) {
  const Json::array_t& arr = read_array(j, "units", Limits::kMaxItems);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item("units", i), {"id", "faction", "class", "position", "heading"});
    Unit u;
    u.id = read_id(obj);
    u.faction = read_string(obj.need("faction"), obj.at("faction"));
    u.movement_class = read_class_ref(s, obj.need("class"), obj.at("class"));
    u.position = read_vec2(obj.need("position"), obj.at("position"));
    u.heading = read_or(obj, "heading", 0.0, read_number);
    s.units.push_back(std::move(u));
  }
}

void read_queries(const Json& j, Scenario& s) {
  const Json::array_t& arr = read_array(j, "queries", Limits::kMaxItems);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const ObjectReader obj(arr[i], item("queries", i),
                           {"name", "start", "goal", "class", "planner", "params", "expected_length"});
    Query q;
    q.name = read_or(obj, "name", std::string(), read_string);
    q.start = read_vec2(obj.need("start"), obj.at("start"));
    q.goal = read_vec2(obj.need("goal"), obj.at("goal"));
    q.movement_class = read_class_ref(s, obj.need("class"), obj.at("class"));
    q.planner = read_or(obj, "planner", std::string("astar"), read_string);
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
    s.queries.push_back(std::move(q));
  }
}

void read_viewer(const Json& j, Scenario& s) {
  const ObjectReader obj(j, "viewer", {"center", "zoom", "layers"});
  if (const Json* v = obj.find("center")) s.viewer.center = read_vec2(*v, obj.at("center"));
  if (const Json* v = obj.find("zoom")) s.viewer.zoom = read_number(*v, obj.at("zoom"));
  if (const Json* v = obj.find("layers")) {
    const Json::array_t& arr = read_array(*v, obj.at("layers"), Limits::kMaxItems);
    for (std::size_t i = 0; i < arr.size(); ++i)
      s.viewer.layers.push_back(read_string(arr[i], item(obj.at("layers"), i)));
  }
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
  if (version < 1) reject(ErrorCode::Value, "version", "expected version 1, found 0");

  const ObjectReader top(root, "",
                         {"format", "version", "name", "description", "world", "seed", "movement_classes",
                          "terrain_types", "tiles", "features", "threats", "allies", "roads", "bridges",
                          "factions", "units", "queries", "viewer"});
  Scenario s;
  s.name = read_or(top, "name", std::string(), read_string);
  s.description = read_or(top, "description", std::string(), read_string);
  read_world(top.need("world"), s);
  check_world(s);
  if (const Json* v = top.find("seed"))
    s.seed = read_unsigned(*v, "seed", std::numeric_limits<std::uint64_t>::max());
  if (const Json* v = top.find("movement_classes")) {
    read_classes(*v, s);
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
  if (const Json* v = top.find("features")) read_features(*v, s);
  if (const Json* v = top.find("threats")) s.threats = read_influences(*v, "threats");
  if (const Json* v = top.find("allies")) s.allies = read_influences(*v, "allies");
  if (const Json* v = top.find("roads")) read_roads(*v, s);
  if (const Json* v = top.find("bridges")) read_bridges(*v, s);
  if (const Json* v = top.find("factions")) read_factions(*v, s);
  if (const Json* v = top.find("units")) read_units(*v, s);
  if (const Json* v = top.find("queries")) read_queries(*v, s);
  if (const Json* v = top.find("viewer")) read_viewer(*v, s);
  return s;
}

// ---------------------------------------------------------------------------------------
// [SECTION] Writing
// ---------------------------------------------------------------------------------------

bool is_number_list(const OrderedJson& j) {
  return j.is_array() && std::all_of(j.begin(), j.end(), [](const OrderedJson& e) { return e.is_number(); });
}

// Arrays of numbers and arrays of such arrays ([x, y], point lists) stay on one line.
bool is_inline_array(const OrderedJson& j) {
  return is_number_list(j) ||
         std::all_of(j.begin(), j.end(), [](const OrderedJson& e) { return is_number_list(e); });
}

void emit(const OrderedJson& j, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent) + 2, ' ');
  switch (j.type()) {
    case OrderedJson::value_t::object: {
      if (j.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      std::size_t k = 0;
      for (const auto& [key, value] : j.items()) {
        out += pad + quote<OrderedJson>(key) + ": ";
        emit(value, indent + 2, out);
        out += ++k < j.size() ? ",\n" : "\n";
      }
      out += std::string(static_cast<std::size_t>(indent), ' ') + "}";
      return;
    }
    case OrderedJson::value_t::array: {
      if (j.empty()) {
        out += "[]";
        return;
      }
      if (is_inline_array(j)) {
        out += "[";
        for (std::size_t k = 0; k < j.size(); ++k) {
          if (k > 0) out += ", ";
          emit(j[k], indent, out);
        }
        out += "]";
        return;
      }
      out += "[\n";
      for (std::size_t k = 0; k < j.size(); ++k) {
        out += pad;
        emit(j[k], indent + 2, out);
        out += k + 1 < j.size() ? ",\n" : "\n";
      }
      out += std::string(static_cast<std::size_t>(indent), ' ') + "]";
      return;
    }
    case OrderedJson::value_t::number_float: {
      const double v = j.get<double>();
      out += std::isfinite(v) ? format_number(v) : "null";
      return;
    }
    case OrderedJson::value_t::string: out += quote<OrderedJson>(j.get<std::string>()); return;
    default:
      out += j.dump();  // integers, booleans, null
      return;
  }
}

OrderedJson number(double v) { return OrderedJson(v); }

OrderedJson vec2(Vec2 p) { return OrderedJson::array({number(p.x), number(p.y)}); }

OrderedJson point_list(const std::vector<Vec2>& points) {
  OrderedJson out = OrderedJson::array();
  for (Vec2 p : points) out.push_back(vec2(p));
  return out;
}

std::string color_text(Color c) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "#";
  const std::array<std::uint8_t, 4> channels = {c.r, c.g, c.b, c.a};
  for (std::size_t i = 0; i < (c.a == 255 ? 3u : 4u); ++i) {
    out += kHex[channels[i] >> 4];
    out += kHex[channels[i] & 15];
  }
  return out;
}

std::string class_name(const Scenario& s, std::size_t index) {
  return index < s.classes.size() ? s.classes[index].name : std::string();
}

std::string encode_row(const Scenario& s, const std::uint8_t* cells, std::size_t width) {
  std::string out;
  for (std::size_t i = 0; i < width;) {
    std::size_t run = 1;
    while (i + run < width && cells[i + run] == cells[i]) ++run;
    if (run >= 2) out += std::to_string(run);
    out += cells[i] < s.terrains.size() ? s.terrains[cells[i]].symbol : '?';
    i += run;
  }
  return out;
}

OrderedJson influences_json(const std::vector<Influence>& list) {
  OrderedJson out = OrderedJson::array();
  for (const Influence& z : list) {
    OrderedJson o;
    o["id"] = z.id;
    o["center"] = vec2(z.center);
    o["radius"] = number(z.radius);
    o["strength"] = number(z.strength);
    if (!z.faction.empty()) o["faction"] = z.faction;
    out.push_back(std::move(o));
  }
  return out;
}

OrderedJson scenario_json(const Scenario& s) {
  OrderedJson root;
  root["format"] = std::string(kScenarioFormatName);
  root["version"] = kScenarioFormatVersion;
  root["name"] = s.name;
  root["description"] = s.description;
  root["world"] = {{"width", number(s.world.width)},
                   {"height", number(s.world.height)},
                   {"cell_size", number(s.world.cell_size)}};
  root["seed"] = s.seed;

  OrderedJson& classes = root["movement_classes"] = OrderedJson::array();
  for (const MovementClass& c : s.classes) {
    classes.push_back({{"name", c.name},
                       {"radius", number(c.radius)},
                       {"speed", number(c.speed)},
                       {"amphibious", c.amphibious}});
  }
  OrderedJson& terrains = root["terrain_types"] = OrderedJson::array();
  for (const TerrainType& t : s.terrains) {
    OrderedJson o;
    o["name"] = t.name;
    o["symbol"] = std::string(1, t.symbol);
    o["color"] = color_text(t.color);
    o["group"] = t.group;
    OrderedJson& cost = o["cost"] = OrderedJson::object();
    for (std::size_t c = 0; c < t.cost.size(); ++c) {
      cost[class_name(s, c)] = t.cost[c] ? number(*t.cost[c]) : OrderedJson("impassable");
    }
    terrains.push_back(std::move(o));
  }
  if (s.tiles) {
    const TileGrid& g = *s.tiles;
    OrderedJson rows = OrderedJson::array();
    const auto width = static_cast<std::size_t>(std::max(g.width, 0));
    for (std::size_t r = 0;
         width > 0 && (r + 1) * width <= g.terrain.size() && r < static_cast<std::size_t>(g.height); ++r) {
      rows.push_back(encode_row(s, g.terrain.data() + r * width, width));
    }
    root["tiles"] = {{"width", g.width}, {"height", g.height}, {"rows", std::move(rows)}};
  }
  if (!s.features.empty()) {
    OrderedJson& features = root["features"] = OrderedJson::array();
    for (const Feature& f : s.features) {
      OrderedJson o;
      o["id"] = f.id;
      if (!f.name.empty()) o["name"] = f.name;
      o["terrain"] = f.terrain < s.terrains.size() ? s.terrains[f.terrain].name : std::string();
      switch (f.shape.kind) {
        case ShapeKind::Polygon:
          o["shape"] = "polygon";
          o["points"] = point_list(f.shape.points);
          break;
        case ShapeKind::Rect:
          o["shape"] = "rect";
          o["min"] = vec2(f.shape.min);
          o["max"] = vec2(f.shape.max);
          break;
        case ShapeKind::Circle:
          o["shape"] = "circle";
          o["center"] = vec2(f.shape.center);
          o["radius"] = number(f.shape.radius);
          break;
      }
      features.push_back(std::move(o));
    }
  }
  if (!s.threats.empty()) root["threats"] = influences_json(s.threats);
  if (!s.allies.empty()) root["allies"] = influences_json(s.allies);
  if (!s.roads.empty()) {
    OrderedJson& roads = root["roads"] = OrderedJson::array();
    for (const Road& r : s.roads) {
      roads.push_back({{"id", r.id},
                       {"points", point_list(r.points)},
                       {"width", number(r.width)},
                       {"speed_factor", number(r.speed_factor)}});
    }
  }
  if (!s.bridges.empty()) {
    OrderedJson& bridges = root["bridges"] = OrderedJson::array();
    for (const Bridge& b : s.bridges) {
      bridges.push_back({{"id", b.id},
                         {"a", vec2(b.a)},
                         {"b", vec2(b.b)},
                         {"width", number(b.width)},
                         {"intact", b.intact}});
    }
  }
  if (!s.factions.empty()) {
    OrderedJson& factions = root["factions"] = OrderedJson::array();
    for (const Faction& f : s.factions)
      factions.push_back({{"name", f.name}, {"color", color_text(f.color)}});
  }
  if (!s.units.empty()) {
    OrderedJson& units = root["units"] = OrderedJson::array();
    for (const Unit& u : s.units) {
      units.push_back({{"id", u.id},
                       {"faction", u.faction},
                       {"class", class_name(s, u.movement_class)},
                       {"position", vec2(u.position)},
                       {"heading", number(u.heading)}});
    }
  }
  if (!s.queries.empty()) {
    OrderedJson& queries = root["queries"] = OrderedJson::array();
    for (const Query& q : s.queries) {
      OrderedJson o;
      if (!q.name.empty()) o["name"] = q.name;
      o["start"] = vec2(q.start);
      o["goal"] = vec2(q.goal);
      o["class"] = class_name(s, q.movement_class);
      o["planner"] = q.planner;
      if (!q.params.empty()) {
        OrderedJson& params = o["params"] = OrderedJson::object();
        for (const PlannerParam& p : q.params) params[p.name] = number(p.value);
      }
      if (q.expected_length) o["expected_length"] = number(*q.expected_length);
      queries.push_back(std::move(o));
    }
  }
  const ViewerHints& v = s.viewer;
  if (v.center || v.zoom || !v.layers.empty()) {
    OrderedJson o = OrderedJson::object();
    if (v.center) o["center"] = vec2(*v.center);
    if (v.zoom) o["zoom"] = number(*v.zoom);
    if (!v.layers.empty()) o["layers"] = v.layers;
    root["viewer"] = std::move(o);
  }
  return root;
}

}  // namespace

Status validate_scenario(const Scenario& scenario) {
  try {
    check_scenario(scenario);
  } catch (const Rejected& r) {
    return r.error;
  }
  return Ok{};
}

Result<Scenario> parse_scenario(std::string_view json_text, const std::string& source_name) {
  try {
    DomBuilder builder(json_text, source_name);
    const bool parsed = Json::sax_parse(json_text.begin(), json_text.end(), &builder);
    if (!parsed || builder.failure()) {
      if (builder.failure()) return *builder.failure();
      return make_error(ErrorCode::Parse, source_name, "malformed JSON");
    }
    Scenario s = read_scenario(builder.root());
    check_scenario(s);
    return s;
  } catch (const Rejected& r) {
    Error e = r.error;
    e.where = locate(source_name, e.where);
    return e;
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::Limit, source_name, "out of memory while reading the scenario");
  }
}

std::string scenario_to_json(const Scenario& scenario) {
  std::string out;
  emit(scenario_json(scenario), 0, out);
  out += "\n";
  return out;
}

// ---------------------------------------------------------------------------------------
// [SECTION] Files
// ---------------------------------------------------------------------------------------

Result<Scenario> load_scenario(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string where = path.string();
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    return make_error(ErrorCode::Io, where, "cannot read the file: it does not exist");
  if (fs::is_directory(status))
    return make_error(ErrorCode::Io, where, "cannot read the file: it is a directory");
  if (const std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxScenarioFileBytes) {
    return make_error(ErrorCode::Limit, where,
                      "the file is " + std::to_string(size) + " bytes; the limit is " +
                          std::to_string(kMaxScenarioFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::Io, where, "cannot open the file for reading");
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::Limit, where, "out of memory while reading the file");
  }
  if (in.bad()) return make_error(ErrorCode::Io, where, "read error");
  return parse_scenario(text, where);
}

Status save_scenario(const Scenario& scenario, const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  if (Status valid = validate_scenario(scenario); !valid) return valid;
  const std::string where = path.string();
  const std::string text = scenario_to_json(scenario);
  // The temporary lives next to the target so that the rename stays on one file system
  // and replaces the target in one step.
  fs::path temp = path;
  temp += ".saving.tmp";
  auto fail = [&](const std::string& message) -> Status {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return make_error(ErrorCode::Io, where, message);
  };
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return make_error(ErrorCode::Io, where, "cannot create the temporary file " + temp.string());
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) {
      out.close();
      return fail("cannot write the temporary file " + temp.string());
    }
    out.close();
    if (out.fail()) return fail("cannot close the temporary file " + temp.string());
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) return fail("cannot replace the file: " + ec.message());
  return Ok{};
}

}  // namespace pathscope

#include "planner/scenario/scenario_json_read.hpp"

// Reading scenario JSON: text -> DOM (scenario_json_dom) -> Scenario. The format is
// specified field by field in docs/formats.md.
//
// [SECTION] Field readers (types, unknown fields, names -> indices)
// [SECTION] Sections (DOM -> Scenario)
// [SECTION] Entry point
//
// Reading stops at the first problem: every reader returns a Result (or a Status) and
// its caller returns the error on. Values are read only after their type is checked,
// so nlohmann::json never throws here (the DOM parser, scenario_json_dom, does not either).

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

// A reader of one JSON value: the value, or the first problem with it.
template <typename T>
using ValueReader = Result<T> (*)(const Json&, const std::string&);

// The T of a Result<T>.
template <typename R>
struct ResultValue;
template <typename T>
struct ResultValue<Result<T>> {
  using type = T;
};

// A JSON object with a fixed set of known fields; unknown fields are rejected.
class ObjectReader {
 public:
  /// The object at `path`, or the first unknown field (or the value not being an object).
  static Result<ObjectReader> open(const Json& j, std::string path,
                                   const std::vector<std::string_view>& known) {
    if (!j.is_object())
      return make_error(ErrorCode::Schema, path, "expected an object, found " + describe(j));
    for (const auto& [key, value] : j.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string list;
        for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        return make_error(ErrorCode::Schema, field(path, key),
                          "unknown field " + quote_text(key) + " (known: " + list + ")");
      }
    }
    return ObjectReader(j, std::move(path));
  }

  /// The field, or nullptr when absent.
  const Json* find(std::string_view key) const {
    const auto it = j_.find(std::string(key));
    return it == j_.end() ? nullptr : &*it;
  }

  /// The field; an error when absent.
  Result<const Json*> need(std::string_view key) const {
    const Json* v = find(key);
    if (v == nullptr)
      return make_error(ErrorCode::Schema, path_, "missing required field " + quote_text(std::string(key)));
    return v;
  }

  std::string at(std::string_view key) const { return field(path_, key); }
  const std::string& path() const { return path_; }

 private:
  ObjectReader(const Json& j, std::string path) : j_(j), path_(std::move(path)) {}

  const Json& j_;
  std::string path_;
};

// Reads the fields of one object in order. After the first problem the later reads do
// nothing and status() holds it: a chain of reads stops where the first error is, as
// a sequence of early returns would.
class Fields {
 public:
  explicit Fields(const ObjectReader& obj) : obj_(obj) {}

  /// The required field `key`, read with `read` into `out`.
  template <typename T, typename U>
  Fields& need(std::string_view key, ValueReader<T> read, U& out) {
    if (!status_) return *this;
    const Result<const Json*> v = obj_.need(key);
    if (!v) return fail(v.error());
    return take(read(**v, obj_.at(key)), out);
  }

  /// The optional field `key`, read with `read` into `out`, or `fallback` when absent.
  template <typename T, typename U>
  Fields& or_default(std::string_view key, T fallback, ValueReader<T> read, U& out) {
    if (!status_) return *this;
    const Json* v = obj_.find(key);
    if (v == nullptr) {
      out = std::move(fallback);
      return *this;
    }
    return take(read(*v, obj_.at(key)), out);
  }

  /// The optional field `key`, read with `read` into `out`, which is left as it is when
  /// the field is absent.
  template <typename T, typename U>
  Fields& optional(std::string_view key, ValueReader<T> read, U& out) {
    if (!status_) return *this;
    const Json* v = obj_.find(key);
    if (v == nullptr) return *this;
    return take(read(*v, obj_.at(key)), out);
  }

  /// Runs `step` (returning a Status) unless a read before it failed.
  template <typename Step>
  Fields& then(Step step) {
    if (status_) status_ = step();
    return *this;
  }

  const Status& status() const { return status_; }

 private:
  template <typename T, typename U>
  Fields& take(Result<T> r, U& out) {
    if (!r) return fail(r.error());
    out = std::move(r).value();
    return *this;
  }
  Fields& fail(Error e) {
    status_ = std::move(e);
    return *this;
  }

  const ObjectReader& obj_;
  Status status_ = Ok{};
};

Result<double> read_number(const Json& j, const std::string& where) {
  if (!j.is_number()) return make_error(ErrorCode::Schema, where, "expected a number, found " + describe(j));
  const double v = j.get<double>();
  if (!std::isfinite(v)) return make_error(ErrorCode::Value, where, "expected a finite number");
  return v;
}

Result<std::uint64_t> read_unsigned(const Json& j, const std::string& where, std::uint64_t max) {
  if (!j.is_number_integer())
    return make_error(ErrorCode::Schema, where, "expected an integer, found " + describe(j));
  if (!j.is_number_unsigned())
    return make_error(ErrorCode::Value, where, "expected an integer >= 0, found " + describe(j));
  const auto v = j.get<std::uint64_t>();
  if (v > max) {
    return make_error(ErrorCode::Value, where,
                      std::to_string(v) + " is out of range (largest: " + std::to_string(max) + ")");
  }
  return v;
}

// An unsigned 32-bit integer (ids, unit ids).
Result<std::uint32_t> read_u32(const Json& j, const std::string& where) {
  const Result<std::uint64_t> v = read_unsigned(j, where, std::numeric_limits<std::uint32_t>::max());
  if (!v) return v.error();
  return static_cast<std::uint32_t>(*v);
}

// An unsigned 64-bit integer (the seed).
Result<std::uint64_t> read_u64(const Json& j, const std::string& where) {
  return read_unsigned(j, where, std::numeric_limits<std::uint64_t>::max());
}

// A signed integer that fits an int (the validator checks the field's own range).
Result<int> read_int(const Json& j, const std::string& where) {
  if (!j.is_number_integer())
    return make_error(ErrorCode::Schema, where, "expected an integer, found " + describe(j));
  const bool fits = j.is_number_unsigned()
                        ? j.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max())
                        : j.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                              j.get<std::int64_t>() <= std::numeric_limits<int>::max();
  if (!fits) return make_error(ErrorCode::Value, where, j.dump() + " is out of range for an integer");
  return static_cast<int>(j.get<std::int64_t>());
}

Result<std::string> read_string(const Json& j, const std::string& where) {
  if (!j.is_string()) return make_error(ErrorCode::Schema, where, "expected a string, found " + describe(j));
  return j.get<std::string>();
}

Result<bool> read_bool(const Json& j, const std::string& where) {
  if (!j.is_boolean())
    return make_error(ErrorCode::Schema, where, "expected true or false, found " + describe(j));
  return j.get<bool>();
}

Result<Vec2> read_vec2(const Json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number() || !j[1].is_number()) {
    // A DOM's strings are valid UTF-8 (the parser checks), so dump() cannot fail on them;
    // replacing bad bytes keeps that so for arrays made by code too.
    return make_error(
        ErrorCode::Schema, where,
        "expected [x, y] numbers, found " +
            (j.is_array() ? j.dump(-1, ' ', false, Json::error_handler_t::replace) : describe(j)));
  }
  const Result<double> x = read_number(j[0], item(where, 0));
  if (!x) return x.error();
  const Result<double> y = read_number(j[1], item(where, 1));
  if (!y) return y.error();
  return Vec2{*x, *y};
}

Result<const Json::array_t*> read_array(const Json& j, const std::string& where, std::size_t limit) {
  if (!j.is_array()) return make_error(ErrorCode::Schema, where, "expected an array, found " + describe(j));
  if (Status counted = check_count(j.size(), limit, where, "entries"); !counted) return counted.error();
  return &j.get_ref<const Json::array_t&>();
}

// An array of at most `limit` entries, each read by read_one(entry, "where[i]") (which
// returns a Result); the first problem stops the reading.
template <typename ReadOne>
auto read_list(const Json& j, const std::string& where, std::size_t limit, ReadOne read_one)
    -> Result<std::vector<typename ResultValue<decltype(read_one(j, where))>::type>> {
  using T = typename ResultValue<decltype(read_one(j, where))>::type;
  const Result<const Json::array_t*> arr = read_array(j, where, limit);
  if (!arr) return arr.error();
  std::vector<T> out;
  out.reserve((*arr)->size());
  for (std::size_t i = 0; i < (*arr)->size(); ++i) {
    Result<T> one = read_one((**arr)[i], item(where, i));
    if (!one) return one.error();
    out.push_back(std::move(one).value());
  }
  return out;
}

Result<std::vector<Vec2>> read_points(const Json& j, const std::string& where) {
  return read_list(j, where, Limits::kMaxPolygonPoints, read_vec2);
}

Result<Color> read_color(const Json& j, const std::string& where) {
  const Result<std::string> read = read_string(j, where);
  if (!read) return read.error();
  const std::string& text = *read;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  const bool shape_ok = (text.size() == 7 || text.size() == 9) && text[0] == '#' &&
                        std::all_of(text.begin() + 1, text.end(), [&](char c) { return hex(c) >= 0; });
  if (!shape_ok)
    return make_error(ErrorCode::Value, where,
                      "expected a colour \"#rrggbb\" or \"#rrggbbaa\", found " + quote_text(text));
  auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(hex(text[i]) * 16 + hex(text[i + 1])); };
  Color c{byte(1), byte(3), byte(5), 255};
  if (text.size() == 9) c.a = byte(7);
  return c;
}

// One of `names` (JSON spellings of an enum's values, in the enum's order); its index.
Result<std::size_t> read_choice(const Json& j, const std::string& where,
                                const std::vector<std::string_view>& names) {
  const Result<std::string> text = read_string(j, where);
  if (!text) return text.error();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == *text) return i;
  }
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + quote_text(std::string(names[i]));
  }
  return make_error(ErrorCode::Value, where, "expected " + list + ", found " + quote_text(*text));
}

// An enum read as one of `names` (read_choice) into `out`.
template <typename Enum>
Status read_enum(const Json& j, const std::string& where, const std::vector<std::string_view>& names,
                 Enum& out) {
  const Result<std::size_t> index = read_choice(j, where, names);
  if (!index) return index.error();
  out = static_cast<Enum>(*index);
  return Ok{};
}

// A name that must match an entry of `items` (movement classes, terrains): its index.
template <typename T>
Result<std::size_t> read_ref(const std::vector<T>& items, std::string_view what, const ObjectReader& obj,
                             std::string_view key) {
  std::string name;
  if (Status read = Fields(obj).need(key, read_string, name).status(); !read) return read.error();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == name) return i;
  }
  return unknown_name(obj.at(key), what, name, names_of(items));
}

// ---------------------------------------------------------------------------------------
// [SECTION] Sections
// ---------------------------------------------------------------------------------------

// The object at `at` with its known fields, then `read_fields(obj)` (a Status).
template <typename ReadFields>
Status read_object(const Json& j, const std::string& at, const std::vector<std::string_view>& known,
                   ReadFields read_fields) {
  const Result<ObjectReader> obj = ObjectReader::open(j, at, known);
  if (!obj) return obj.error();
  return read_fields(*obj);
}

Status read_world(const Json& j, Scenario& s) {
  return read_object(j, "world", {"width", "height", "cell_size"}, [&](const ObjectReader& obj) {
    return Fields(obj)
        .need("width", read_number, s.world.width)
        .need("height", read_number, s.world.height)
        .or_default("cell_size", 1.0, read_number, s.world.cell_size)
        .status();
  });
}

Result<MovementClass> read_class(const Json& j, const std::string& at) {
  MovementClass c;
  const Status read = read_object(
      j, at,
      {"name", "radius", "speed", "amphibious", "acceleration", "deceleration", "turn_rate", "hard_radius",
       "soft_radius", "hard_aspect", "priority", "planner", "vehicle", "min_turn_radius", "reverse_speed"},
      [&](const ObjectReader& obj) {
        return Fields(obj)
            .need("name", read_string, c.name)
            .need("radius", read_number, c.radius)
            .need("speed", read_number, c.speed)
            .or_default("amphibious", false, read_bool, c.amphibious)
            .optional("acceleration", read_number, c.acceleration)
            .optional("deceleration", read_number, c.deceleration)
            .optional("turn_rate", read_number, c.turn_rate)
            .optional("hard_radius", read_number, c.hard_radius)
            .optional("soft_radius", read_number, c.soft_radius)
            .or_default("hard_aspect", 1.0, read_number, c.hard_aspect)
            .or_default("priority", 0, read_int, c.priority)
            .or_default("planner", std::string(kDefaultPlanner), read_string, c.planner)
            .then([&]() -> Status {
              const Json* v = obj.find("vehicle");
              if (v == nullptr) return Ok{};
              return read_enum(*v, obj.at("vehicle"), {"infantry", "tracked", "wheeled", "rotary"},
                               c.vehicle);
            })
            .optional("min_turn_radius", read_number, c.min_turn_radius)
            .optional("reverse_speed", read_number, c.reverse_speed)
            .status();
      });
  if (!read) return read.error();
  return c;
}

// One terrain's costs, one per movement class, in the classes' order.
Status read_costs(const Scenario& s, const Json& j, const std::string& at, TerrainType& t) {
  std::vector<std::string_view> cost_keys;
  for (const MovementClass& c : s.classes) cost_keys.push_back(c.name);
  return read_object(j, at, cost_keys, [&](const ObjectReader& cost) -> Status {
    for (const MovementClass& c : s.classes) {
      const Json* v = cost.find(c.name);
      if (v == nullptr)
        return make_error(ErrorCode::Schema, cost.path(),
                          "missing cost for movement class " + quote_text(c.name));
      if (v->is_string() && v->get<std::string>() == "impassable") {
        t.cost.push_back(std::nullopt);
      } else if (v->is_number()) {
        t.cost.push_back(v->get<double>());
      } else {
        return make_error(ErrorCode::Schema, cost.at(c.name),
                          "expected a number > 0 or \"impassable\", found " + describe(*v));
      }
    }
    return Ok{};
  });
}

Status read_terrains(const Json& j, Scenario& s) {
  Result<std::vector<TerrainType>> terrains =
      read_list(j, "terrain_types", Limits::kMaxTerrainTypes, [&](const Json& e, const std::string& at) {
        TerrainType t;
        const Status read =
            read_object(e, at, {"name", "symbol", "color", "group", "cost"}, [&](const ObjectReader& obj) {
              std::string symbol;
              return Fields(obj)
                  .need("name", read_string, t.name)
                  .need("symbol", read_string, symbol)
                  .then([&]() -> Status {
                    if (symbol.size() != 1) {
                      return make_error(ErrorCode::Value, obj.at("symbol"),
                                        "expected a one-character string, found " + quote_text(symbol));
                    }
                    t.symbol = symbol[0];
                    return Ok{};
                  })
                  .need("color", read_color, t.color)
                  .or_default("group", std::string(), read_string, t.group)
                  .then([&]() -> Status {
                    const Result<const Json*> cost = obj.need("cost");
                    if (!cost) return cost.error();
                    return read_costs(s, **cost, obj.at("cost"), t);
                  })
                  .status();
            });
        if (!read) return Result<TerrainType>(read.error());
        return Result<TerrainType>(std::move(t));
      });
  if (!terrains) return terrains.error();
  s.terrains = std::move(terrains).value();
  return Ok{};
}

// One row of the tile grid: runs of "[count]symbol" that fill exactly `width` cells.
Status read_tile_row(const Json& j, const std::string& at, std::size_t width,
                     const std::array<int, 256>& index_of, const std::string& known,
                     std::vector<std::uint8_t>& terrain) {
  const Result<std::string> read = read_string(j, at);
  if (!read) return read.error();
  const std::string& text = *read;
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
        return make_error(ErrorCode::Value, at,
                          "run count at character " + std::to_string(run_start) + " exceeds the row width " +
                              std::to_string(width));
      }
      ++i;
    }
    if (i == text.size()) {
      return make_error(ErrorCode::Value, at,
                        "run count at character " + std::to_string(run_start) + " has no terrain symbol");
    }
    if (has_count && count == 0) {
      return make_error(ErrorCode::Value, at,
                        "run count 0 at character " + std::to_string(run_start) + " (counts are >= 1)");
    }
    if (!has_count) count = 1;
    const int t = index_of[static_cast<unsigned char>(text[i])];
    if (t < 0) {
      return make_error(ErrorCode::Value, at,
                        "unknown terrain symbol " + describe_symbol(text[i]) + " at column " +
                            std::to_string(column) + " (character " + std::to_string(i) +
                            "); known symbols: " + known);
    }
    if (column + count > width) {
      return make_error(ErrorCode::Value, at,
                        "row is longer than tiles.width (" + std::to_string(width) +
                            " cells): the run at character " + std::to_string(run_start) +
                            " ends at column " + std::to_string(column + count));
    }
    terrain.insert(terrain.end(), count, static_cast<std::uint8_t>(t));
    column += count;
    ++i;
  }
  if (column != width) {
    return make_error(
        ErrorCode::Value, at,
        "row has " + std::to_string(column) + " cells, expected " + std::to_string(width) + " (tiles.width)");
  }
  return Ok{};
}

// A side of the tile grid (tiles.width or tiles.height): 1 to the grid side limit.
Status read_tile_side(const ObjectReader& obj, std::string_view key, int& out) {
  const Result<const Json*> v = obj.need(key);
  if (!v) return v.error();
  const Result<std::uint64_t> side = read_u64(**v, obj.at(key));
  if (!side) return side.error();
  if (*side == 0) return make_error(ErrorCode::Value, obj.at(key), "expected an integer > 0, found 0");
  if (*side > static_cast<std::uint64_t>(Limits::kMaxGridSide)) {
    return make_error(
        ErrorCode::Limit, obj.at(key),
        std::to_string(*side) + " cells exceeds the limit of " + std::to_string(Limits::kMaxGridSide));
  }
  out = static_cast<int>(*side);
  return Ok{};
}

Status read_tiles(const Json& j, Scenario& s) {
  return read_object(j, "tiles", {"width", "height", "rows"}, [&](const ObjectReader& obj) -> Status {
    TileGrid grid;
    if (Status st = read_tile_side(obj, "width", grid.width); !st) return st;
    if (Status st = read_tile_side(obj, "height", grid.height); !st) return st;
    const Result<const Json*> rows_json = obj.need("rows");
    if (!rows_json) return rows_json.error();
    const Result<const Json::array_t*> read_rows =
        read_array(**rows_json, obj.at("rows"), static_cast<std::size_t>(Limits::kMaxGridSide));
    if (!read_rows) return read_rows.error();
    const Json::array_t& rows = **read_rows;
    if (rows.size() != static_cast<std::size_t>(grid.height)) {
      return make_error(ErrorCode::Value, obj.at("rows"),
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
      const Status row =
          read_tile_row(rows[r], item(obj.at("rows"), r), width, index_of, known, grid.terrain);
      if (!row) return row;
    }
    s.tiles = std::move(grid);
    return Ok{};
  });
}

Status read_shape(const ObjectReader& obj, ShapeKind kind, Shape& shape) {
  shape.kind = kind;
  Fields fields(obj);
  switch (kind) {
    case ShapeKind::Polygon: fields.need("points", read_points, shape.points); break;
    case ShapeKind::Rect: fields.need("min", read_vec2, shape.min).need("max", read_vec2, shape.max); break;
    case ShapeKind::Circle:
      fields.need("center", read_vec2, shape.center).need("radius", read_number, shape.radius);
      break;
  }
  return fields.status();
}

Result<Feature> read_feature(const Scenario& s, const Json& j, const std::string& at) {
  if (!j.is_object()) return make_error(ErrorCode::Schema, at, "expected an object, found " + describe(j));
  const auto shape_it = j.find("shape");
  if (shape_it == j.end()) return make_error(ErrorCode::Schema, at, "missing required field \"shape\"");
  const Result<std::string> shape_name = read_string(*shape_it, field(at, "shape"));
  if (!shape_name) return shape_name.error();
  ShapeKind kind = ShapeKind::Polygon;
  std::vector<std::string_view> known = {"id", "name", "terrain", "shape"};
  if (*shape_name == "polygon") {
    known.push_back("points");
  } else if (*shape_name == "rect") {
    kind = ShapeKind::Rect;
    known.insert(known.end(), {"min", "max"});
  } else if (*shape_name == "circle") {
    kind = ShapeKind::Circle;
    known.insert(known.end(), {"center", "radius"});
  } else {
    return make_error(ErrorCode::Value, field(at, "shape"),
                      "expected \"polygon\", \"rect\" or \"circle\", found " + quote_text(*shape_name));
  }
  known.push_back("velocity");
  known.push_back("container");
  Feature f;
  const Status read = read_object(j, at, known, [&](const ObjectReader& obj) {
    return Fields(obj)
        .need("id", read_u32, f.id)
        .or_default("name", std::string(), read_string, f.name)
        .then([&]() -> Status {
          const Result<std::size_t> terrain = read_ref(s.terrains, "terrain", obj, "terrain");
          if (!terrain) return terrain.error();
          f.terrain = *terrain;
          return Ok{};
        })
        .then([&] { return read_shape(obj, kind, f.shape); })
        .or_default("velocity", Vec2{0, 0}, read_vec2, f.velocity)
        .or_default("container", false, read_bool, f.container)
        .status();
  });
  if (!read) return read.error();
  return f;
}

Result<Influence> read_influence(const Json& j, const std::string& at) {
  Influence z;
  const Status read =
      read_object(j, at, {"id", "center", "radius", "strength", "faction"}, [&](const ObjectReader& obj) {
        return Fields(obj)
            .need("id", read_u32, z.id)
            .need("center", read_vec2, z.center)
            .need("radius", read_number, z.radius)
            .or_default("strength", 1.0, read_number, z.strength)
            .or_default("faction", std::string(), read_string, z.faction)
            .status();
      });
  if (!read) return read.error();
  return z;
}

Result<Road> read_road(const Json& j, const std::string& at) {
  Road r;
  const Status read =
      read_object(j, at, {"id", "points", "width", "speed_factor"}, [&](const ObjectReader& obj) {
        return Fields(obj)
            .need("id", read_u32, r.id)
            .need("points", read_points, r.points)
            .or_default("width", 4.0, read_number, r.width)
            .or_default("speed_factor", 1.5, read_number, r.speed_factor)
            .status();
      });
  if (!read) return read.error();
  return r;
}

Result<Bridge> read_bridge(const Json& j, const std::string& at) {
  Bridge b;
  const Status read = read_object(j, at, {"id", "a", "b", "width", "intact"}, [&](const ObjectReader& obj) {
    return Fields(obj)
        .need("id", read_u32, b.id)
        .need("a", read_vec2, b.a)
        .need("b", read_vec2, b.b)
        .or_default("width", 6.0, read_number, b.width)
        .or_default("intact", true, read_bool, b.intact)
        .status();
  });
  if (!read) return read.error();
  return b;
}

// The optional list `key` of `obj`, read with read_list(read_one) into `out`.
template <typename T, typename ReadOne>
Status read_optional_list(const ObjectReader& obj, std::string_view key, std::size_t limit, ReadOne read_one,
                          std::vector<T>& out) {
  const Json* v = obj.find(key);
  if (v == nullptr) return Ok{};
  Result<std::vector<T>> list = read_list(*v, obj.at(key), limit, read_one);
  if (!list) return list.error();
  out = std::move(list).value();
  return Ok{};
}

// A faction's tile memory (optional; files before it have none: nothing seen): the tile
// grid's rows in its run encoding, a space for a tile never seen.
Status read_faction_tiles(const Scenario& s, const ObjectReader& obj, std::vector<std::uint8_t>& out) {
  const Json* v = obj.find("tiles");
  if (v == nullptr) return Ok{};
  if (!s.tiles) return make_error(ErrorCode::Value, obj.at("tiles"), "the scenario has no tile grid");
  const Result<const Json::array_t*> read_rows =
      read_array(*v, obj.at("tiles"), static_cast<std::size_t>(Limits::kMaxGridSide));
  if (!read_rows) return read_rows.error();
  const Json::array_t& rows = **read_rows;
  if (rows.size() != static_cast<std::size_t>(s.tiles->height)) {
    return make_error(ErrorCode::Value, obj.at("tiles"),
                      "expected " + std::to_string(s.tiles->height) + " rows (tiles.height), found " +
                          std::to_string(rows.size()));
  }
  std::array<int, 256> index_of{};
  index_of.fill(-1);
  std::string known = "' ' (not seen)";
  index_of[static_cast<unsigned char>(' ')] = Faction::kUnseenTile;
  for (std::size_t t = 0; t < s.terrains.size(); ++t) {
    index_of[static_cast<unsigned char>(s.terrains[t].symbol)] = static_cast<int>(t);
    known += " " + std::string(1, s.terrains[t].symbol);
  }
  const auto width = static_cast<std::size_t>(s.tiles->width);
  out.reserve(width * rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Status row = read_tile_row(rows[r], item(obj.at("tiles"), r), width, index_of, known, out);
    if (!row) return row;
  }
  return Ok{};
}

Result<Faction> read_faction(const Scenario& s, const Json& j, const std::string& at) {
  Faction f;
  const Status read = read_object(
      j, at, {"name", "color", "sight", "partial", "memory", "bridges", "tiles"},
      [&](const ObjectReader& obj) {
        return Fields(obj)
            .need("name", read_string, f.name)
            .need("color", read_color, f.color)
            .or_default("sight", 0.0, read_number, f.sight)
            .or_default("partial", false, read_bool, f.partial)
            .then([&] {
              return read_optional_list(
                  obj, "memory", Limits::kMaxItems,
                  [&s](const Json& e, const std::string& where) { return read_feature(s, e, where); },
                  f.memory);
            })
            .then(
                [&] { return read_optional_list(obj, "bridges", Limits::kMaxItems, read_bridge, f.bridges); })
            .then([&] { return read_faction_tiles(s, obj, f.tiles); })
            .status();
      });
  if (!read) return read.error();
  return f;
}

Result<Order> read_order(const Json& j, const std::string& at) {
  Order o;
  const Status read = read_object(j, at, {"kind", "points", "patrol"}, [&](const ObjectReader& obj) {
    return Fields(obj)
        .then([&]() -> Status {
          const Result<const Json*> kind = obj.need("kind");
          if (!kind) return kind.error();
          return read_enum(**kind, obj.at("kind"), {"none", "move", "waypoints", "patrol", "stop"}, o.kind);
        })
        .or_default("points", std::vector<Vec2>{}, read_points, o.points)
        .then([&]() -> Status {
          const Json* v = obj.find("patrol");
          if (v == nullptr) return Ok{};
          return read_enum(*v, obj.at("patrol"), {"loop", "back_forth"}, o.patrol);
        })
        .status();
  });
  if (!read) return read.error();
  return o;
}

Result<Unit> read_unit(const Scenario& s, const Json& j, const std::string& at) {
  Unit u;
  const Status read = read_object(
      j, at, {"id", "faction", "class", "position", "heading", "order"}, [&](const ObjectReader& obj) {
        return Fields(obj)
            .need("id", read_u32, u.id)
            .need("faction", read_string, u.faction)
            .then([&]() -> Status {
              const Result<std::size_t> c = read_ref(s.classes, "movement class", obj, "class");
              if (!c) return c.error();
              u.movement_class = *c;
              return Ok{};
            })
            .need("position", read_vec2, u.position)
            .or_default("heading", 0.0, read_number, u.heading)
            .or_default("order", Order{}, read_order, u.order)
            .status();
      });
  if (!read) return read.error();
  return u;
}

Result<PlatoonSpec> read_platoon(const Json& j, const std::string& at) {
  PlatoonSpec p;
  const Status read = read_object(
      j, at, {"formation", "spacing", "heading", "break_when_blocked"}, [&](const ObjectReader& obj) {
        return Fields(obj)
            .or_default("formation", p.formation, read_string, p.formation)
            .or_default("spacing", p.spacing, read_number, p.spacing)
            .optional("heading", read_number, p.heading)
            .or_default("break_when_blocked", false, read_bool, p.break_when_blocked)
            .status();
      });
  if (!read) return read.error();
  return p;
}

Result<FormationDef> read_formation(const Json& j, const std::string& at) {
  FormationDef f;
  const Status read = read_object(j, at, {"name", "offsets"}, [&](const ObjectReader& obj) {
    return Fields(obj).need("name", read_string, f.name).need("offsets", read_points, f.offsets).status();
  });
  if (!read) return read.error();
  return f;
}

Result<UnitGroup> read_group(const Json& j, const std::string& at) {
  UnitGroup g;
  const Status read =
      read_object(j, at, {"id", "name", "units", "order", "platoon"}, [&](const ObjectReader& obj) {
        return Fields(obj)
            .need("id", read_u32, g.id)
            .or_default("name", std::string(), read_string, g.name)
            .then([&]() -> Status {
              const Result<const Json*> units = obj.need("units");
              if (!units) return units.error();
              Result<std::vector<std::uint32_t>> ids =
                  read_list(**units, obj.at("units"), Limits::kMaxItems, read_u32);
              if (!ids) return ids.error();
              g.units = std::move(ids).value();
              return Ok{};
            })
            .or_default("order", Order{}, read_order, g.order)
            .optional("platoon", read_platoon, g.platoon)
            .status();
      });
  if (!read) return read.error();
  return g;
}

Status read_sim(const Json& j, Scenario& s) {
  return read_object(
      j, "sim",
      {"dt", "continuous", "prevention", "cooperation", "passages", "knots", "avoidance", "memory_seconds",
       "prediction_seconds", "path_budget", "stuck_seconds", "stuck_progress", "density_cost",
       "density_refresh", "density_half_life", "formation_goals", "detours"},
      [&](const ObjectReader& obj) {
        const SimSettings defaults;
        SimSettings& sim = s.sim;
        return Fields(obj)
            .or_default("dt", defaults.dt, read_number, sim.dt)
            .or_default("continuous", defaults.continuous, read_bool, sim.continuous)
            .or_default("prevention", defaults.prevention, read_bool, sim.prevention)
            .or_default("cooperation", defaults.cooperation, read_bool, sim.cooperation)
            .or_default("passages", defaults.passages, read_bool, sim.passages)
            .or_default("knots", defaults.knots, read_bool, sim.knots)
            .then([&]() -> Status {
              const Json* v = obj.find("avoidance");
              if (v == nullptr) return Ok{};
              return read_enum(*v, obj.at("avoidance"), {"none", "potential_field", "steering_arcs"},
                               sim.avoidance);
            })
            .or_default("memory_seconds", defaults.memory_seconds, read_number, sim.memory_seconds)
            .or_default("prediction_seconds", defaults.prediction_seconds, read_number,
                        sim.prediction_seconds)
            .or_default("path_budget", defaults.path_budget, read_int, sim.path_budget)
            .or_default("stuck_seconds", defaults.stuck_seconds, read_number, sim.stuck_seconds)
            .or_default("stuck_progress", defaults.stuck_progress, read_number, sim.stuck_progress)
            .or_default("density_cost", defaults.density_cost, read_number, sim.density_cost)
            .or_default("density_refresh", defaults.density_refresh, read_number, sim.density_refresh)
            .or_default("density_half_life", defaults.density_half_life, read_number, sim.density_half_life)
            .or_default("formation_goals", defaults.formation_goals, read_bool, sim.formation_goals)
            .or_default("detours", defaults.detours, read_bool, sim.detours)
            .status();
      });
}

// A query's planner parameters: an object of numbers, kept sorted by name.
Status read_params(const ObjectReader& obj, Query& q) {
  const Json* params = obj.find("params");
  if (params == nullptr) return Ok{};
  if (!params->is_object())
    return make_error(ErrorCode::Schema, obj.at("params"), "expected an object, found " + describe(*params));
  // Object keys come sorted by name, which is the order Query::params keeps.
  for (const auto& [name, value] : params->items()) {
    const Result<double> v = read_number(value, field(obj.at("params"), name));
    if (!v) return v.error();
    q.params.push_back(PlannerParam{name, *v});
  }
  return Ok{};
}

Result<Query> read_query(const Scenario& s, const Json& j, const std::string& at) {
  Query q;
  const Status read = read_object(
      j, at, {"name", "start", "goal", "class", "planner", "params", "expected_length", "faction"},
      [&](const ObjectReader& obj) {
        return Fields(obj)
            .or_default("name", std::string(), read_string, q.name)
            .need("start", read_vec2, q.start)
            .need("goal", read_vec2, q.goal)
            .then([&]() -> Status {
              const Result<std::size_t> c = read_ref(s.classes, "movement class", obj, "class");
              if (!c) return c.error();
              q.movement_class = *c;
              return Ok{};
            })
            .or_default("planner", std::string(kDefaultPlanner), read_string, q.planner)
            .or_default("faction", std::string(), read_string, q.faction)
            .then([&] { return read_params(obj, q); })
            .optional("expected_length", read_number, q.expected_length)
            .status();
      });
  if (!read) return read.error();
  return q;
}

// An Avoids expectation's area: a rect or a circle.
Status read_area(const ObjectReader& obj, Shape& area) {
  const std::string area_at = obj.at("area");
  const Result<const Json*> need = obj.need("area");
  if (!need) return need.error();
  const Json& a = **need;
  if (!a.is_object())
    return make_error(ErrorCode::Schema, area_at, "expected an object, found " + describe(a));
  const auto shape_it = a.find("shape");
  if (shape_it == a.end()) return make_error(ErrorCode::Schema, area_at, "missing required field \"shape\"");
  const Result<std::size_t> shape = read_choice(*shape_it, field(area_at, "shape"), {"rect", "circle"});
  if (!shape) return shape.error();
  const ShapeKind kind = *shape == 0 ? ShapeKind::Rect : ShapeKind::Circle;
  return read_object(a, area_at,
                     kind == ShapeKind::Rect ? std::vector<std::string_view>{"shape", "min", "max"}
                                             : std::vector<std::string_view>{"shape", "center", "radius"},
                     [&](const ObjectReader& fields) { return read_shape(fields, kind, area); });
}

// One expectation; its known fields depend on its kind.
Result<Expectation> read_expectation(const Json& j, const std::string& at) {
  if (!j.is_object()) return make_error(ErrorCode::Schema, at, "expected an object, found " + describe(j));
  const auto kind_it = j.find("kind");
  if (kind_it == j.end()) return make_error(ErrorCode::Schema, at, "missing required field \"kind\"");
  Expectation e;
  if (Status kind =
          read_enum(*kind_it, field(at, "kind"),
                    {"arrive", "no_overlaps", "no_tunnelling", "no_stuck", "passes", "avoids"}, e.kind);
      !kind) {
    return kind.error();
  }
  std::vector<std::string_view> known = {"kind", "name", "within"};
  if (e.kind != ExpectKind::NoOverlaps && e.kind != ExpectKind::NoTunnelling) known.push_back("units");
  if (e.kind == ExpectKind::Passes) known.insert(known.end(), {"point", "radius"});
  if (e.kind == ExpectKind::Avoids) known.push_back("area");
  const Status read = read_object(j, at, known, [&](const ObjectReader& obj) {
    Fields fields(obj);
    fields.or_default("name", std::string(), read_string, e.name);
    if (e.kind == ExpectKind::Arrive) {
      fields.need("within", read_number, e.within);
    } else {
      fields.optional("within", read_number, e.within);
    }
    fields.then([&] { return read_optional_list(obj, "units", Limits::kMaxItems, read_u32, e.units); });
    if (e.kind == ExpectKind::Passes)
      fields.need("point", read_vec2, e.point).need("radius", read_number, e.radius);
    if (e.kind == ExpectKind::Avoids) fields.then([&] { return read_area(obj, e.area); });
    return fields.status();
  });
  if (!read) return read.error();
  return e;
}

// `expect`: one expectation, or an array of them.
Result<std::vector<Expectation>> read_expect(const Json& j) {
  if (j.is_object()) {
    Result<Expectation> one = read_expectation(j, "expect");
    if (!one) return one.error();
    return std::vector<Expectation>{std::move(one).value()};
  }
  if (!j.is_array())
    return make_error(ErrorCode::Schema, "expect", "expected an object or an array, found " + describe(j));
  return read_list(j, "expect", Limits::kMaxItems, read_expectation);
}

Status read_viewer(const Json& j, Scenario& s) {
  return read_object(j, "viewer", {"center", "zoom", "layers"}, [&](const ObjectReader& obj) {
    return Fields(obj)
        .optional("center", read_vec2, s.viewer.center)
        .optional("zoom", read_number, s.viewer.zoom)
        .then([&] {
          return read_optional_list(obj, "layers", Limits::kMaxItems, read_string, s.viewer.layers);
        })
        .status();
  });
}

bool has_default_class_names(const Scenario& s) {
  const std::vector<MovementClass> defaults = default_movement_classes();
  if (defaults.size() != s.classes.size()) return false;
  for (std::size_t i = 0; i < defaults.size(); ++i) {
    if (defaults[i].name != s.classes[i].name) return false;
  }
  return true;
}

// The format and version come first: a different kind of file gets the clearest message.
Status read_format(const Json& root) {
  const auto format_it = root.find("format");
  if (format_it == root.end()) {
    return make_error(
        ErrorCode::Schema, "",
        "missing required field \"format\" (expected " + quote_text(std::string(kScenarioFormatName)) + ")");
  }
  if (!format_it->is_string() || format_it->get<std::string>() != kScenarioFormatName) {
    return make_error(
        ErrorCode::Schema, "format",
        "expected " + quote_text(std::string(kScenarioFormatName)) + ", found " + describe(*format_it));
  }
  const auto version_it = root.find("version");
  if (version_it == root.end())
    return make_error(ErrorCode::Schema, "", "missing required field \"version\"");
  const Result<std::uint64_t> version = read_u64(*version_it, "version");
  if (!version) return version.error();
  if (*version > static_cast<std::uint64_t>(kScenarioFormatVersion)) {
    return make_error(ErrorCode::Value, "version",
                      "version " + std::to_string(*version) + " is newer than this program reads (" +
                          std::to_string(kScenarioFormatVersion) + ")");
  }
  // Version 1 files are read by the same code: they have none of version 2's fields
  // (class limits, orders, groups, sim), which take their defaults.
  if (*version < 1) {
    return make_error(ErrorCode::Value, "version",
                      "expected version 1 to " + std::to_string(kScenarioFormatVersion) + ", found 0");
  }
  return Ok{};
}

// The top-level sections, in file order.
Status read_sections(const ObjectReader& top, Scenario& s) {
  Fields fields(top);
  fields.or_default("name", std::string(), read_string, s.name)
      .or_default("description", std::string(), read_string, s.description)
      .then([&]() -> Status {
        const Result<const Json*> world = top.need("world");
        if (!world) return world.error();
        return read_world(**world, s);
      })
      .then([&] { return check_world(s); })
      .optional("seed", read_u64, s.seed)
      .then([&]() -> Status {
        const Json* v = top.find("movement_classes");
        if (v == nullptr) {
          s.classes = default_movement_classes();
          return Ok{};
        }
        Result<std::vector<MovementClass>> classes =
            read_list(*v, "movement_classes", Limits::kMaxMovementClasses, read_class);
        if (!classes) return classes.error();
        s.classes = std::move(classes).value();
        return Ok{};
      })
      .then([&] { return check_classes(s); })
      .then([&]() -> Status {
        if (const Json* v = top.find("terrain_types")) return read_terrains(*v, s);
        if (has_default_class_names(s)) {
          s.terrains = default_terrain_types();
          return Ok{};
        }
        return make_error(
            ErrorCode::Schema, "",
            "missing field \"terrain_types\": it is required when movement_classes are not the defaults");
      })
      // Tiles are decoded through the terrain symbols, which must be valid first.
      .then([&] { return check_terrains(s); })
      .then([&]() -> Status {
        const Json* v = top.find("tiles");
        return v == nullptr ? Status(Ok{}) : read_tiles(*v, s);
      });
  // The list sections; with_scenario hands the scenario to the readers that resolve
  // terrain and class names to indices.
  auto with_scenario = [&s](auto read_one) {
    return [&s, read_one](const Json& j, const std::string& at) { return read_one(s, j, at); };
  };
  auto items = [&](std::string_view key, auto read_one, auto& out) {
    fields.then([&] { return read_optional_list(top, key, Limits::kMaxItems, read_one, out); });
  };
  items("features", with_scenario(read_feature), s.features);
  items("threats", read_influence, s.threats);
  items("allies", read_influence, s.allies);
  items("roads", read_road, s.roads);
  items("bridges", read_bridge, s.bridges);
  items("factions", with_scenario(read_faction), s.factions);
  items("units", with_scenario(read_unit), s.units);
  items("groups", read_group, s.groups);
  items("formations", read_formation, s.formations);
  fields.then([&]() -> Status {
    const Json* v = top.find("sim");
    return v == nullptr ? Status(Ok{}) : read_sim(*v, s);
  });
  items("queries", with_scenario(read_query), s.queries);
  fields.then([&]() -> Status {
    const Json* v = top.find("viewer");
    return v == nullptr ? Status(Ok{}) : read_viewer(*v, s);
  });
  fields.then([&]() -> Status {
    const Json* v = top.find("expect");
    if (v == nullptr) return Ok{};
    Result<std::vector<Expectation>> expect = read_expect(*v);
    if (!expect) return expect.error();
    s.expect = std::move(expect).value();
    return Ok{};
  });
  fields.then([&]() -> Status {
    const Json* v = top.find("sim_state");
    if (v == nullptr) return Ok{};
    if (!v->is_object())
      return make_error(ErrorCode::Schema, "sim_state",
                        "expected an object (a saved game's simulation state)");
    s.sim_state = v->dump(-1, ' ', false, Json::error_handler_t::replace);
    return Ok{};
  });
  return fields.status();
}

Result<Scenario> read_scenario(const Json& root) {
  if (!root.is_object())
    return make_error(ErrorCode::Schema, "",
                      "expected a JSON object at the top level, found " + describe(root));
  if (Status format = read_format(root); !format) return format.error();
  const Result<ObjectReader> top =
      ObjectReader::open(root, "", {"format",  "version",          "name",          "description", "world",
                                    "seed",    "movement_classes", "terrain_types", "tiles",       "features",
                                    "threats", "allies",           "roads",         "bridges",     "factions",
                                    "units",   "groups",           "formations",    "sim",         "queries",
                                    "viewer",  "expect",           "sim_state"});
  if (!top) return top.error();
  Scenario s;
  if (Status read = read_sections(*top, s); !read) return read.error();
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// [SECTION] Entry point
// ---------------------------------------------------------------------------------------

Result<Scenario> read_scenario_json(std::string_view json_text, const std::string& source_name) {
  const Result<Json> dom = parse_json_dom(json_text, source_name);
  if (!dom) return dom.error();
  Result<Scenario> s = read_scenario(*dom);
  if (!s) {
    Error e = s.error();
    e.where = locate(source_name, e.where);
    return e;
  }
  return s;
}

}  // namespace pathscope

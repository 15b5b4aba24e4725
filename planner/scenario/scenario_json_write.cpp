#include "planner/scenario/scenario_json_write.hpp"

// Writing scenario JSON: Scenario -> ordered DOM -> canonical text. The layout rules are
// the ones scenario_to_json documents; the fields are those of docs/formats.md.
//
// [SECTION] Canonical text (indentation, inline number arrays, shortest numbers)
// [SECTION] Values (numbers, points, colours, tile rows)
// [SECTION] Sections (Scenario -> ordered DOM)
// [SECTION] Entry point

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "planner/core/default_planner.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/scenario/scenario_json_detail.hpp"

namespace pathscope {

namespace {

using namespace scenario_detail;

// ---------------------------------------------------------------------------------------
// [SECTION] Canonical text
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
        out += pad + quote_text(key) + ": ";
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
    case OrderedJson::value_t::string: out += quote_text(j.get<std::string>()); return;
    default:
      out += j.dump();  // integers, booleans, null
      return;
  }
}

// ---------------------------------------------------------------------------------------
// [SECTION] Values
// ---------------------------------------------------------------------------------------

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
    // A faction's unseen tile is a space (no terrain symbol is one).
    out += cells[i] == Faction::kUnseenTile ? ' '
           : cells[i] < s.terrains.size()   ? s.terrains[cells[i]].symbol
                                            : '?';
    i += run;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// [SECTION] Sections
// ---------------------------------------------------------------------------------------

// A JSON array with one entry per item, made by to_json.
template <typename T, typename ToJson>
OrderedJson list_json(const std::vector<T>& items, ToJson to_json) {
  OrderedJson out = OrderedJson::array();
  for (const T& x : items) out.push_back(to_json(x));
  return out;
}

OrderedJson influence_json(const Influence& z) {
  OrderedJson o;
  o["id"] = z.id;
  o["center"] = vec2(z.center);
  o["radius"] = number(z.radius);
  o["strength"] = number(z.strength);
  if (!z.faction.empty()) o["faction"] = z.faction;
  return o;
}

OrderedJson terrain_json(const Scenario& s, const TerrainType& t) {
  OrderedJson o;
  o["name"] = t.name;
  o["symbol"] = std::string(1, t.symbol);
  o["color"] = color_text(t.color);
  o["group"] = t.group;
  OrderedJson& cost = o["cost"] = OrderedJson::object();
  for (std::size_t c = 0; c < t.cost.size(); ++c) {
    cost[class_name(s, c)] = t.cost[c] ? number(*t.cost[c]) : OrderedJson("impassable");
  }
  return o;
}

OrderedJson tiles_json(const Scenario& s, const TileGrid& g) {
  OrderedJson rows = OrderedJson::array();
  const auto width = static_cast<std::size_t>(std::max(g.width, 0));
  for (std::size_t r = 0;
       width > 0 && (r + 1) * width <= g.terrain.size() && r < static_cast<std::size_t>(g.height); ++r) {
    rows.push_back(encode_row(s, g.terrain.data() + r * width, width));
  }
  return {{"width", g.width}, {"height", g.height}, {"rows", std::move(rows)}};
}

OrderedJson feature_json(const Scenario& s, const Feature& f) {
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
  if (f.velocity != Vec2{0, 0}) o["velocity"] = vec2(f.velocity);
  if (f.container) o["container"] = true;
  return o;
}

OrderedJson query_json(const Scenario& s, const Query& q) {
  OrderedJson o;
  if (!q.name.empty()) o["name"] = q.name;
  o["start"] = vec2(q.start);
  o["goal"] = vec2(q.goal);
  o["class"] = class_name(s, q.movement_class);
  o["planner"] = q.planner;
  if (!q.faction.empty()) o["faction"] = q.faction;
  if (!q.params.empty()) {
    OrderedJson& params = o["params"] = OrderedJson::object();
    for (const PlannerParam& p : q.params) params[p.name] = number(p.value);
  }
  if (q.expected_length) o["expected_length"] = number(*q.expected_length);
  return o;
}

OrderedJson class_json(const MovementClass& c) {
  OrderedJson o = {{"name", c.name},
                   {"radius", number(c.radius)},
                   {"speed", number(c.speed)},
                   {"amphibious", c.amphibious}};
  // Version 2's fields are written only when set (or not the default), so a class
  // without them reads as it did in version 1.
  const std::pair<const char*, const std::optional<double>*> limits[] = {{"acceleration", &c.acceleration},
                                                                         {"deceleration", &c.deceleration},
                                                                         {"turn_rate", &c.turn_rate},
                                                                         {"hard_radius", &c.hard_radius},
                                                                         {"soft_radius", &c.soft_radius}};
  for (const auto& [key, value] : limits) {
    if (*value) o[key] = number(**value);
  }
  if (c.hard_aspect != 1) o["hard_aspect"] = number(c.hard_aspect);
  if (c.priority != 0) o["priority"] = c.priority;
  if (c.planner != kDefaultPlanner) o["planner"] = c.planner;
  // Version 3's fields, written only when set (or not the default).
  static constexpr const char* kVehicles[] = {"infantry", "tracked", "wheeled", "rotary"};
  const auto vehicle = static_cast<std::size_t>(c.vehicle);
  if (c.vehicle != VehicleModel::Infantry)
    o["vehicle"] = vehicle < std::size(kVehicles) ? kVehicles[vehicle] : "";
  if (c.min_turn_radius) o["min_turn_radius"] = number(*c.min_turn_radius);
  if (c.reverse_speed) o["reverse_speed"] = number(*c.reverse_speed);
  return o;
}

OrderedJson order_json(const Order& order) {
  static constexpr const char* kKinds[] = {"none", "move", "waypoints", "patrol", "stop"};
  const auto kind = static_cast<std::size_t>(order.kind);
  OrderedJson o;
  o["kind"] = kind < std::size(kKinds) ? kKinds[kind] : "";
  if (!order.points.empty()) o["points"] = point_list(order.points);
  if (order.patrol != PatrolMode::Loop)
    o["patrol"] = order.patrol == PatrolMode::BackForth ? "back_forth" : "";
  return o;
}

OrderedJson unit_json(const Scenario& s, const Unit& u) {
  OrderedJson o = {{"id", u.id},
                   {"faction", u.faction},
                   {"class", class_name(s, u.movement_class)},
                   {"position", vec2(u.position)},
                   {"heading", number(u.heading)}};
  if (u.order != Order{}) o["order"] = order_json(u.order);
  return o;
}

OrderedJson group_json(const UnitGroup& g) {
  OrderedJson o;
  o["id"] = g.id;
  if (!g.name.empty()) o["name"] = g.name;
  o["units"] = g.units;
  if (g.order != Order{}) o["order"] = order_json(g.order);
  if (g.platoon) {
    OrderedJson p = {{"formation", g.platoon->formation}, {"spacing", number(g.platoon->spacing)}};
    if (g.platoon->heading) p["heading"] = number(*g.platoon->heading);
    if (g.platoon->break_when_blocked) p["break_when_blocked"] = true;
    o["platoon"] = p;
  }
  return o;
}

OrderedJson sim_json(const SimSettings& sim) {
  static constexpr const char* kAvoidance[] = {"none", "potential_field", "steering_arcs"};
  const auto avoidance = static_cast<std::size_t>(sim.avoidance);
  OrderedJson o = {{"dt", number(sim.dt)},
                   {"continuous", sim.continuous},
                   {"prevention", sim.prevention},
                   {"cooperation", sim.cooperation},
                   {"passages", sim.passages},
                   {"avoidance", avoidance < std::size(kAvoidance) ? kAvoidance[avoidance] : ""},
                   {"memory_seconds", number(sim.memory_seconds)},
                   {"prediction_seconds", number(sim.prediction_seconds)},
                   {"path_budget", sim.path_budget}};
  // Written only when not the default, so files saved before they existed save the same.
  const SimSettings defaults;
  if (sim.stuck_seconds != defaults.stuck_seconds) o["stuck_seconds"] = number(sim.stuck_seconds);
  if (sim.stuck_progress != defaults.stuck_progress) o["stuck_progress"] = number(sim.stuck_progress);
  if (sim.density_cost != defaults.density_cost) o["density_cost"] = number(sim.density_cost);
  if (sim.density_refresh != defaults.density_refresh) o["density_refresh"] = number(sim.density_refresh);
  if (sim.density_half_life != defaults.density_half_life)
    o["density_half_life"] = number(sim.density_half_life);
  if (sim.formation_goals != defaults.formation_goals) o["formation_goals"] = sim.formation_goals;
  if (sim.knots != defaults.knots) o["knots"] = sim.knots;
  if (sim.detours != defaults.detours) o["detours"] = sim.detours;
  return o;
}

OrderedJson expectation_json(const Expectation& e) {
  OrderedJson o;
  o["kind"] = to_string(e.kind);
  if (!e.name.empty()) o["name"] = e.name;
  if (!e.units.empty()) o["units"] = e.units;
  if (e.within) o["within"] = number(*e.within);
  if (e.kind == ExpectKind::Passes) {
    o["point"] = vec2(e.point);
    o["radius"] = number(e.radius);
  }
  if (e.kind == ExpectKind::Avoids) {
    OrderedJson area;
    if (e.area.kind == ShapeKind::Circle) {
      area["shape"] = "circle";
      area["center"] = vec2(e.area.center);
      area["radius"] = number(e.area.radius);
    } else {
      area["shape"] = "rect";
      area["min"] = vec2(e.area.min);
      area["max"] = vec2(e.area.max);
    }
    o["area"] = area;
  }
  return o;
}

OrderedJson viewer_json(const ViewerHints& v) {
  OrderedJson o = OrderedJson::object();
  if (v.center) o["center"] = vec2(*v.center);
  if (v.zoom) o["zoom"] = number(*v.zoom);
  if (!v.layers.empty()) o["layers"] = v.layers;
  return o;
}

// The document, fields in the order docs/formats.md lists them; empty optional sections
// are left out.
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
  root["movement_classes"] = list_json(s.classes, class_json);
  root["terrain_types"] = list_json(s.terrains, [&s](const TerrainType& t) { return terrain_json(s, t); });
  if (s.tiles) root["tiles"] = tiles_json(s, *s.tiles);
  if (!s.features.empty())
    root["features"] = list_json(s.features, [&s](const Feature& f) { return feature_json(s, f); });
  if (!s.threats.empty()) root["threats"] = list_json(s.threats, influence_json);
  if (!s.allies.empty()) root["allies"] = list_json(s.allies, influence_json);
  if (!s.roads.empty()) {
    root["roads"] = list_json(s.roads, [](const Road& r) -> OrderedJson {
      return {{"id", r.id},
              {"points", point_list(r.points)},
              {"width", number(r.width)},
              {"speed_factor", number(r.speed_factor)}};
    });
  }
  const auto bridge_json = [](const Bridge& b) -> OrderedJson {
    return {
        {"id", b.id}, {"a", vec2(b.a)}, {"b", vec2(b.b)}, {"width", number(b.width)}, {"intact", b.intact}};
  };
  if (!s.bridges.empty()) root["bridges"] = list_json(s.bridges, bridge_json);
  if (!s.factions.empty()) {
    root["factions"] = list_json(s.factions, [&s, &bridge_json](const Faction& f) -> OrderedJson {
      OrderedJson o = {{"name", f.name}, {"color", color_text(f.color)}};
      if (f.sight > 0) o["sight"] = number(f.sight);
      if (f.partial) o["partial"] = true;
      if (!f.memory.empty()) {
        o["memory"] =
            list_json(f.memory, [&s](const Feature& m) -> OrderedJson { return feature_json(s, m); });
      }
      if (!f.bridges.empty()) o["bridges"] = list_json(f.bridges, bridge_json);
      if (!f.tiles.empty() && s.tiles) {
        // The tile grid's rows as the faction remembers them, a space where never seen.
        OrderedJson rows = OrderedJson::array();
        const auto width = static_cast<std::size_t>(std::max(s.tiles->width, 0));
        for (std::size_t r = 0; width > 0 && (r + 1) * width <= f.tiles.size(); ++r) {
          rows.push_back(encode_row(s, f.tiles.data() + r * width, width));
        }
        o["tiles"] = std::move(rows);
      }
      return o;
    });
  }
  if (!s.units.empty()) root["units"] = list_json(s.units, [&s](const Unit& u) { return unit_json(s, u); });
  if (!s.groups.empty()) root["groups"] = list_json(s.groups, group_json);
  if (!s.formations.empty()) {
    root["formations"] = list_json(s.formations, [](const FormationDef& f) -> OrderedJson {
      return {{"name", f.name}, {"offsets", point_list(f.offsets)}};
    });
  }
  if (s.sim != SimSettings{}) root["sim"] = sim_json(s.sim);
  if (!s.queries.empty())
    root["queries"] = list_json(s.queries, [&s](const Query& q) { return query_json(s, q); });
  const ViewerHints& v = s.viewer;
  if (v.center || v.zoom || !v.layers.empty()) root["viewer"] = viewer_json(v);
  // One expectation is written as an object, more as an array (validation names them
  // "expect" and "expect[i]" to match).
  if (s.expect.size() == 1) root["expect"] = expectation_json(s.expect.front());
  if (s.expect.size() > 1) root["expect"] = list_json(s.expect, expectation_json);
  // A saved game's state, as read (its keys in the order it was stored: sorted).
  if (!s.sim_state.empty()) root["sim_state"] = OrderedJson::parse(s.sim_state);
  return root;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// [SECTION] Entry point
// ---------------------------------------------------------------------------------------

std::string write_scenario_json(const Scenario& scenario) {
  std::string out;
  emit(scenario_json(scenario), 0, out);
  out += "\n";
  return out;
}

}  // namespace pathscope

// Saved games: the simulation's whole state as JSON, and back (issue "QA": "loading it and
// running on gives the same state hashes as never having saved").
//
// Everything a later step reads is kept: every slot (dead ones too: their generations
// keep ids stable), what only the simulation reads per unit, arrivals (goals taken,
// units standing off their goals), the free slots, the queued
// path requests in order, the remembered resolutions, the last step's collisions, the
// density map and the cost made from it, the counters, who holds which bridge, the
// passages' turns, the next group order's platoon, and each platoon's own state (its walk's exact
// vertices, its motion, formations, drive-to points and crews). What is made again from the scenario (the
// world, the motions, the passage maps' cells) is not. Each unit is an object of named fields, one object per
// part, walked from the field list (sim_fields.hpp); version 1's units, flat lists of numbers (tapes), are
// still read. The other lists are tapes (fixed fields, then each variable-length list after its length).
// Doubles are written shortest-exact, so they read back bit for bit.
//
// Reading is one pass that checks everything before it takes anything: each number as it
// is read (finite, within its bounds, an index in range), then what the parts name of one
// another (orders and their states, units and slots, passages and their maps, bridges).
// A refusal names the JSON path of the value (`sim_state.units[3].body.heading: ...`), and
// inside a tape the item and its field (`sim_state.memory[2][4]: until: ...`).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "planner/sim/json_text.hpp"
#include "planner/sim/sim_fields.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

using Json = nlohmann::json;

// 3: counters without the step's own overlap and tunnelling counts (the referee keeps
// them); 2: units as named fields (sim_fields.hpp); 1: units as tapes. 1 and 2 are still read.
constexpr int kStateVersion = 3;

// The first refusal met while reading the state. A read after it does nothing and gives
// zero (or an empty list), and every reader returns before a value it read is used as an
// index or a size: the refusal reported is the first in the order the checks are written.
class Refusal {
 public:
  bool ok() const { return !error_; }
  void fail(const std::string& where, const std::string& message) {
    if (!error_) error_ = make_error(ErrorCode::Value, where, message);
  }
  Status status() const {
    if (error_) return *error_;
    return Ok{};
  }

 private:
  std::optional<Error> error_;
};

// What a reader reads in place of a value it could not find: nothing, of no type.
const Json& no_value() {
  static const Json kNull;
  return kNull;
}
const Json& no_list() {
  static const Json kEmpty = Json::array();
  return kEmpty;
}

// Writes numbers onto a flat list.
class Tape {
 public:
  void num(double v) {
    // Not finite (never expected): kept as a string so the list stays valid JSON.
    if (std::isfinite(v)) {
      list_.push_back(v);
    } else {
      list_.push_back(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
    }
  }
  void u(std::uint64_t v) { list_.push_back(v); }
  void i(std::int64_t v) { list_.push_back(v); }
  void b(bool v) { list_.push_back(v ? 1 : 0); }
  void vec(Vec2 p) {
    num(p.x);
    num(p.y);
  }
  void points(const std::vector<Vec2>& ps) {
    u(ps.size());
    for (const Vec2 p : ps) vec(p);
  }
  Json take() { return std::move(list_); }

 private:
  Json list_ = Json::array();
};

// A value as a refusal shows it: JSON, cut short.
std::string shown(const Json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// A number as a refusal shows it: shortest exact, or nan / inf.
std::string shown(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // Whole numbers without the ".0" JSON gives them.
  if (std::abs(v) < 1e15 && v == std::floor(v)) return std::to_string(static_cast<long long>(v));
  return Json(v).dump();
}

// A rectangle in world coordinates (metres), edges included.
struct Box {
  Vec2 lo{0, 0};
  Vec2 hi{0, 0};
  // False for NaN too.
  bool contains(Vec2 p) const { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; }
  std::string text() const {
    return "[" + shown(lo.x) + ", " + shown(hi.x) + "] x [" + shown(lo.y) + ", " + shown(hi.y) + "]";
  }
};

// What a restored state is held to (docs/formats-sim.md, "Checks"), from its scenario.
struct StateBounds {
  Box world;  ///< The world: unit positions, order points, path requests.
  Box near;   ///< The world grown by its longer side all round: every other point.
  std::size_t classes = 0;
  std::size_t factions = 0;

  explicit StateBounds(const Scenario& s) : classes(s.classes.size()), factions(s.factions.size()) {
    world.hi = Vec2{s.world.width, s.world.height};
    const double margin = std::max(s.world.width, s.world.height);
    near.lo = Vec2{-margin, -margin};
    near.hi = Vec2{s.world.width + margin, s.world.height + margin};
  }
};

/// Speeds (m/s) at most: a unit crosses the largest world in a second (the scenario's
/// bound on road speeds too).
constexpr double kMaxStateSpeed = ScenarioLimits::kMaxWorldSide;
/// Flows (unit vectors, or 0) per coordinate, with room for rounding.
constexpr double kMaxFlow = 1 + 1e-9;
/// Predicted positions per unit at most (sim.prediction_seconds / sim.dt is far fewer).
constexpr std::uint64_t kMaxPredicted = 1u << 16;
/// Steps at most: simulated time (steps x dt) stays exact in a double.
constexpr std::uint64_t kMaxSteps = std::uint64_t{1} << 53;
constexpr double kHuge = std::numeric_limits<double>::max();

// Reads numbers off a flat list, in the order they were written, each checked as it is
// read. A refusal names the item (`sim_state.units[3][9]`) and the field (`heading`).
class Reader {
 public:
  Reader(const Json& list, std::string where, Refusal& refusal)
      : list_(list.is_array() ? list : no_list()), where_(std::move(where)), refusal_(refusal) {
    if (!list.is_array()) fail("expected a list of numbers, found " + shown(list));
  }
  /// A finite number in [lo, hi].
  double num(const char* name, double lo = -kHuge, double hi = kHuge) {
    const Json* v = next(name);
    if (v == nullptr) return 0;
    double out = 0;
    if (v->is_number()) {
      out = v->get<double>();
    } else if (v->is_string() && (*v == "nan" || *v == "inf" || *v == "-inf")) {
      // How a non-finite number is written (never expected): named as such below.
      out = *v == "nan" ? std::numeric_limits<double>::quiet_NaN() : (*v == "inf" ? kInf : -kInf);
    } else {
      return refused(name, "expected a number, found " + shown(*v), 0.0);
    }
    if (!std::isfinite(out)) return refused(name, "expected a finite number, found " + shown(out), 0.0);
    if (out < lo || out > hi) {
      return refused(name, "expected a number in [" + shown(lo) + ", " + shown(hi) + "], found " + shown(out),
                     0.0);
    }
    return out;
  }
  /// A whole number in [0, max].
  std::uint64_t u(const char* name, std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    const Json* v = next(name);
    if (v == nullptr) return 0;
    if (!v->is_number_integer() || (!v->is_number_unsigned() && v->get<std::int64_t>() < 0))
      return refused(name, "expected a whole number >= 0, found " + shown(*v), std::uint64_t{0});
    const auto out = v->get<std::uint64_t>();
    if (out > max)
      return refused(name, "expected at most " + std::to_string(max) + ", found " + shown(*v),
                     std::uint64_t{0});
    return out;
  }
  /// A whole number in [lo, hi].
  std::int64_t i(const char* name, std::int64_t lo, std::int64_t hi) {
    const Json* v = next(name);
    if (v == nullptr) return 0;
    const bool whole = v->is_number_integer() &&
                       (!v->is_number_unsigned() ||
                        v->get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<std::int64_t>::max()));
    if (!whole || v->get<std::int64_t>() < lo || v->get<std::int64_t>() > hi) {
      return refused(name,
                     "expected a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         "], found " + shown(*v),
                     std::int64_t{0});
    }
    return v->get<std::int64_t>();
  }
  /// 0 or 1.
  bool b(const char* name) {
    const Json* v = next(name);
    if (v == nullptr) return false;
    if (!v->is_number_integer() || (*v != 0 && *v != 1))
      return refused(name, "expected 0 or 1, found " + shown(*v), false);
    return *v == 1;
  }
  /// A point inside `box`.
  Vec2 vec(const char* name, const Box& box) {
    const double x = num(name);
    const double y = num(name);
    if (!ok()) return {};
    if (!box.contains(Vec2{x, y}))
      fail_item(name, "(" + shown(x) + ", " + shown(y) + ") is outside " + box.text());
    return {x, y};
  }
  /// A count, then that many points inside `box`.
  std::vector<Vec2> points(const char* name, const Box& box) {
    const std::uint64_t n = u(name, (list_.size() - at_) / 2);
    std::vector<Vec2> out;
    out.reserve(n);
    for (std::uint64_t k = 0; k < n && ok(); ++k) out.push_back(vec(name, box));
    return out;
  }
  /// An enum value up to `last`.
  template <class E>
  E one_of(const char* name, E last) {
    return static_cast<E>(u(name, static_cast<std::uint64_t>(last)));
  }
  /// True while nothing was refused and items are left.
  bool more() const { return ok() && at_ < list_.size(); }
  /// Items left to read.
  std::size_t left() const { return list_.size() - at_; }
  void done() {
    if (ok() && at_ != list_.size()) fail(std::to_string(list_.size() - at_) + " items left over");
  }
  /// Refuses the list as a whole (a cross-check of what was read).
  void fail(const std::string& message) { refusal_.fail(where_, message); }
  /// True while nothing was refused (here or before).
  bool ok() const { return refusal_.ok(); }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  // The next item, or nullptr (refused: the list ends early, or something was before).
  const Json* next(const char* name) {
    if (!ok()) return nullptr;
    if (at_ >= list_.size()) {
      fail(std::string("ends early (item ") + std::to_string(at_) + ", " + name + ")");
      return nullptr;
    }
    return &list_[at_++];
  }
  // Refuses the item read last.
  void fail_item(const char* name, const std::string& message) {
    refusal_.fail(where_ + "[" + std::to_string(at_ - 1) + "]", std::string(name) + ": " + message);
  }
  // Refuses the item read last; gives `zero` in its place.
  template <class T>
  T refused(const char* name, const std::string& message, T zero) {
    fail_item(name, message);
    return zero;
  }
  const Json& list_;
  std::string where_;
  Refusal& refusal_;
  std::size_t at_ = 0;
};

// The member `key` of the object at `where`.
const Json& field(const Json& obj, const char* key, const std::string& where, Refusal& refusal) {
  if (!refusal.ok()) return no_value();
  const auto it = obj.find(key);
  if (it == obj.end()) {
    refusal.fail(where, std::string("missing field \"") + key + "\"");
    return no_value();
  }
  return *it;
}

// The list `key` of the object at `where`.
const Json& list_field(const Json& obj, const char* key, const std::string& where, Refusal& refusal) {
  const Json& v = field(obj, key, where, refusal);
  if (!refusal.ok()) return no_list();
  if (!v.is_array()) {
    refusal.fail(where + "." + key, "expected a list, found " + shown(v));
    return no_list();
  }
  return v;
}

// The whole number `key` in [0, max] of the object at `where`.
std::uint64_t whole_field(const Json& obj, const char* key, const std::string& where, std::uint64_t max,
                          Refusal& refusal) {
  const Json& v = field(obj, key, where, refusal);
  if (!refusal.ok()) return 0;
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max) {
    refusal.fail(where + "." + key,
                 "expected a whole number in [0, " + std::to_string(max) + "], found " + shown(v));
    return 0;
  }
  return v.get<std::uint64_t>();
}

// The finite number `key` in [lo, hi] of the object at `where`.
double number_field(const Json& obj, const char* key, const std::string& where, double lo, double hi,
                    Refusal& refusal) {
  const Json& v = field(obj, key, where, refusal);
  if (!refusal.ok()) return 0;
  if (!v.is_number() || !(v.get<double>() >= lo && v.get<double>() <= hi)) {
    refusal.fail(where + "." + key,
                 "expected a number in [" + shown(lo) + ", " + shown(hi) + "], found " + shown(v));
    return 0;
  }
  return v.get<double>();
}

// The flag `key` of the object at `where`: a boolean, or 0 or 1.
bool flag_field(const Json& obj, const char* key, const std::string& where, Refusal& refusal) {
  const Json& v = field(obj, key, where, refusal);
  if (!refusal.ok()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer() && (v == 0 || v == 1)) return v == 1;
  refusal.fail(where + "." + key, "expected 0/1 or a boolean, found " + shown(v));
  return false;
}

// An order kind's name in scenario files.
const char* kind_name(OrderKind kind) {
  constexpr const char* kNames[] = {"none", "move", "waypoints", "patrol", "stop"};
  return kNames[static_cast<std::size_t>(kind)];
}

// The points an order of `kind` takes: at least `min`, at most `max` (as the scenario's).
std::pair<std::size_t, std::size_t> order_points(OrderKind kind) {
  switch (kind) {
    case OrderKind::Move: return {1, 1};
    case OrderKind::Waypoints: return {1, SIZE_MAX};
    case OrderKind::Patrol: return {2, SIZE_MAX};
    case OrderKind::None:
    case OrderKind::Stop: break;
  }
  return {0, 0};
}

void read_unit(Reader& r, SimUnit& u, UnitPrivate& x, const StateBounds& s) {
  constexpr std::uint64_t kU32 = std::numeric_limits<std::uint32_t>::max();
  u.id.index = static_cast<std::uint32_t>(r.u("index", kU32));
  u.id.generation = static_cast<std::uint32_t>(r.u("generation", kU32));
  u.alive = r.b("alive");
  u.scenario_id = static_cast<std::uint32_t>(r.u("scenario id", kU32));
  u.movement_class = r.u("movement class");
  if (u.movement_class >= s.classes)
    r.fail("movement class " + std::to_string(u.movement_class) + " is not in the scenario");
  u.faction = r.u("faction");
  if (u.faction >= std::max<std::size_t>(s.factions, 1))
    r.fail("faction " + std::to_string(u.faction) + " is not in the scenario");
  u.body.position = r.vec("position", s.world);
  u.body.previous = r.vec("previous position", s.world);
  u.body.heading = r.num("heading");
  u.body.speed = r.num("speed", 0, kMaxStateSpeed);
  u.route.state = r.one_of("state", MoveState::InPlatoon);
  u.route.order.kind = r.one_of("order kind", OrderKind::Stop);
  u.route.order.patrol = r.one_of("patrol mode", PatrolMode::BackForth);
  u.route.order.points = r.points("order points", s.world);
  u.route.order_point = r.u("order point");
  if (u.route.order_point >= std::max<std::size_t>(u.route.order.points.size(), 1))
    r.fail("order point index " + std::to_string(u.route.order_point) + " past the order's points");
  const std::int64_t patrol_step =
      r.i("patrol step", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  if (patrol_step != 1 && patrol_step != -1)
    r.fail("patrol step " + std::to_string(patrol_step) + ": expected 1 or -1");
  u.route.patrol_step = static_cast<int>(patrol_step);
  u.route.path = r.points("path", s.near);
  u.route.waypoint = r.u("waypoint", std::numeric_limits<std::uint32_t>::max());
  const std::uint64_t predicted = r.u("predicted", std::min<std::uint64_t>(kMaxPredicted, r.left() / 6));
  u.route.predicted.resize(predicted);
  for (PredictedPoint& p : u.route.predicted) {
    p.position = r.vec("predicted position", s.near);
    p.heading = r.num("predicted heading");
    p.speed = r.num("predicted speed", 0, kMaxStateSpeed);
    p.time = r.num("predicted time");
    p.waypoint = static_cast<std::uint32_t>(r.u("predicted waypoint", kU32));
  }
  u.goal.arrived = r.b("arrived");
  u.goal.arrived_time = r.num("arrived time");
  u.coop.yield = r.one_of("yield", Yield::Detour);
  u.coop.yield_to.index = static_cast<std::uint32_t>(r.u("yield-to index", kU32));
  u.coop.yield_to.generation = static_cast<std::uint32_t>(r.u("yield-to generation", kU32));
  u.coop.speed_factor = r.num("speed factor", 0, 1);
  u.coop.aside = r.vec("aside", s.near);
  u.coop.home = r.vec("home", s.near);
  u.coop.get_to = r.vec("get-to", s.near);
  u.coop.until = r.num("yield until");
  u.waits.bridge = r.b("bridge wait");
  u.waits.passage = r.b("passage wait");
  u.coop.lent_priority = static_cast<int>(
      r.i("lent priority", std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  u.coop.lent_index = static_cast<std::uint32_t>(r.u("lent index", kU32));
  u.coop.lent = r.b("lent");
  u.route.progress_time = r.num("progress time");
  u.route.best_distance = r.num("best distance", 0);
  x.move_key = static_cast<std::uint16_t>(r.u("move key", std::numeric_limits<std::uint16_t>::max()));
  x.path_pending = r.b("path pending");
  x.order_serial = static_cast<std::uint32_t>(r.u("order serial", kU32));
  x.next.position = r.vec("move", s.near);
  x.next.heading = r.num("move heading");
  x.next.speed = r.num("move speed", 0, kMaxStateSpeed);
  x.next_from_prediction = r.b("move from prediction");
  x.yield_path = r.points("yield path", s.near);
  (void)r.b("tunnelled");  // version 1 kept the step's own tunnelling flag; the referee counts now
  x.last_repath = r.num("last re-path");
  x.platoon = static_cast<std::uint32_t>(r.u("platoon", kU32));
  x.last_bridge = r.i("last bridge", -1, kU32);
  x.bridge_time = r.num("bridge time");
  x.last_passage = r.i("last passage", -1, kU32);
  x.passage_flow = r.vec("passage flow", Box{{-kMaxFlow, -kMaxFlow}, {kMaxFlow, kMaxFlow}});
  x.passage_time = r.num("passage time");
  u.goal.formation = r.more();
  if (u.goal.formation) u.goal.formation_point = r.vec("formation point", s.world);
  r.done();
  // The order and its state: the points the order's kind takes (as a scenario's), and a
  // state that goes to an order point only with one to go to.
  const auto [min_points, max_points] = order_points(u.route.order.kind);
  if (u.route.order.points.size() < min_points || u.route.order.points.size() > max_points) {
    r.fail("a " + std::string(kind_name(u.route.order.kind)) + " order with " +
           std::to_string(u.route.order.points.size()) + " points");
  }
  const bool needs_point = u.route.state == MoveState::WaitingForPath || u.route.state == MoveState::Moving ||
                           u.route.state == MoveState::IncrementWaypoint;
  if (needs_point && u.route.order.points.empty())
    r.fail(std::string("state ") + to_string(u.route.state) + " with no order point to go to");
  // (A waypoint index past the path's end is valid: it means the path is done, and every
  // reader checks it; a path can be replaced by a shorter one while the index stays.)
}

// What a unit's fields say of one another and of the scenario (both versions): its class
// and faction exist, its order has the points its kind takes, its state has a point to go
// to, its order point is one of them.
void check_unit(const SimUnit& u, const StateBounds& s, const std::string& where, Refusal& refusal) {
  auto fail = [&](const std::string& message) { refusal.fail(where, message); };
  if (u.movement_class >= s.classes)
    fail("movement class " + std::to_string(u.movement_class) + " is not in the scenario");
  if (u.faction >= std::max<std::size_t>(s.factions, 1))
    fail("faction " + std::to_string(u.faction) + " is not in the scenario");
  if (u.route.order_point >= std::max<std::size_t>(u.route.order.points.size(), 1))
    fail("order point index " + std::to_string(u.route.order_point) + " past the order's points");
  if (u.route.patrol_step != 1 && u.route.patrol_step != -1)
    fail("patrol step " + std::to_string(u.route.patrol_step) + ": expected 1 or -1");
  const auto [min_points, max_points] = order_points(u.route.order.kind);
  if (u.route.order.points.size() < min_points || u.route.order.points.size() > max_points) {
    fail("a " + std::string(kind_name(u.route.order.kind)) + " order with " +
         std::to_string(u.route.order.points.size()) + " points");
  }
  const bool needs_point = u.route.state == MoveState::WaitingForPath || u.route.state == MoveState::Moving ||
                           u.route.state == MoveState::IncrementWaypoint;
  if (needs_point && u.route.order.points.empty())
    fail(std::string("state ") + to_string(u.route.state) + " with no order point to go to");
}

// ---- Units as named fields (version 2): each value's JSON, and back, by its type.

Json value_json(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}
Json value_json(bool v) { return v; }
template <class T>
requires std::is_integral_v<T> Json value_json(T v) { return v; }
template <class E>
requires std::is_enum_v<E> Json value_json(E v) { return static_cast<std::uint64_t>(v); }
Json value_json(Vec2 p) { return Json::array({value_json(p.x), value_json(p.y)}); }
Json value_json(UnitId id) { return Json::array({id.index, id.generation}); }
Json value_json(const std::vector<Vec2>& ps) {
  Json out = Json::array();
  for (const Vec2 p : ps) out.push_back(value_json(p));
  return out;
}
Json value_json(const Order& o) {
  return Json{
      {"kind", value_json(o.kind)}, {"patrol", value_json(o.patrol)}, {"points", value_json(o.points)}};
}
Json value_json(const MotionState& m) {
  return Json{{"position", value_json(m.position)},
              {"heading", value_json(m.heading)},
              {"speed", value_json(m.speed)}};
}
Json value_json(const PredictedList& ps) {
  Json out = Json::array();
  for (const PredictedPoint& p : ps) {
    out.push_back(Json{{"position", value_json(p.position)},
                       {"heading", value_json(p.heading)},
                       {"speed", value_json(p.speed)},
                       {"time", value_json(p.time)},
                       {"waypoint", p.waypoint}});
  }
  return out;
}

// The last value of each enumeration a state holds.
constexpr MoveState last_of(MoveState) { return MoveState::InPlatoon; }
constexpr Yield last_of(Yield) { return Yield::Detour; }
constexpr OrderKind last_of(OrderKind) { return OrderKind::Stop; }
constexpr PatrolMode last_of(PatrolMode) { return PatrolMode::BackForth; }
constexpr PlatoonOrderState last_of(PlatoonOrderState) { return PlatoonOrderState::Failed; }
constexpr PlatoonPhase last_of(PlatoonPhase) { return PlatoonPhase::BridgeWait; }
constexpr FormationShape last_of(FormationShape) { return FormationShape::Custom; }
constexpr HeadingCase last_of(HeadingCase) { return HeadingCase::AheadTurnAtEnd; }

// Reads values as value_json writes them, each checked against its bound; a refusal names
// the value's JSON path (`sim_state.units[3].body.position[1]`).
// After a refusal every read does nothing (see Refusal).
struct ValueReader {
  const StateBounds& s;
  Refusal& refusal;

  bool ok() const { return refusal.ok(); }
  void fail(const std::string& where, const std::string& message) const { refusal.fail(where, message); }
  const Json& member(const Json& obj, const char* key, const std::string& where) const {
    if (!ok()) return no_value();
    if (!obj.is_object()) {
      fail(where, "expected an object, found " + shown(obj));
      return no_value();
    }
    return field(obj, key, where, refusal);
  }
  // The list at `where`, or an empty one (refused when it is no list).
  const Json& list(const Json& v, const std::string& where, const char* what = "a list") const {
    if (!ok()) return no_list();
    if (!v.is_array()) {
      fail(where, std::string("expected ") + what + ", found " + shown(v));
      return no_list();
    }
    return v;
  }

  void read(const Json& v, double& out, fields::Bound b, const std::string& where) const {
    if (!ok()) return;
    if (v.is_string() && (v == "nan" || v == "inf" || v == "-inf"))
      return fail(where, "expected a finite number, found " + v.get<std::string>());
    if (!v.is_number()) return fail(where, "expected a number, found " + shown(v));
    out = v.get<double>();
    if (!std::isfinite(out)) return fail(where, "expected a finite number, found " + shown(out));
    double lo = -kHuge, hi = kHuge;
    if (b == fields::Bound::Speed) lo = 0, hi = kMaxStateSpeed;
    if (b == fields::Bound::Share) lo = 0, hi = 1;
    if (b == fields::Bound::NotNegative) lo = 0;
    if (out < lo || out > hi)
      fail(where, "expected a number in [" + shown(lo) + ", " + shown(hi) + "], found " + shown(out));
  }
  void read(const Json& v, bool& out, fields::Bound, const std::string& where) const {
    if (!ok()) return;
    if (v.is_boolean()) {
      out = v.get<bool>();
    } else if (v.is_number_integer() && (v == 0 || v == 1)) {
      out = v == 1;
    } else {
      fail(where, "expected true or false, found " + shown(v));
    }
  }
  template <class T>
  requires std::is_integral_v<T>
  void read(const Json& v, T& out, fields::Bound b, const std::string& where) const {
    if (!ok()) return;
    using L = std::numeric_limits<T>;
    const bool fits =
        v.is_number_integer() && (v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(L::max())
                                                         : v.get<std::int64_t>() >= std::int64_t(L::min()));
    if (!fits) {
      return fail(where, "expected a whole number in [" + std::to_string(L::min()) + ", " +
                             std::to_string(L::max()) + "], found " + shown(v));
    }
    out = v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>())
                                 : static_cast<T>(v.get<std::int64_t>());
    if (b == fields::Bound::Step && out != T(1) && !(std::is_signed_v<T> && out == T(-1)))
      return fail(where, "expected 1 or -1, found " + shown(v));
    if (b == fields::Bound::Index &&
        !(out == T(-1) || (out >= T(0) && std::uint64_t(out) <= std::uint64_t{0xffffffffu})))
      fail(where, "expected -1 (none) or an index in [0, 4294967295], found " + shown(v));
  }
  template <class E>
  requires std::is_enum_v<E>
  void read(const Json& v, E& out, fields::Bound, const std::string& where) const {
    if (!ok()) return;
    const auto last = static_cast<std::uint64_t>(last_of(E{}));
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > last)
      return fail(where, "expected a whole number in [0, " + std::to_string(last) + "], found " + shown(v));
    out = static_cast<E>(v.get<std::uint64_t>());
  }
  void read(const Json& v, Vec2& out, fields::Bound b, const std::string& where) const {
    if (!ok()) return;
    if (!v.is_array() || v.size() != 2) return fail(where, "expected [x, y], found " + shown(v));
    read(v[0], out.x, fields::Bound::Any, where + "[0]");
    read(v[1], out.y, fields::Bound::Any, where + "[1]");
    if (!ok()) return;
    Box box = s.near;
    if (b == fields::Bound::World) box = s.world;
    if (b == fields::Bound::Flow) box = Box{{-kMaxFlow, -kMaxFlow}, {kMaxFlow, kMaxFlow}};
    if (!box.contains(out))
      fail(where, "(" + shown(out.x) + ", " + shown(out.y) + ") is outside " + box.text());
  }
  void read(const Json& v, UnitId& out, fields::Bound, const std::string& where) const {
    if (!ok()) return;
    if (!v.is_array() || v.size() != 2) return fail(where, "expected [index, generation], found " + shown(v));
    read(v[0], out.index, fields::Bound::Any, where + "[0]");
    read(v[1], out.generation, fields::Bound::Any, where + "[1]");
  }
  void read(const Json& v, std::vector<Vec2>& out, fields::Bound b, const std::string& where) const {
    const Json& points = list(v, where, "a list of points");
    out.resize(points.size());
    for (std::size_t k = 0; k < points.size() && ok(); ++k)
      read(points[k], out[k], b, where + "[" + std::to_string(k) + "]");
  }
  void read(const Json& v, UnitPath& out, fields::Bound b, const std::string& where) const {
    std::vector<Vec2> points;
    read(v, points, b, where);
    if (ok()) out = std::move(points);
  }
  void read(const Json& v, Order& out, fields::Bound b, const std::string& where) const {
    read(member(v, "kind", where), out.kind, b, where + ".kind");
    read(member(v, "patrol", where), out.patrol, b, where + ".patrol");
    read(member(v, "points", where), out.points, b, where + ".points");
  }
  void read(const Json& v, MotionState& out, fields::Bound b, const std::string& where) const {
    read(member(v, "position", where), out.position, b, where + ".position");
    read(member(v, "heading", where), out.heading, fields::Bound::Any, where + ".heading");
    read(member(v, "speed", where), out.speed, fields::Bound::Speed, where + ".speed");
  }
  void read(const Json& v, PredictedList& out, fields::Bound b, const std::string& where) const {
    const Json& points = list(v, where);
    if (points.size() > kMaxPredicted)
      return fail(where, "more than " + std::to_string(kMaxPredicted) + " points");
    out.resize(points.size());
    for (std::size_t k = 0; k < points.size() && ok(); ++k) {
      const std::string at = where + "[" + std::to_string(k) + "]";
      read(member(points[k], "position", at), out[k].position, b, at + ".position");
      read(member(points[k], "heading", at), out[k].heading, fields::Bound::Any, at + ".heading");
      read(member(points[k], "speed", at), out[k].speed, fields::Bound::Speed, at + ".speed");
      read(member(points[k], "time", at), out[k].time, fields::Bound::Any, at + ".time");
      read(member(points[k], "waypoint", at), out[k].waypoint, fields::Bound::Any, at + ".waypoint");
    }
  }
};

// A unit as named fields: its own, then one object per part, then "sim" (what only the
// simulation reads).
Json unit_json(const SimUnit& u, const UnitPrivate& x) {
  Json out = Json::object();
  fields::each_unit_field([&](const char* part, auto part_of, const auto& f) {
    Json& into = *part ? out[part] : out;
    into[f.name] = value_json(part_of(u).*f.member);
  });
  Json& sim = out["sim"];
  fields::each(fields::kPrivate, [&](const auto& f) { sim[f.name] = value_json(x.*f.member); });
  return out;
}

void read_unit_json(const Json& v, SimUnit& u, UnitPrivate& x, const StateBounds& s, const std::string& where,
                    Refusal& refusal) {
  const ValueReader r{s, refusal};
  if (!v.is_object()) return refusal.fail(where, "expected an object, found " + shown(v));
  fields::each_unit_field([&](const char* part, auto part_of, const auto& f) {
    const std::string at = *part ? where + "." + part : where;
    const Json& obj = *part ? r.member(v, part, where) : v;
    r.read(r.member(obj, f.name, at), part_of(u).*f.member, f.bound, at + "." + f.name);
  });
  const Json& sim = r.member(v, "sim", where);
  fields::each(fields::kPrivate, [&](const auto& f) {
    r.read(r.member(sim, f.name, where + ".sim"), x.*f.member, f.bound, where + ".sim." + f.name);
  });
}

// ---- Platoons (platoon_drive.hpp): each platoon as an object of named fields.

Json value_json(const std::vector<double>& vs) {
  Json out = Json::array();
  for (const double v : vs) out.push_back(value_json(v));
  return out;
}
Json formation_json(const PlatoonFormation& f) {
  return Json{{"shape", value_json(f.shape)}, {"offsets", value_json(f.offsets)}};
}

Json platoon_json(const PlatoonRun& p) {
  Json out = Json::object();
  out["group"] = p.group;
  Json slots = Json::array();
  for (const UnitId id : p.slots) slots.push_back(value_json(id));
  out["slots"] = std::move(slots);
  out["path_class"] = p.path_class;
  out["from"] = formation_json(p.from);
  out["to"] = formation_json(p.to);
  out["spacing"] = value_json(p.spacing);
  const PlatoonParams& a = p.params;
  out["params"] = Json{{"max_speed", value_json(a.max_speed)},
                       {"acceleration", value_json(a.acceleration)},
                       {"turn_rate", value_json(a.turn_rate)},
                       {"corner_lookahead", value_json(a.corner_lookahead)},
                       {"slack", value_json(a.slack)},
                       {"wait_factor", value_json(a.wait_factor)},
                       {"resume_factor", value_json(a.resume_factor)},
                       {"obstacle_slowdown", value_json(a.obstacle_slowdown)},
                       {"formation_change_seconds", value_json(a.formation_change_seconds)},
                       {"final_heading_tolerance", value_json(a.final_heading_tolerance)},
                       {"wait_patience", value_json(a.wait_patience)},
                       {"press_on_factor", value_json(a.press_on_factor)}};
  out["order"] = value_json(p.order);
  out["goal"] = value_json(p.goal);
  out["legs"] = value_json(p.legs);
  out["final_heading"] = p.final_heading ? value_json(*p.final_heading) : Json(nullptr);
  out["requester"] = value_json(p.requester);
  out["path"] = value_json(p.path);
  out["walk"] =
      Json{{"points", value_json(std::vector<Vec2>(p.walk.points().begin(), p.walk.points().end()))},
           {"lead_in", value_json(p.walk.path_start())}};
  const PlatoonMotion& m = p.motion;
  out["motion"] = Json{{"position", value_json(m.position)},
                       {"heading", value_json(m.heading)},
                       {"speed", value_json(m.speed)},
                       {"along", value_json(m.along)},
                       {"phase", value_json(m.phase)},
                       {"final_heading", value_json(m.final_heading)},
                       {"formation_blend", value_json(m.formation_blend)},
                       {"wait_best", value_json(m.wait_best)},
                       {"wait_stalled", value_json(m.wait_stalled)},
                       {"pressing_on", value_json(m.pressing_on)}};
  out["morph"] = value_json(p.morph);
  Json targets = Json::array();
  for (const SlotTarget& t : p.targets) {
    targets.push_back(Json{{"formation", value_json(t.formation)},
                           {"column", value_json(t.column)},
                           {"drive_to", value_json(t.drive_to)},
                           {"morph", value_json(t.morph)}});
  }
  out["targets"] = std::move(targets);
  Json crews = Json::array();
  for (const CrewState& c : p.crews) {
    const std::vector<Vec2> private_points(c.private_path.points().begin(), c.private_path.points().end());
    crews.push_back(
        Json{{"direction", value_json(c.direction)},
             {"backing_turn", value_json(c.backing_turn)},
             {"turn_side", value_json(c.turn_side)},
             {"heading_case", value_json(c.heading_case)},
             {"steering", value_json(c.steering)},
             {"avoided", value_json(c.avoided)},
             {"stopped", value_json(c.stopped)},
             {"private_path", Json{{"points", value_json(private_points)},
                                   {"index", c.private_path.index()},
                                   {"release_distance", value_json(c.private_path.release_distance())}}},
             {"private_path_pending", value_json(c.private_path_pending)},
             {"last_check", value_json(c.last_check)},
             {"private_paths", value_json(c.private_paths)},
             {"three_point_turns", value_json(c.three_point_turns)}});
  }
  out["crews"] = std::move(crews);
  out["arrived_time"] = value_json(p.arrived_time);
  return out;
}

// A platoon as platoon_json writes it, each value checked; `slots` the state's units (a
// slot names one of them, or none: index max). Cross-checks: the formations have one
// offset per slot, the per-slot lists none or one per slot, the path class exists.
PlatoonRun read_platoon_json(const Json& v, const StateBounds& s, std::span<const SimUnit> slots,
                             const std::string& where, Refusal& refusal) {
  const ValueReader r{s, refusal};
  using fields::Bound;
  auto at = [&](const char* key) -> const Json& { return r.member(v, key, where); };
  PlatoonRun p;
  r.read(at("group"), p.group, Bound::Any, where + ".group");
  const Json& slot_list = r.list(at("slots"), where + ".slots");
  p.slots.resize(slot_list.size());
  for (std::size_t k = 0; k < slot_list.size() && r.ok(); ++k) {
    const std::string w = where + ".slots[" + std::to_string(k) + "]";
    r.read(slot_list[k], p.slots[k], Bound::Any, w);
    if (!r.ok()) return p;
    const UnitId id = p.slots[k];
    if (id.index == std::numeric_limits<std::uint32_t>::max()) continue;  // an empty slot
    if (id.index >= slots.size() || slots[id.index].id.generation != id.generation ||
        !slots[id.index].alive) {
      r.fail(w, "names unit [" + std::to_string(id.index) + ", " + std::to_string(id.generation) +
                    "], not in the state");
    }
  }
  r.read(at("path_class"), p.path_class, Bound::Any, where + ".path_class");
  if (r.ok() && p.path_class >= s.classes)
    r.fail(where + ".path_class",
           "movement class " + std::to_string(p.path_class) + " is not in the scenario");
  auto formation = [&](const char* key, PlatoonFormation& f) {
    const std::string w = where + "." + key;
    const Json& j = at(key);
    r.read(r.member(j, "shape", w), f.shape, Bound::Any, w + ".shape");
    r.read(r.member(j, "offsets", w), f.offsets, Bound::Any, w + ".offsets");
    if (r.ok() && f.offsets.size() != p.slots.size()) {
      r.fail(w + ".offsets",
             std::to_string(f.offsets.size()) + " offsets for " + std::to_string(p.slots.size()) + " slots");
    }
  };
  formation("from", p.from);
  formation("to", p.to);
  r.read(at("spacing"), p.spacing, Bound::NotNegative, where + ".spacing");
  {
    const std::string w = where + ".params";
    const Json& j = at("params");
    PlatoonParams& a = p.params;
    auto num = [&](const char* key, double& out) {
      r.read(r.member(j, key, w), out, Bound::Any, w + "." + key);
    };
    num("max_speed", a.max_speed);
    num("acceleration", a.acceleration);
    num("turn_rate", a.turn_rate);
    num("corner_lookahead", a.corner_lookahead);
    num("slack", a.slack);
    num("wait_factor", a.wait_factor);
    num("resume_factor", a.resume_factor);
    num("obstacle_slowdown", a.obstacle_slowdown);
    num("formation_change_seconds", a.formation_change_seconds);
    num("final_heading_tolerance", a.final_heading_tolerance);
    // Saved before platoons pressed on past a stalled wait: the defaults.
    if (j.contains("wait_patience")) num("wait_patience", a.wait_patience);
    if (j.contains("press_on_factor")) num("press_on_factor", a.press_on_factor);
  }
  r.read(at("order"), p.order, Bound::Any, where + ".order");
  r.read(at("goal"), p.goal, Bound::World, where + ".goal");
  // Saved before waypoint orders planned leg by leg: none left.
  if (v.contains("legs")) r.read(at("legs"), p.legs, Bound::World, where + ".legs");
  if (const Json& h = at("final_heading"); !h.is_null()) {
    double heading = 0;
    r.read(h, heading, Bound::Any, where + ".final_heading");
    p.final_heading = heading;
  }
  r.read(at("requester"), p.requester, Bound::Any, where + ".requester");
  r.read(at("path"), p.path, Bound::Near, where + ".path");
  {
    const std::string w = where + ".walk";
    const Json& j = at("walk");
    std::vector<Vec2> points;
    double lead_in = 0;
    r.read(r.member(j, "points", w), points, Bound::Near, w + ".points");
    r.read(r.member(j, "lead_in", w), lead_in, Bound::NotNegative, w + ".lead_in");
    for (std::size_t k = 1; k < points.size() && r.ok(); ++k) {
      if (points[k] == points[k - 1])
        r.fail(w + ".points[" + std::to_string(k) + "]", "repeats the point before it");
    }
    if (!r.ok()) return p;
    p.walk = PathWalk::from_vertices(std::move(points), lead_in);
  }
  {
    const std::string w = where + ".motion";
    const Json& j = at("motion");
    PlatoonMotion& m = p.motion;
    auto get = [&](const char* key, auto& out, Bound b) {
      r.read(r.member(j, key, w), out, b, w + "." + key);
    };
    get("position", m.position, Bound::Near);
    get("heading", m.heading, Bound::Any);
    get("speed", m.speed, Bound::Speed);
    get("along", m.along, Bound::Any);
    get("phase", m.phase, Bound::Any);
    get("final_heading", m.final_heading, Bound::Any);
    get("formation_blend", m.formation_blend, Bound::Share);
    if (j.contains("wait_best")) get("wait_best", m.wait_best, Bound::NotNegative);
    if (j.contains("wait_stalled")) get("wait_stalled", m.wait_stalled, Bound::NotNegative);
    if (j.contains("pressing_on")) get("pressing_on", m.pressing_on, Bound::Any);
  }
  auto per_slot = [&](const char* key) -> const Json& {
    const Json& j = r.list(at(key), where + "." + key);
    if (!j.empty() && j.size() != p.slots.size()) {
      r.fail(where + "." + key,
             std::to_string(j.size()) + " entries for " + std::to_string(p.slots.size()) + " slots");
      return no_list();
    }
    return j;
  };
  const Json& morph = per_slot("morph");
  p.morph.resize(morph.size());
  for (std::size_t k = 0; k < morph.size() && r.ok(); ++k)
    r.read(morph[k], p.morph[k], Bound::Share, where + ".morph[" + std::to_string(k) + "]");
  const Json& targets = per_slot("targets");
  p.targets.resize(targets.size());
  for (std::size_t k = 0; k < targets.size() && r.ok(); ++k) {
    const std::string w = where + ".targets[" + std::to_string(k) + "]";
    SlotTarget& t = p.targets[k];
    r.read(r.member(targets[k], "formation", w), t.formation, Bound::Near, w + ".formation");
    r.read(r.member(targets[k], "column", w), t.column, Bound::Near, w + ".column");
    r.read(r.member(targets[k], "drive_to", w), t.drive_to, Bound::Near, w + ".drive_to");
    r.read(r.member(targets[k], "morph", w), t.morph, Bound::Share, w + ".morph");
  }
  const Json& crews = per_slot("crews");
  p.crews.resize(crews.size());
  for (std::size_t k = 0; k < crews.size() && r.ok(); ++k) {
    const std::string w = where + ".crews[" + std::to_string(k) + "]";
    const Json& j = crews[k];
    CrewState& c = p.crews[k];
    auto get = [&](const char* key, auto& out, Bound b) {
      r.read(r.member(j, key, w), out, b, w + "." + key);
    };
    get("direction", c.direction, Bound::Step);
    get("backing_turn", c.backing_turn, Bound::Any);
    get("turn_side", c.turn_side, Bound::Any);
    if (r.ok() && (c.turn_side < -1 || c.turn_side > 1))
      r.fail(w + ".turn_side", "expected -1, 0 or 1, found " + std::to_string(c.turn_side));
    get("heading_case", c.heading_case, Bound::Any);
    get("steering", c.steering, Bound::Any);
    get("avoided", c.avoided, Bound::Any);
    get("stopped", c.stopped, Bound::Any);
    {
      const std::string pw = w + ".private_path";
      const Json& pj = r.member(j, "private_path", w);
      std::vector<Vec2> points;
      std::uint64_t index = 0;
      double release = 0;
      r.read(r.member(pj, "points", pw), points, Bound::Near, pw + ".points");
      r.read(r.member(pj, "index", pw), index, Bound::Any, pw + ".index");
      r.read(r.member(pj, "release_distance", pw), release, Bound::NotNegative, pw + ".release_distance");
      if (r.ok() && index > points.size()) {
        r.fail(pw + ".index",
               "index " + std::to_string(index) + " past its " + std::to_string(points.size()) + " points");
      }
      if (!r.ok()) return p;
      c.private_path = PrivatePath::restored(std::move(points), static_cast<std::size_t>(index), release);
    }
    get("private_path_pending", c.private_path_pending, Bound::Any);
    get("last_check", c.last_check, Bound::Any);
    get("private_paths", c.private_paths, Bound::Any);
    get("three_point_turns", c.three_point_turns, Bound::Any);
  }
  r.read(at("arrived_time"), p.arrived_time, Bound::Any, where + ".arrived_time");
  return p;
}

// The slot `id` names exists in a state of `slots` slots.
bool names_slot(UnitId id, std::size_t slots) { return id.index < slots; }

}  // namespace

std::string Simulation::state_json() const {
  Json state;
  state["version"] = kStateVersion;
  state["steps"] = counters_.steps;
  Json units = Json::array();
  for (std::size_t k = 0; k < units_.size(); ++k) units.push_back(unit_json(units_[k], impl_->extra[k]));
  state["units"] = std::move(units);
  // Arrivals (arrival.cpp), per unit with any of them: beside a taken goal, since when it
  // has stood still off its goal, walking back, and its wait before the next walk back;
  // only when some unit has one, so that saved games without them read as before.
  Json goals = Json::array();
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const UnitPrivate& x = impl_->extra[k];
    if (!units_[k].goal.taken && !units_[k].goal.walking_back && x.still_since == 0 &&
        x.settle == kSettleSeconds)
      continue;
    Tape t;
    t.u(k);
    t.b(units_[k].goal.taken);
    t.num(x.still_since);
    t.b(units_[k].goal.walking_back);
    t.num(x.settle);
    goals.push_back(t.take());
  }
  if (!goals.empty()) state["goals"] = std::move(goals);
  state["free_slots"] = impl_->free_slots;
  Json paths = Json::array();
  for (const PathRequest& r : impl_->paths.queued()) {
    Tape t;
    t.u(r.unit.index);
    t.u(r.unit.generation);
    t.u(r.movement_class);
    t.vec(r.start);
    t.vec(r.goal);
    paths.push_back(t.take());
  }
  state["path_requests"] = std::move(paths);
  Json memory = Json::array();
  for (const Memory& m : memory_) {
    Tape t;
    t.u(m.a.index);
    t.u(m.a.generation);
    t.u(m.b.index);
    t.u(m.b.generation);
    t.num(m.until);
    t.u(static_cast<std::uint64_t>(m.rule));
    memory.push_back(t.take());
  }
  state["memory"] = std::move(memory);
  Json collisions = Json::array();
  for (const Collision& c : collisions_) {
    Tape t;
    t.u(c.a.index);
    t.u(c.a.generation);
    t.u(c.b.index);
    t.u(c.b.generation);
    t.b(c.hard);
    t.b(c.immediate);
    t.num(c.time);
    t.vec(c.point);
    t.u(static_cast<std::uint64_t>(c.state));
    t.u(static_cast<std::uint64_t>(c.rule));
    t.vec(c.get_to);
    collisions.push_back(t.take());
  }
  state["collisions"] = std::move(collisions);
  Tape counters;
  counters.u(counters_.steps);
  counters.u(counters_.repaths);
  counters.u(counters_.path_requests);
  counters.u(counters_.collisions_found);
  state["counters"] = counters.take();
  Json density;
  density["width"] = density_.width;
  density["height"] = density_.height;
  density["cell_size"] = density_.cell_size;
  density["max_value"] = density_.max_value;
  // Sparse: most cells never saw a collision.
  Tape cells;
  for (std::size_t k = 0; k < density_.value.size(); ++k) {
    if (density_.value[k] == 0.0f) continue;
    cells.u(k);
    cells.num(density_.value[k]);
  }
  density["cells"] = cells.take();
  state["density"] = std::move(density);
  // The density cost on the world as last refreshed (SimSettings::density_cost), sparse;
  // only when some cell carries one, so that saved games without it read as before.
  if (const std::vector<float>& overlay = world_->cost_overlay(); !overlay.empty()) {
    Tape cost;
    for (std::size_t k = 0; k < overlay.size(); ++k) {
      if (overlay[k] == 1.0f) continue;
      cost.u(k);
      cost.num(overlay[k]);
    }
    state["density_cost"] = cost.take();
  }
  Json bridges = Json::array();
  for (const Bridge& b : scenario().bridges) {
    if (const auto holder = impl_->bridges.holder(b.id)) bridges.push_back(Json::array({b.id, *holder}));
  }
  state["bridges"] = std::move(bridges);
  Json passages = Json::array();
  for (std::size_t c = 0; c < impl_->passage_maps.size(); ++c) {
    const std::vector<Passage>& ps = impl_->passage_maps[c].passages();
    for (std::size_t k = 0; k < ps.size(); ++k) {
      const Passage& p = ps[k];
      if (!p.held && !p.queued && p.inside == 0 && p.waiting == 0) continue;
      Tape t;
      t.u(c);
      t.u(k);
      t.b(p.held);
      t.vec(p.flow);
      t.b(p.queued);
      t.vec(p.queue_flow);
      t.num(p.queued_since);
      t.u(p.inside);
      t.u(p.waiting);
      passages.push_back(t.take());
    }
  }
  state["passages"] = std::move(passages);
  // Knots' passages (knots.hpp), dissolved ones too: their indices follow the narrow
  // passages of the class's map, in order. Written only when there are some.
  Json knots = Json::array();
  for (std::size_t c = 0; c < impl_->passage_maps.size(); ++c) {
    const std::vector<Passage>& ps = impl_->passage_maps[c].passages();
    for (std::size_t k = 0; k < ps.size(); ++k) {
      const Passage& p = ps[k];
      if (!p.knot) continue;
      Tape t;
      t.u(c);
      t.u(k);
      t.num(p.seen);
      t.vec(p.bounds.lo);
      t.vec(p.bounds.hi);
      t.u(p.cells.size());
      for (const std::uint32_t cell : p.cells) t.u(cell);
      knots.push_back(t.take());
    }
  }
  if (!knots.empty()) state["knots"] = std::move(knots);
  state["passage_maps"] = !impl_->passage_maps.empty();
  state["next_order_platoon"] = impl_->next_order_platoon;
  // Platoons (platoon_drive.hpp), matched to the scenario's groups by group id; only when
  // the scenario has some, so that saved games without them read as before.
  if (!impl_->platoons.empty()) {
    Json platoons = Json::array();
    for (const PlatoonRun& p : impl_->platoons) platoons.push_back(platoon_json(p));
    state["platoons"] = std::move(platoons);
  }
  return state.dump();
}

Status Simulation::restore_state(std::string_view text) {
  const ParsedJson parsed = parse_json_text(text);
  if (!parsed.ok) {
    return make_error(ErrorCode::Parse, "sim_state",
                      "not JSON (a syntax error at byte " + std::to_string(parsed.error_byte) + ")");
  }
  const Json& state = parsed.value;
  // One pass over the whole state before anything is taken: every number finite and within
  // its bounds, every index in range, every cross-reference consistent (docs/formats-sim.md,
  // "Checks"). A state that passes can be stepped, saved and read again. The first problem
  // met is the one refused.
  Refusal refusal;
  const auto refused = [](const std::string& where, const std::string& message) -> Status {
    return make_error(ErrorCode::Value, where, message);
  };
  if (!state.is_object()) return refused("sim_state", "expected an object, found " + shown(state));
  const Json& version = field(state, "version", "sim_state", refusal);
  if (!refusal.ok()) return refusal.status();
  if (!version.is_number_integer() || version < 1 || version > kStateVersion) {
    return refused("sim_state.version",
                   "expected 1 to " + std::to_string(kStateVersion) + ", found " + shown(version));
  }
  const bool tapes = version == 1;
  const StateBounds bounds(scenario());
  const std::size_t classes = bounds.classes;
  if (classes == 0) return refused("sim_state", "the scenario has no movement classes");
  // Units.
  const Json& units = list_field(state, "units", "sim_state", refusal);
  if (!refusal.ok()) return refusal.status();
  if (units.size() > std::numeric_limits<std::uint32_t>::max() / 2)
    return refused("sim_state.units", "too many slots (" + std::to_string(units.size()) + ")");
  std::vector<SimUnit> slots(units.size());
  std::vector<UnitPrivate> extra(units.size());
  for (std::size_t k = 0; k < units.size(); ++k) {
    const std::string where = "sim_state.units[" + std::to_string(k) + "]";
    if (tapes) {
      Reader r(units[k], where, refusal);
      read_unit(r, slots[k], extra[k], bounds);
    } else {
      read_unit_json(units[k], slots[k], extra[k], bounds, where, refusal);
    }
    if (!refusal.ok()) return refusal.status();
    check_unit(slots[k], bounds, where, refusal);
    if (!refusal.ok()) return refusal.status();
    if (slots[k].id.index != k) {
      return refused(where,
                     "slot index " + std::to_string(slots[k].id.index) + " at position " + std::to_string(k));
    }
  }
  // What units name of one another and of the world.
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const std::string where = "sim_state.units[" + std::to_string(k) + "]";
    const SimUnit& u = slots[k];
    const UnitPrivate& x = extra[k];
    // (A yield with nobody asking, waiting at a passage, names slot max: "nobody".)
    const bool nobody = u.coop.yield_to.index == std::numeric_limits<std::uint32_t>::max();
    if (u.coop.yield != Yield::None && !nobody && !names_slot(u.coop.yield_to, slots.size()))
      return refused(where,
                     "yield_to names slot " + std::to_string(u.coop.yield_to.index) + ", not in the state");
    // (A rank lent by a unit done or idle carries its high bit: effective_rank.)
    const std::uint32_t lent_slot = u.coop.lent_index & 0x7fffffffu;
    if (u.coop.lent && lent_slot >= slots.size())
      return refused(where, "lent rank names slot " + std::to_string(lent_slot) + ", not in the state");
    if (x.last_bridge >= 0) {
      const auto& bridges = scenario().bridges;
      const bool known = std::any_of(bridges.begin(), bridges.end(), [&](const Bridge& b) {
        return static_cast<std::int64_t>(b.id) == x.last_bridge;
      });
      if (!known)
        return refused(where, "last bridge " + std::to_string(x.last_bridge) + " is not in the scenario");
    }
    // A saved game is saved again as a scenario, whose unit ids are unique.
    if (u.alive) {
      for (std::size_t j = 0; j < k; ++j) {
        if (slots[j].alive && slots[j].scenario_id == u.scenario_id) {
          return refused(where, "scenario id " + std::to_string(u.scenario_id) + " is also units[" +
                                    std::to_string(j) + "]'s");
        }
      }
    }
  }
  if (const auto it = state.find("goals"); it != state.end()) {
    if (!it->is_array()) return refused("sim_state.goals", "expected a list, found " + shown(*it));
    for (std::size_t k = 0; k < it->size(); ++k) {
      Reader r((*it)[k], "sim_state.goals[" + std::to_string(k) + "]", refusal);
      if (slots.empty()) r.fail("names a slot in a state with none");
      if (!refusal.ok()) return refusal.status();
      const std::uint64_t slot = r.u("slot", slots.size() - 1);
      if (!refusal.ok()) return refusal.status();
      slots[slot].goal.taken = r.b("goal taken");
      extra[slot].still_since = r.num("still since", 0);
      slots[slot].goal.walking_back = r.b("walking back");
      extra[slot].settle = r.num("settle", kSettleSeconds, kMaxSettleSeconds);
      r.done();
      if (!refusal.ok()) return refusal.status();
    }
  }
  const Json& free_slots = list_field(state, "free_slots", "sim_state", refusal);
  std::vector<std::uint32_t> free;
  {
    Reader r(free_slots, "sim_state.free_slots", refusal);
    for (std::size_t k = 0; k < free_slots.size(); ++k) {
      if (slots.empty()) r.fail("a free slot in a state with none");
      if (!refusal.ok()) return refusal.status();
      const auto slot = static_cast<std::uint32_t>(r.u("slot", slots.size() - 1));
      if (!refusal.ok()) return refusal.status();
      if (slots[slot].alive) r.fail("slot " + std::to_string(slot) + " is not free");
      if (std::find(free.begin(), free.end(), slot) != free.end())
        r.fail("slot " + std::to_string(slot) + " listed twice");
      free.push_back(slot);
    }
    if (!refusal.ok()) return refusal.status();
  }
  auto unit_id = [&](Reader& r, const char* index, const char* generation) {
    UnitId id;
    id.index = static_cast<std::uint32_t>(r.u(index, std::numeric_limits<std::uint32_t>::max()));
    id.generation = static_cast<std::uint32_t>(r.u(generation, std::numeric_limits<std::uint32_t>::max()));
    return id;
  };
  // Path requests.
  std::vector<PathRequest> requests;
  const Json& paths = list_field(state, "path_requests", "sim_state", refusal);
  for (std::size_t k = 0; k < paths.size(); ++k) {
    Reader r(paths[k], "sim_state.path_requests[" + std::to_string(k) + "]", refusal);
    PathRequest q;
    q.unit = unit_id(r, "unit index", "unit generation");
    q.movement_class = r.u("movement class", classes - 1);
    q.start = r.vec("start", bounds.world);
    q.goal = r.vec("goal", bounds.world);
    r.done();
    if (refusal.ok() && q.unit.index >= slots.size()) r.fail("names no slot");
    if (!refusal.ok()) return refusal.status();
    requests.push_back(q);
  }
  // Memory and collisions.
  std::vector<Memory> memory;
  const Json& mem = list_field(state, "memory", "sim_state", refusal);
  for (std::size_t k = 0; k < mem.size(); ++k) {
    Reader r(mem[k], "sim_state.memory[" + std::to_string(k) + "]", refusal);
    Memory m;
    m.a = unit_id(r, "unit a index", "unit a generation");
    m.b = unit_id(r, "unit b index", "unit b generation");
    m.until = r.num("until");
    m.rule = r.one_of("rule", CooperationRule::SwapSlots);
    r.done();
    if (refusal.ok() && (!names_slot(m.a, slots.size()) || !names_slot(m.b, slots.size())))
      r.fail("names a slot not in the state");
    if (!refusal.ok()) return refusal.status();
    memory.push_back(m);
  }
  std::vector<Collision> collisions;
  const Json& coll = list_field(state, "collisions", "sim_state", refusal);
  for (std::size_t k = 0; k < coll.size(); ++k) {
    Reader r(coll[k], "sim_state.collisions[" + std::to_string(k) + "]", refusal);
    Collision c;
    c.a = unit_id(r, "unit a index", "unit a generation");
    c.b = unit_id(r, "unit b index", "unit b generation");
    c.hard = r.b("hard");
    c.immediate = r.b("immediate");
    c.time = r.num("time");
    c.point = r.vec("point", bounds.near);
    c.state = r.one_of("state", CollisionState::Resolved);
    c.rule = r.one_of("rule", CooperationRule::SwapSlots);
    c.get_to = r.vec("get-to", bounds.near);
    r.done();
    if (refusal.ok() && (!names_slot(c.a, slots.size()) || !names_slot(c.b, slots.size())))
      r.fail("names a slot not in the state");
    if (!refusal.ok()) return refusal.status();
    collisions.push_back(c);
  }
  // Counters.
  SimCounters counters;
  {
    const Json& saved = field(state, "counters", "sim_state", refusal);
    if (!refusal.ok()) return refusal.status();
    Reader r(saved, "sim_state.counters", refusal);
    counters.steps = r.u("steps", kMaxSteps);
    if (version != kStateVersion) {
      // Versions 1 and 2 kept the step's own overlap and tunnelling counts, which the
      // referee (sim_referee.hpp) has replaced: read and dropped.
      (void)r.u("hard overlaps");
      (void)r.num("deepest overlap", 0);
      (void)r.u("tunnelled");
    }
    counters.repaths = r.u("repaths");
    counters.path_requests = r.u("path requests");
    counters.collisions_found = r.u("collisions found");
    r.done();
    if (!refusal.ok()) return refusal.status();
  }
  // Density.
  DensityMap density;
  {
    const std::string at = "sim_state.density";
    const Json& d = field(state, "density", "sim_state", refusal);
    if (!refusal.ok()) return refusal.status();
    if (!d.is_object()) return refused(at, "expected an object, found " + shown(d));
    // Empty (no step has counted collisions yet), or the world's grid (cooperation.cpp).
    const CostGrid& grid = world_->grid(0);
    density.width = static_cast<int>(whole_field(d, "width", at, ScenarioLimits::kMaxGridSide, refusal));
    density.height = static_cast<int>(whole_field(d, "height", at, ScenarioLimits::kMaxGridSide, refusal));
    density.cell_size = number_field(d, "cell_size", at, 0, kHuge, refusal);
    density.max_value =
        static_cast<float>(number_field(d, "max_value", at, 0, std::numeric_limits<float>::max(), refusal));
    if (!refusal.ok()) return refusal.status();
    const std::size_t n = static_cast<std::size_t>(density.width) * static_cast<std::size_t>(density.height);
    if (n > 0 && (density.width != grid.width() || density.height != grid.height())) {
      return refused(at, std::to_string(density.width) + " x " + std::to_string(density.height) +
                             " cells, the world's grid has " + std::to_string(grid.width()) + " x " +
                             std::to_string(grid.height()));
    }
    if (n > 0 && density.cell_size != grid.cell_size())
      return refused(at + ".cell_size", "differs from the world's grid cell size");
    if (n > 0) density.value.assign(n, 0.0f);
    const Json& cells = field(d, "cells", at, refusal);
    if (!refusal.ok()) return refusal.status();
    Reader r(cells, at + ".cells", refusal);
    while (r.more()) {
      if (n == 0) r.fail("cells in an empty map");
      const std::uint64_t cell = r.u("cell", n - 1);
      const auto value = static_cast<float>(r.num("value", 0, std::numeric_limits<float>::max()));
      if (!refusal.ok()) return refusal.status();
      density.value[cell] = value;
    }
    if (!refusal.ok()) return refusal.status();
  }
  // Density cost: factors as SimSettings::density_cost makes them, 1 to 1 + density_cost.
  std::vector<float> overlay;
  if (const auto it = state.find("density_cost"); it != state.end()) {
    const std::size_t n = world_->raster().cell_count();
    if (n == 0) return refused("sim_state.density_cost", "a cost in a world of no cells");
    const double top = static_cast<double>(static_cast<float>(1 + scenario().sim.density_cost));
    overlay.assign(n, 1.0f);
    Reader r(*it, "sim_state.density_cost", refusal);
    while (r.more()) {
      const std::uint64_t cell = r.u("cell", n - 1);
      const auto factor = static_cast<float>(r.num("factor", 1, top));
      if (!refusal.ok()) return refusal.status();
      overlay[cell] = factor;
    }
    if (!refusal.ok()) return refusal.status();
  }
  // Bridges and passages.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> holders;
  const Json& held = list_field(state, "bridges", "sim_state", refusal);
  for (std::size_t k = 0; k < held.size(); ++k) {
    Reader r(held[k], "sim_state.bridges[" + std::to_string(k) + "]", refusal);
    const auto bridge = static_cast<std::uint32_t>(r.u("bridge", std::numeric_limits<std::uint32_t>::max()));
    const auto group = static_cast<std::uint32_t>(r.u("platoon", std::numeric_limits<std::uint32_t>::max()));
    r.done();
    if (!refusal.ok()) return refusal.status();
    const auto& bridges = scenario().bridges;
    if (std::none_of(bridges.begin(), bridges.end(), [&](const Bridge& b) { return b.id == bridge; }))
      r.fail("bridge " + std::to_string(bridge) + " is not in the scenario");
    if (std::any_of(holders.begin(), holders.end(), [&](const auto& h) { return h.first == bridge; }))
      r.fail("bridge " + std::to_string(bridge) + " is held twice");
    if (!refusal.ok()) return refusal.status();
    holders.emplace_back(bridge, group);
  }
  if (!refusal.ok()) return refusal.status();
  const bool maps = flag_field(state, "passage_maps", "sim_state", refusal);
  if (!refusal.ok()) return refusal.status();
  std::vector<PassageMap> passage_maps;
  if (maps) {
    for (std::size_t c = 0; c < impl_->motions.size(); ++c) {
      passage_maps.emplace_back(world_->grid(c), passage_rules(impl_->motions[c]));
    }
  }
  // Knots' passages, appended to their classes' maps in order (knots.hpp).
  if (state.contains("knots")) {
    const Json& knots = list_field(state, "knots", "sim_state", refusal);
    if (!refusal.ok()) return refusal.status();
    for (std::size_t k = 0; k < knots.size(); ++k) {
      Reader r(knots[k], "sim_state.knots[" + std::to_string(k) + "]", refusal);
      if (passage_maps.empty()) r.fail("knots while sim_state.passage_maps is false");
      if (!refusal.ok()) return refusal.status();
      const std::uint64_t c = r.u("class", passage_maps.size() - 1);
      if (!refusal.ok()) return refusal.status();
      PassageMap& map = passage_maps[c];
      const std::uint64_t at = r.u("passage", map.passages().size());
      if (at != map.passages().size())
        r.fail("passage " + std::to_string(at) + " of class " + std::to_string(c) + " is not the next (" +
               std::to_string(map.passages().size()) + ")");
      const double seen = r.num("seen");
      const CostGrid& grid = world_->grid(c);
      const Box cells_box{{0, 0}, {grid.width() * grid.cell_size(), grid.height() * grid.cell_size()}};
      const Vec2 lo = r.vec("bounds", cells_box);
      const Vec2 hi = r.vec("bounds", cells_box);
      const std::uint64_t n = r.u("cells", r.left());
      std::vector<std::uint32_t> cells;
      for (std::uint64_t i = 0; i < n && r.ok(); ++i) {
        const auto cell = static_cast<std::uint32_t>(r.u("cell", grid.cell_count() - 1));
        if (!r.ok()) break;
        if ((!cells.empty() && cell <= cells.back()) || map.passage_of(cell) || !grid.passable(cell))
          r.fail("cell " + std::to_string(cell) + " is out of order, in another passage, or closed");
        cells.push_back(cell);
      }
      r.done();
      if (!refusal.ok()) return refusal.status();
      map.add_knot(std::move(cells), Box2{lo, hi}, seen, -std::numeric_limits<double>::infinity());
    }
  }
  // A unit's last passage is an index into its class's passage map: without the maps
  // (made at the first step, and again after a world change, both of which clear it)
  // it names none.
  for (std::size_t k = 0; k < slots.size(); ++k) {
    // (A removed unit's is never read: taking the slot clears it.)
    const std::int64_t last = extra[k].last_passage;
    if (last < 0 || !slots[k].alive) continue;
    const std::string where = "sim_state.units[" + std::to_string(k) + "]";
    if (passage_maps.empty()) {
      return refused(where, "last passage " + std::to_string(last) +
                                " while sim_state.passage_maps is false (no passages are known)");
    }
    if (static_cast<std::size_t>(last) >= passage_maps[slots[k].movement_class].passages().size())
      return refused(where, "last passage " + std::to_string(last) + " is not in its class's passages");
  }
  const Json& passages = list_field(state, "passages", "sim_state", refusal);
  if (!refusal.ok()) return refusal.status();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
  for (std::size_t k = 0; k < passages.size(); ++k) {
    Reader r(passages[k], "sim_state.passages[" + std::to_string(k) + "]", refusal);
    if (passage_maps.empty()) r.fail("passages while sim_state.passage_maps is false");
    if (!refusal.ok()) return refusal.status();
    const std::uint64_t c = r.u("class", passage_maps.size() - 1);
    if (!refusal.ok()) return refusal.status();
    std::vector<Passage>& ps = passage_maps[c].passages();
    if (ps.empty()) r.fail("class " + std::to_string(c) + " has no passages in this world");
    if (!refusal.ok()) return refusal.status();
    const std::uint64_t at = r.u("passage", ps.size() - 1);
    if (!refusal.ok()) return refusal.status();
    if (std::find(seen.begin(), seen.end(), std::pair{c, at}) != seen.end())
      r.fail("class " + std::to_string(c) + "'s passage " + std::to_string(at) + " listed twice");
    if (!refusal.ok()) return refusal.status();
    seen.emplace_back(c, at);
    const Box flows{{-kMaxFlow, -kMaxFlow}, {kMaxFlow, kMaxFlow}};
    Passage& p = ps[at];
    p.held = r.b("held");
    p.flow = r.vec("flow", flows);
    p.queued = r.b("queued");
    p.queue_flow = r.vec("queue flow", flows);
    p.queued_since = r.num("queued since");
    p.inside = static_cast<std::uint32_t>(r.u("inside", slots.size()));
    p.waiting = static_cast<std::uint32_t>(r.u("waiting", slots.size()));
    r.done();
    if (!refusal.ok()) return refusal.status();
  }
  const auto platoon = static_cast<std::uint32_t>(whole_field(
      state, "next_order_platoon", "sim_state", std::numeric_limits<std::uint32_t>::max(), refusal));
  const std::uint64_t steps = whole_field(state, "steps", "sim_state", kMaxSteps, refusal);
  if (!refusal.ok()) return refusal.status();
  if (counters.steps != steps) return refused("sim_state.steps", "differs from the counters' step count");
  // Platoons: each saved one replaces the scenario's platoon of its group (a state
  // without the list leaves them as they are, as before platoons were saved).
  std::vector<PlatoonRun> platoons = impl_->platoons;
  if (const auto it = state.find("platoons"); it != state.end()) {
    if (!it->is_array()) return refused("sim_state.platoons", "expected a list, found " + shown(*it));
    std::vector<std::uint32_t> groups;
    for (std::size_t k = 0; k < it->size(); ++k) {
      const std::string where = "sim_state.platoons[" + std::to_string(k) + "]";
      PlatoonRun p = read_platoon_json((*it)[k], bounds, slots, where, refusal);
      if (!refusal.ok()) return refusal.status();
      const auto mine = std::find_if(platoons.begin(), platoons.end(),
                                     [&](const PlatoonRun& q) { return q.group == p.group; });
      if (mine == platoons.end())
        return refused(where + ".group",
                       "group " + std::to_string(p.group) + " has no platoon in the scenario");
      if (std::find(groups.begin(), groups.end(), p.group) != groups.end())
        return refused(where + ".group", "group " + std::to_string(p.group) + " saved twice");
      groups.push_back(p.group);
      *mine = std::move(p);
    }
  }
  // The saved cost overlay first: one over the raster's surface limit takes nothing.
  const Result<WorldChange> overlaid = world_->set_cost_overlay(std::move(overlay));
  if (!overlaid) return make_error(ErrorCode::Limit, "sim_state.density_cost", overlaid.error().message);
  // All read: take it.
  units_ = std::move(slots);
  ++restores_;
  impl_->extra = std::move(extra);
  impl_->free_slots = std::move(free);
  impl_->paths.clear();
  for (const PathRequest& q : requests) impl_->paths.request(q);
  memory_ = std::move(memory);
  collisions_ = std::move(collisions);
  counters_ = counters;
  density_ = std::move(density);
  impl_->density_cells.clear();
  for (std::size_t k = 0; k < density_.value.size(); ++k) {
    if (density_.value[k] > 0) impl_->density_cells.push_back(static_cast<std::uint32_t>(k));
  }
  if (!overlaid->none()) impl_->paths.world_changed(false);
  for (const Bridge& b : scenario().bridges) impl_->bridges.clear(b.id);
  for (const auto& [bridge, group] : holders) (void)impl_->bridges.reserve(bridge, group);
  impl_->passage_maps = std::move(passage_maps);
  impl_->next_order_platoon = platoon;
  impl_->platoons = std::move(platoons);
  return Ok{};
}

Scenario saved_game(const Simulation& simulation) {
  Scenario s = simulation.scenario();
  s.units.clear();
  for (const SimUnit& u : simulation.slots()) {
    if (!u.alive) continue;
    Unit unit;
    unit.id = u.scenario_id;
    unit.movement_class = u.movement_class;
    unit.faction = u.faction < s.factions.size() ? s.factions[u.faction].name : std::string();
    unit.position = u.body.position;
    unit.heading = u.body.heading;
    unit.order = u.route.order;
    s.units.push_back(std::move(unit));
  }
  // Group orders were handed to the units (each its own slot of a formation); the groups
  // would give them again. Units removed while it ran leave their groups.
  for (UnitGroup& g : s.groups) {
    g.order = Order{};
    std::erase_if(g.units, [&](std::uint32_t id) {
      return std::none_of(s.units.begin(), s.units.end(), [id](const Unit& u) { return u.id == id; });
    });
  }
  s.sim_state = simulation.state_json();
  return s;
}

}  // namespace pathscope::sim

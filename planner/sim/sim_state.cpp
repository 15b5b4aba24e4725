// Saved games: the simulation's whole state as JSON, and back (issue "QA": "loading it and
// running on gives the same state hashes as never having saved").
//
// Everything a later step reads is kept: every slot (dead ones too: their generations
// keep ids stable), what only the simulation reads per unit, arrivals (goals taken,
// units standing off their goals), the free slots, the queued
// path requests in order, the remembered resolutions, the last step's collisions, the
// density map and the cost made from it, the counters, who holds which bridge, the
// passages' turns, and the next group order's platoon. What is made again from the scenario (the world, the
// motions, the passage maps' cells) is not. Each unit is one flat list of numbers (a tape: fixed fields, then
// each variable-length list after its length), so a thousand units stay a thousand lines; doubles are written
// shortest-exact, so they read back bit for bit.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

using Json = nlohmann::json;

constexpr int kStateVersion = 1;

// A failure to read the state, naming where.
struct StateError {
  std::string where;
  std::string message;
};

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

// Reads numbers off a flat list, in the order they were written.
class Reader {
 public:
  Reader(const Json& list, std::string where) : list_(list), where_(std::move(where)) {
    if (!list_.is_array()) fail("expected a list of numbers");
  }
  double num() {
    const Json& v = next();
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    fail("expected a number at item " + std::to_string(at_ - 1));
  }
  std::uint64_t u(std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    const Json& v = next();
    if (!v.is_number_integer() ||
        (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0))
      fail("expected a whole number >= 0 at item " + std::to_string(at_ - 1));
    const auto out = v.get<std::uint64_t>();
    if (out > max) fail("item " + std::to_string(at_ - 1) + " is out of range");
    return out;
  }
  std::int64_t i() {
    const Json& v = next();
    if (!v.is_number_integer()) fail("expected a whole number at item " + std::to_string(at_ - 1));
    return v.get<std::int64_t>();
  }
  bool b() { return u(1) == 1; }
  Vec2 vec() {
    const double x = num();
    return {x, num()};
  }
  std::vector<Vec2> points() {
    const std::uint64_t n = u(list_.size());
    std::vector<Vec2> out;
    out.reserve(n);
    for (std::uint64_t k = 0; k < n; ++k) out.push_back(vec());
    return out;
  }
  /// True while items are left.
  bool more() const { return at_ < list_.size(); }
  void done() const {
    if (at_ != list_.size()) fail(std::to_string(list_.size() - at_) + " items left over");
  }
  [[noreturn]] void fail(const std::string& message) const { throw StateError{where_, message}; }

 private:
  const Json& next() {
    if (at_ >= list_.size()) fail("ends early (item " + std::to_string(at_) + ")");
    return list_[at_++];
  }
  const Json& list_;
  std::string where_;
  std::size_t at_ = 0;
};

const Json& field(const Json& obj, const char* key, const std::string& where) {
  const auto it = obj.find(key);
  if (it == obj.end()) throw StateError{where, std::string("missing field \"") + key + "\""};
  return *it;
}

void write_unit(Tape& t, const SimUnit& u, const UnitPrivate& x) {
  t.u(u.id.index);
  t.u(u.id.generation);
  t.b(u.alive);
  t.u(u.scenario_id);
  t.u(u.movement_class);
  t.u(u.faction);
  t.vec(u.position);
  t.vec(u.previous);
  t.num(u.heading);
  t.num(u.speed);
  t.u(static_cast<std::uint64_t>(u.state));
  t.u(static_cast<std::uint64_t>(u.order.kind));
  t.u(static_cast<std::uint64_t>(u.order.patrol));
  t.points(u.order.points);
  t.u(u.order_point);
  t.i(u.patrol_step);
  t.points(u.path);
  t.u(u.waypoint);
  t.u(u.predicted.size());
  for (const PredictedPoint& p : u.predicted) {
    t.vec(p.position);
    t.num(p.heading);
    t.num(p.speed);
    t.num(p.time);
    t.u(p.waypoint);
  }
  t.b(u.arrived);
  t.num(u.arrived_time);
  t.u(static_cast<std::uint64_t>(u.yield));
  t.u(u.yield_to.index);
  t.u(u.yield_to.generation);
  t.num(u.speed_factor);
  t.vec(u.aside);
  t.vec(u.home);
  t.vec(u.get_to);
  t.num(u.yield_until);
  t.b(u.bridge_wait);
  t.b(u.passage_wait);
  t.i(u.lent_priority);
  t.u(u.lent_index);
  t.b(u.lent);
  t.num(u.progress_time);
  t.num(u.best_distance);
  // What only the simulation reads.
  t.u(x.move_key);
  t.b(x.path_pending);
  t.u(x.order_serial);
  t.vec(x.next.position);
  t.num(x.next.heading);
  t.num(x.next.speed);
  t.b(x.next_from_prediction);
  t.points(x.yield_path);
  t.b(x.tunnelled);
  t.num(x.last_repath);
  t.u(x.platoon);
  t.i(x.last_bridge);
  t.num(x.bridge_time);
  t.i(x.last_passage);
  t.vec(x.passage_flow);
  t.num(x.passage_time);
  // Last and only when set, so states saved before formation goals read the same.
  if (u.formation) t.vec(u.formation_point);
}

template <class E>
E read_enum(Reader& r, E last) {
  return static_cast<E>(r.u(static_cast<std::uint64_t>(last)));
}

void read_unit(Reader& r, SimUnit& u, UnitPrivate& x, std::size_t classes, std::size_t factions) {
  u.id.index = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  u.id.generation = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  u.alive = r.b();
  u.scenario_id = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  u.movement_class = r.u();
  if (u.movement_class >= classes)
    r.fail("movement class " + std::to_string(u.movement_class) + " is not in the scenario");
  u.faction = r.u();
  if (u.faction >= std::max<std::size_t>(factions, 1))
    r.fail("faction " + std::to_string(u.faction) + " is not in the scenario");
  u.position = r.vec();
  u.previous = r.vec();
  u.heading = r.num();
  u.speed = r.num();
  u.state = read_enum(r, MoveState::Failed);
  u.order.kind = read_enum(r, OrderKind::Stop);
  u.order.patrol = read_enum(r, PatrolMode::BackForth);
  u.order.points = r.points();
  u.order_point = r.u();
  u.patrol_step = static_cast<int>(r.i());
  u.path = r.points();
  u.waypoint = r.u();
  const std::uint64_t predicted = r.u(1u << 20);
  u.predicted.resize(predicted);
  for (PredictedPoint& p : u.predicted) {
    p.position = r.vec();
    p.heading = r.num();
    p.speed = r.num();
    p.time = r.num();
    p.waypoint = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  }
  u.arrived = r.b();
  u.arrived_time = r.num();
  u.yield = read_enum(r, Yield::Detour);
  u.yield_to.index = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  u.yield_to.generation = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  u.speed_factor = r.num();
  u.aside = r.vec();
  u.home = r.vec();
  u.get_to = r.vec();
  u.yield_until = r.num();
  u.bridge_wait = r.b();
  u.passage_wait = r.b();
  u.lent_priority = static_cast<int>(r.i());
  u.lent_index = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  u.lent = r.b();
  u.progress_time = r.num();
  u.best_distance = r.num();
  x.move_key = static_cast<std::uint16_t>(r.u(std::numeric_limits<std::uint16_t>::max()));
  x.path_pending = r.b();
  x.order_serial = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  x.next.position = r.vec();
  x.next.heading = r.num();
  x.next.speed = r.num();
  x.next_from_prediction = r.b();
  x.yield_path = r.points();
  x.tunnelled = r.b();
  x.last_repath = r.num();
  x.platoon = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
  x.last_bridge = r.i();
  x.bridge_time = r.num();
  x.last_passage = r.i();
  x.passage_flow = r.vec();
  x.passage_time = r.num();
  u.formation = r.more();
  if (u.formation) u.formation_point = r.vec();
  r.done();
  if (!u.order.points.empty() && u.order_point >= u.order.points.size())
    r.fail("order point index past the order's points");
  // (A waypoint index past the path's end is valid: it means the path is done, and every
  // reader checks it; a path can be replaced by a shorter one while the index stays.)
  if (u.patrol_step != 1 && u.patrol_step != -1)
    r.fail("patrol step " + std::to_string(u.patrol_step) + ": expected 1 or -1");
}

// The slot `id` names exists in a state of `slots` slots.
bool names_slot(UnitId id, std::size_t slots) { return id.index < slots; }

}  // namespace

std::string Simulation::state_json() const {
  Json state;
  state["version"] = kStateVersion;
  state["steps"] = counters_.steps;
  Json units = Json::array();
  for (std::size_t k = 0; k < units_.size(); ++k) {
    Tape t;
    write_unit(t, units_[k], impl_->extra[k]);
    units.push_back(t.take());
  }
  state["units"] = std::move(units);
  // Arrivals (arrival.cpp), per unit with any of them: beside a taken goal, since when it
  // has stood still off its goal, walking back, and its wait before the next walk back;
  // only when some unit has one, so that saved games without them read as before.
  Json goals = Json::array();
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const UnitPrivate& x = impl_->extra[k];
    if (!units_[k].goal_taken && !units_[k].walking_back && x.still_since == 0 && x.settle == kSettleSeconds)
      continue;
    Tape t;
    t.u(k);
    t.b(units_[k].goal_taken);
    t.num(x.still_since);
    t.b(units_[k].walking_back);
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
  counters.u(counters_.hard_overlaps);
  counters.num(counters_.max_overlap_m);
  counters.u(counters_.tunnelled);
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
  state["passage_maps"] = !impl_->passage_maps.empty();
  state["next_order_platoon"] = impl_->next_order_platoon;
  return state.dump();
}

Status Simulation::restore_state(std::string_view text) {
  Json state;
  try {
    state = Json::parse(text);
  } catch (const Json::exception& e) {
    return make_error(ErrorCode::Parse, "sim_state", std::string("not JSON: ") + e.what());
  }
  try {
    if (!state.is_object()) throw StateError{"sim_state", "expected an object"};
    const Json& version = field(state, "version", "sim_state");
    if (!version.is_number_integer() || version.get<int>() != kStateVersion) {
      throw StateError{"sim_state.version",
                       "expected " + std::to_string(kStateVersion) + ", found " + version.dump()};
    }
    const std::size_t classes = scenario().classes.size();
    // Units.
    const Json& units = field(state, "units", "sim_state");
    if (!units.is_array()) throw StateError{"sim_state.units", "expected a list"};
    std::vector<SimUnit> slots(units.size());
    std::vector<UnitPrivate> extra(units.size());
    for (std::size_t k = 0; k < units.size(); ++k) {
      Reader r(units[k], "sim_state.units[" + std::to_string(k) + "]");
      read_unit(r, slots[k], extra[k], classes, scenario().factions.size());
      if (slots[k].id.index != k)
        r.fail("slot index " + std::to_string(slots[k].id.index) + " at position " + std::to_string(k));
    }
    // What units name of one another and of the world.
    for (std::size_t k = 0; k < slots.size(); ++k) {
      const std::string where = "sim_state.units[" + std::to_string(k) + "]";
      const SimUnit& u = slots[k];
      const UnitPrivate& x = extra[k];
      // (A yield with nobody asking, waiting at a passage, names slot max: "nobody".)
      const bool nobody = u.yield_to.index == std::numeric_limits<std::uint32_t>::max();
      if (u.yield != Yield::None && !nobody && !names_slot(u.yield_to, slots.size()))
        throw StateError{where,
                         "yield_to names slot " + std::to_string(u.yield_to.index) + ", not in the state"};
      // (A rank lent by a unit done or idle carries its high bit: effective_rank.)
      const std::uint32_t lent_slot = u.lent_index & 0x7fffffffu;
      if (u.lent && lent_slot >= slots.size())
        throw StateError{where, "lent rank names slot " + std::to_string(lent_slot) + ", not in the state"};
      if (x.last_bridge >= 0) {
        const auto& bridges = scenario().bridges;
        const bool known = std::any_of(bridges.begin(), bridges.end(), [&](const Bridge& b) {
          return static_cast<std::int64_t>(b.id) == x.last_bridge;
        });
        if (!known)
          throw StateError{where, "last bridge " + std::to_string(x.last_bridge) + " is not in the scenario"};
      } else if (x.last_bridge != -1) {
        throw StateError{where,
                         "last bridge " + std::to_string(x.last_bridge) + ": expected a bridge id or -1"};
      }
      if (x.last_passage < -1)
        throw StateError{where,
                         "last passage " + std::to_string(x.last_passage) + ": expected an index or -1"};
    }
    if (const auto it = state.find("goals"); it != state.end()) {
      if (!it->is_array()) throw StateError{"sim_state.goals", "expected a list"};
      for (std::size_t k = 0; k < it->size(); ++k) {
        Reader r((*it)[k], "sim_state.goals[" + std::to_string(k) + "]");
        const std::uint64_t slot = r.u(slots.empty() ? 0 : slots.size() - 1);
        if (slots.empty()) r.fail("names no slot");
        slots[slot].goal_taken = r.b();
        extra[slot].still_since = r.num();
        slots[slot].walking_back = r.b();
        extra[slot].settle = r.num();
        if (!(extra[slot].settle >= kSettleSeconds && extra[slot].settle <= kMaxSettleSeconds))
          r.fail("settle " + std::to_string(extra[slot].settle) + " is outside [" +
                 std::to_string(kSettleSeconds) + ", " + std::to_string(kMaxSettleSeconds) + "]");
        r.done();
      }
    }
    const Json& free_slots = field(state, "free_slots", "sim_state");
    std::vector<std::uint32_t> free;
    {
      Reader r(free_slots, "sim_state.free_slots");
      for (std::size_t k = 0; k < free_slots.size(); ++k) {
        const auto slot = static_cast<std::uint32_t>(r.u(units.empty() ? 0 : units.size() - 1));
        if (slots.empty() || slots[slot].alive) r.fail("slot " + std::to_string(slot) + " is not free");
        if (std::find(free.begin(), free.end(), slot) != free.end())
          r.fail("slot " + std::to_string(slot) + " listed twice");
        free.push_back(slot);
      }
    }
    auto unit_id = [&](Reader& r) {
      UnitId id;
      id.index = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
      id.generation = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
      return id;
    };
    // Path requests.
    std::vector<PathRequest> requests;
    const Json& paths = field(state, "path_requests", "sim_state");
    for (std::size_t k = 0; k < paths.size(); ++k) {
      Reader r(paths[k], "sim_state.path_requests[" + std::to_string(k) + "]");
      PathRequest q;
      q.unit = unit_id(r);
      q.movement_class = r.u(classes - 1);
      q.start = r.vec();
      q.goal = r.vec();
      r.done();
      if (q.unit.index >= slots.size()) r.fail("names no slot");
      requests.push_back(q);
    }
    // Memory and collisions.
    std::vector<Memory> memory;
    const Json& mem = field(state, "memory", "sim_state");
    for (std::size_t k = 0; k < mem.size(); ++k) {
      Reader r(mem[k], "sim_state.memory[" + std::to_string(k) + "]");
      Memory m;
      m.a = unit_id(r);
      m.b = unit_id(r);
      m.until = r.num();
      m.rule = read_enum(r, CooperationRule::SwapSlots);
      r.done();
      if (!names_slot(m.a, slots.size()) || !names_slot(m.b, slots.size()))
        r.fail("names a slot not in the state");
      memory.push_back(m);
    }
    std::vector<Collision> collisions;
    const Json& coll = field(state, "collisions", "sim_state");
    for (std::size_t k = 0; k < coll.size(); ++k) {
      Reader r(coll[k], "sim_state.collisions[" + std::to_string(k) + "]");
      Collision c;
      c.a = unit_id(r);
      c.b = unit_id(r);
      c.hard = r.b();
      c.immediate = r.b();
      c.time = r.num();
      c.point = r.vec();
      c.state = read_enum(r, CollisionState::Resolved);
      c.rule = read_enum(r, CooperationRule::SwapSlots);
      c.get_to = r.vec();
      r.done();
      if (!names_slot(c.a, slots.size()) || !names_slot(c.b, slots.size()))
        r.fail("names a slot not in the state");
      collisions.push_back(c);
    }
    // Counters.
    SimCounters counters;
    {
      Reader r(field(state, "counters", "sim_state"), "sim_state.counters");
      counters.steps = r.u();
      counters.hard_overlaps = r.u();
      counters.max_overlap_m = r.num();
      counters.tunnelled = r.u();
      counters.repaths = r.u();
      counters.path_requests = r.u();
      counters.collisions_found = r.u();
      r.done();
    }
    // Density.
    DensityMap density;
    {
      const Json& d = field(state, "density", "sim_state");
      const Json& w = field(d, "width", "sim_state.density");
      const Json& h = field(d, "height", "sim_state.density");
      if (!w.is_number_integer() || !h.is_number_integer() || w.get<std::int64_t>() < 0 ||
          h.get<std::int64_t>() < 0)
        throw StateError{"sim_state.density", "width and height must be whole numbers >= 0"};
      density.width = w.get<int>();
      density.height = h.get<int>();
      density.cell_size = field(d, "cell_size", "sim_state.density").get<double>();
      density.max_value = field(d, "max_value", "sim_state.density").get<float>();
      const std::size_t n =
          static_cast<std::size_t>(density.width) * static_cast<std::size_t>(density.height);
      // Empty (no step has counted collisions yet), or the world's grid (cooperation.cpp).
      const CostGrid& grid = world_->grid(0);
      if (n > 0 && (density.width != grid.width() || density.height != grid.height())) {
        throw StateError{"sim_state.density",
                         std::to_string(density.width) + " x " + std::to_string(density.height) +
                             " cells, the world's grid has " + std::to_string(grid.width()) + " x " +
                             std::to_string(grid.height())};
      }
      if (n > 0 && density.cell_size != grid.cell_size())
        throw StateError{"sim_state.density.cell_size", "differs from the world's grid cell size"};
      if (!std::isfinite(density.max_value) || density.max_value < 0)
        throw StateError{"sim_state.density.max_value", "expected a number >= 0"};
      if (n > 0) density.value.assign(n, 0.0f);
      const Json& cells = field(d, "cells", "sim_state.density");
      Reader r(cells, "sim_state.density.cells");
      for (std::size_t k = 0; k + 1 < cells.size(); k += 2) {
        const std::uint64_t at = r.u(n == 0 ? 0 : n - 1);
        if (n == 0) r.fail("cells in an empty map");
        const double v = r.num();
        if (!std::isfinite(v) || v < 0) r.fail("cell " + std::to_string(at) + ": expected a number >= 0");
        density.value[at] = static_cast<float>(v);
      }
      r.done();
    }
    // Density cost.
    std::vector<float> overlay;
    if (const auto it = state.find("density_cost"); it != state.end()) {
      const std::size_t n = world_->raster().cell_count();
      overlay.assign(n, 1.0f);
      Reader r(*it, "sim_state.density_cost");
      for (std::size_t k = 0; k + 1 < it->size(); k += 2) {
        const std::uint64_t at = r.u(n - 1);
        const double f = r.num();
        if (!(std::isfinite(f) && f >= 1)) r.fail("a cost factor must be a finite number >= 1");
        overlay[at] = static_cast<float>(f);
      }
      r.done();
    }
    // Bridges and passages.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> holders;
    for (const Json& e : field(state, "bridges", "sim_state")) {
      Reader r(e, "sim_state.bridges");
      const auto bridge = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
      const auto group = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
      r.done();
      const auto& bridges = scenario().bridges;
      if (std::none_of(bridges.begin(), bridges.end(), [&](const Bridge& b) { return b.id == bridge; }))
        r.fail("bridge " + std::to_string(bridge) + " is not in the scenario");
      holders.emplace_back(bridge, group);
    }
    const bool maps = field(state, "passage_maps", "sim_state").get<bool>();
    std::vector<PassageMap> passage_maps;
    if (maps) {
      for (std::size_t c = 0; c < impl_->motions.size(); ++c) {
        passage_maps.emplace_back(world_->grid(c), passage_rules(impl_->motions[c]));
      }
    }
    for (std::size_t k = 0; k < slots.size() && !passage_maps.empty(); ++k) {
      const std::int64_t last = extra[k].last_passage;
      if (last >= 0 &&
          static_cast<std::size_t>(last) >= passage_maps[slots[k].movement_class].passages().size()) {
        throw StateError{"sim_state.units[" + std::to_string(k) + "]",
                         "last passage " + std::to_string(last) + " is not in its class's passages"};
      }
    }
    const Json& passages = field(state, "passages", "sim_state");
    for (std::size_t k = 0; k < passages.size(); ++k) {
      Reader r(passages[k], "sim_state.passages[" + std::to_string(k) + "]");
      const std::uint64_t c = r.u(passage_maps.empty() ? 0 : passage_maps.size() - 1);
      if (passage_maps.empty()) r.fail("passages without passage maps");
      std::vector<Passage>& ps = passage_maps[c].passages();
      const std::uint64_t at = r.u(ps.empty() ? 0 : ps.size() - 1);
      if (ps.empty()) r.fail("class " + std::to_string(c) + " has no passages in this world");
      Passage& p = ps[at];
      p.held = r.b();
      p.flow = r.vec();
      p.queued = r.b();
      p.queue_flow = r.vec();
      p.queued_since = r.num();
      p.inside = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
      p.waiting = static_cast<std::uint32_t>(r.u(std::numeric_limits<std::uint32_t>::max()));
      r.done();
    }
    const Json& platoon = field(state, "next_order_platoon", "sim_state");
    if (!platoon.is_number_unsigned())
      throw StateError{"sim_state.next_order_platoon", "expected a whole number >= 0"};
    if (counters.steps != field(state, "steps", "sim_state").get<std::uint64_t>()) {
      throw StateError{"sim_state.steps", "differs from the counters' step count"};
    }
    // All read: take it.
    units_ = std::move(slots);
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
    if (!world_->set_cost_overlay(std::move(overlay)).none()) impl_->paths.world_changed(false);
    for (const Bridge& b : scenario().bridges) impl_->bridges.clear(b.id);
    for (const auto& [bridge, group] : holders) (void)impl_->bridges.reserve(bridge, group);
    impl_->passage_maps = std::move(passage_maps);
    impl_->next_order_platoon = platoon.get<std::uint32_t>();
    return Ok{};
  } catch (const StateError& e) {
    return make_error(ErrorCode::Value, e.where, e.message);
  } catch (const Json::exception& e) {
    return make_error(ErrorCode::Schema, "sim_state", std::string("bad value: ") + e.what());
  }
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
    unit.position = u.position;
    unit.heading = u.heading;
    unit.order = u.order;
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

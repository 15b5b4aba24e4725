// Recordings' frame codec: keyframes plus deltas (recording_codec.hpp).

#include "planner/sim/recording_codec.hpp"

#include "planner/sim/sim_fields.hpp"

#include <cmath>
#include <unordered_map>

namespace pathscope::sim::recording_detail {

namespace {

// Field groups of a slot in a frame.
enum Group : std::uint8_t {
  kPosition = 1,      // position
  kMotion = 2,        // heading, speed
  kStatus = 4,        // state, yield, arrived, bridge_wait, passage_wait, goal_taken
  kIndices = 8,       // order_point, waypoint
  kPath = 16,         // path
  kYieldDetail = 32,  // yield_to, aside, home, get_to
  kIdentity = 64,     // alive, generation, scenario id, class, faction, arrived_time
};

bool same_doubles(double a, double b) { return bits_of(a) == bits_of(b); }

std::uint8_t status_bits(const SimUnit& u) {
  return static_cast<std::uint8_t>((u.goal.arrived ? 1 : 0) | (u.waits.bridge ? 2 : 0) |
                                   (u.waits.passage ? 4 : 0) | (u.goal.taken ? 8 : 0));
}

std::uint8_t groups_changed(const SimUnit& was, const SimUnit& now, bool path_differs) {
  std::uint8_t g = 0;
  if (!same_vec(was.body.position, now.body.position)) g |= kPosition;
  if (!same_doubles(was.body.heading, now.body.heading) || !same_doubles(was.body.speed, now.body.speed))
    g |= kMotion;
  if (was.route.state != now.route.state || was.coop.yield != now.coop.yield ||
      status_bits(was) != status_bits(now))
    g |= kStatus;
  if (was.route.order_point != now.route.order_point || was.route.waypoint != now.route.waypoint)
    g |= kIndices;
  if (path_differs) g |= kPath;
  if (!(was.coop.yield_to == now.coop.yield_to) || !same_vec(was.coop.aside, now.coop.aside) ||
      !same_vec(was.coop.home, now.coop.home) || !same_vec(was.coop.get_to, now.coop.get_to))
    g |= kYieldDetail;
  if (was.alive != now.alive || was.id.generation != now.id.generation ||
      was.scenario_id != now.scenario_id || was.movement_class != now.movement_class ||
      was.faction != now.faction || !same_doubles(was.goal.arrived_time, now.goal.arrived_time))
    g |= kIdentity;
  return g;
}

// Slots made from nothing: `n` default units with their indices.
std::vector<SimUnit> empty_slots(std::size_t n) {
  std::vector<SimUnit> units(n);
  for (std::size_t i = 0; i < n; ++i) units[i].id.index = static_cast<std::uint32_t>(i);
  return units;
}

// A collision's pair, in its order (a decides).
std::uint64_t ordered_pair(UnitId a, UnitId b) { return static_cast<std::uint64_t>(a.index) << 32 | b.index; }

// Where a unit is predicted to be from the two frames before (the same move again), or
// from the one before when `before` (positions two frames back) has no entry.
Vec2 predicted_position(const SimUnit& was, std::size_t i, std::span<const Vec2> before) {
  return i < before.size() ? was.body.position + (was.body.position - before[i]) : was.body.position;
}

}  // namespace

// Sets the fields of `p` a frame keeps, but its path, to `u`'s.
void project_but_path(const SimUnit& u, SimUnit& p) { fields::copy_framed(u, p); }

bool same_vec(Vec2 a, Vec2 b) { return same_doubles(a.x, b.x) && same_doubles(a.y, b.y); }
bool same_path(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_vec);
}

std::vector<Vec2> positions(const std::vector<SimUnit>& units) {
  std::vector<Vec2> out(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) out[i] = units[i].body.position;
  return out;
}

// Appends one frame: `now` (projected) against `was` (the frame before, or empty slots
// for a keyframe); positions as their difference from the position predicted with
// `before` (positions of the frame before `was`; empty when it is not in `was`'s block).
// `path_changed` (per slot of `now`): its path differs from the one in `was` (not read
// for keyframes). `was_platoons`: the frame before's platoons (not read for keyframes).
void encode_frame(bool key, const std::vector<SimUnit>& was, std::span<const Vec2> before,
                  std::span<const SimUnit> now, std::span<const std::uint8_t> path_changed,
                  std::span<const Collision> was_collisions, std::span<const Collision> collisions,
                  std::span<const PlatoonRun> was_platoons, std::span<const PlatoonRun> platoons,
                  std::string& out) {
  Writer w(out);
  w.byte(key ? 1 : 0);
  w.varint(now.size());
  const SimUnit blank;
  std::size_t last = 0;
  bool first = true;
  for (std::size_t i = 0; i < now.size(); ++i) {
    const SimUnit& base = !key && i < was.size() ? was[i] : blank;
    const SimUnit& u = now[i];
    const bool path_differs = key || i >= was.size() ? !u.route.path.empty() : path_changed[i] != 0;
    const std::uint8_t g = groups_changed(base, u, path_differs);
    if (g == 0) continue;
    w.varint(first ? i + 1 : i - last);
    first = false;
    last = i;
    w.byte(g);
    if (g & kIdentity) {
      w.byte(u.alive ? 1 : 0);
      w.varint(u.id.generation);
      w.varint(u.scenario_id);
      w.varint(u.movement_class);
      w.varint(u.faction);
      w.pair(u.goal.arrived_time, base.goal.arrived_time, 0, 0);
    }
    if (g & kPosition) w.vec(u.body.position, predicted_position(base, i, before));
    if (g & kMotion) w.pair(u.body.heading, base.body.heading, u.body.speed, base.body.speed);
    if (g & kStatus) {
      w.byte(static_cast<std::uint8_t>(u.route.state));
      w.byte(static_cast<std::uint8_t>(u.coop.yield));
      w.byte(status_bits(u));
    }
    if (g & kIndices) {
      w.varint(u.route.order_point);
      w.varint(u.route.waypoint);
    }
    if (g & kPath) {
      // The points it shares with the path before at its start and its end are kept.
      const std::vector<Vec2>& a = base.route.path;
      const std::vector<Vec2>& b = u.route.path;
      std::size_t prefix = 0, suffix = 0;
      while (prefix < a.size() && prefix < b.size() && same_vec(a[prefix], b[prefix])) ++prefix;
      while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
             same_vec(a[a.size() - 1 - suffix], b[b.size() - 1 - suffix]))
        ++suffix;
      w.varint(prefix);
      w.varint(suffix);
      w.varint(b.size() - prefix - suffix);
      Vec2 prev = prefix > 0 ? b[prefix - 1] : Vec2{0, 0};
      for (std::size_t k = prefix; k < b.size() - suffix; ++k) {
        w.vec(b[k], prev);
        prev = b[k];
      }
    }
    if (g & kYieldDetail) {
      const std::uint8_t which =
          static_cast<std::uint8_t>((u.coop.yield_to == base.coop.yield_to ? 0 : 1) |
                                    (same_vec(u.coop.aside, base.coop.aside) ? 0 : 2) |
                                    (same_vec(u.coop.home, base.coop.home) ? 0 : 4) |
                                    (same_vec(u.coop.get_to, base.coop.get_to) ? 0 : 8));
      w.byte(which);
      if (which & 1) {
        w.varint(u.coop.yield_to.index);
        w.varint(u.coop.yield_to.generation);
      }
      if (which & 2) w.vec(u.coop.aside, base.coop.aside);
      if (which & 4) w.vec(u.coop.home, base.coop.home);
      if (which & 8) w.vec(u.coop.get_to, base.coop.get_to);
    }
  }
  w.varint(0);
  // Collisions, each against the same pair's in the frame before when there is one.
  std::unordered_map<std::uint64_t, std::size_t> earlier;
  for (std::size_t k = 0; k < was_collisions.size(); ++k)
    earlier.emplace(ordered_pair(was_collisions[k].a, was_collisions[k].b), k);
  w.varint(collisions.size());
  Collision prev;
  for (const Collision& c : collisions) {
    const auto it = earlier.find(ordered_pair(c.a, c.b));
    const Collision& ref = it != earlier.end() ? was_collisions[it->second] : prev;
    if (it != earlier.end()) {
      w.varint(it->second + 1);
    } else {
      w.varint(0);
      w.varint(c.a.index);
      w.varint(c.a.generation);
      w.varint(c.b.index);
      w.varint(c.b.generation);
    }
    const bool time = !same_doubles(c.time, ref.time), point = !same_vec(c.point, ref.point),
               get_to = !same_vec(c.get_to, ref.get_to);
    w.byte(static_cast<std::uint8_t>((c.hard ? 1 : 0) | (c.immediate ? 2 : 0) |
                                     static_cast<int>(c.state) << 2 | (time ? 16 : 0) | (point ? 32 : 0) |
                                     (get_to ? 64 : 0)));
    w.byte(static_cast<std::uint8_t>(c.rule));
    if (time) w.pair(c.time, ref.time, 0, 0);
    if (point) w.vec(c.point, ref.point);
    if (get_to) w.vec(c.get_to, ref.get_to);
    prev = c;
  }
  // The platoons, when there are any now or were in the frame before (a frame without
  // this part has none).
  if (!platoons.empty() || (!key && !was_platoons.empty()))
    encode_platoons(key ? std::span<const PlatoonRun>() : was_platoons, platoons, w);
}

// Applies one frame's bytes to `units` and sets `collisions` and `platoons` (which hold
// the frame before's unless it is a keyframe); false if they are damaged. `before`: as
// encode_frame's.
bool decode_frame(std::string_view bytes, std::vector<SimUnit>& units, std::span<const Vec2> before,
                  std::vector<Collision>& collisions, std::vector<PlatoonRun>& platoons) {
  Reader r(bytes.data(), bytes.size());
  const std::uint8_t key = r.byte();
  const std::uint64_t n = r.varint();
  if (!r.ok() || key > 1 || n > bytes.size() * 8 + units.size() || n > kMaxFrameSlots) return false;
  if (key) units = empty_slots(n);
  const std::size_t had = units.size();
  units.resize(n);
  for (std::size_t i = had; i < n; ++i) units[i].id.index = static_cast<std::uint32_t>(i);
  std::size_t slot = 0;
  bool first = true;
  while (r.ok()) {
    const std::uint64_t gap = r.varint();
    if (gap == 0) break;
    if (gap > n) return false;  // past the last slot (and no wrap-around of slot + gap)
    slot = first ? gap - 1 : slot + gap;
    first = false;
    if (slot >= n) return false;
    SimUnit& u = units[slot];
    const std::uint8_t g = r.byte();
    if (g & kIdentity) {
      u.alive = r.byte() != 0;
      u.id.generation = r.u32();
      u.scenario_id = r.u32();
      u.movement_class = r.varint();
      u.faction = r.varint();
      double unused = 0;
      r.pair(u.goal.arrived_time, unused);
    }
    if (g & kPosition) {
      u.body.position = predicted_position(u, slot, before);
      r.vec(u.body.position);
    }
    if (g & kMotion) r.pair(u.body.heading, u.body.speed);
    if (g & kStatus) {
      const std::uint8_t state = r.byte(), yield = r.byte(), bits = r.byte();
      if (state > static_cast<std::uint8_t>(MoveState::InPlatoon) ||
          yield > static_cast<std::uint8_t>(Yield::Detour))
        return false;
      u.route.state = static_cast<MoveState>(state);
      u.coop.yield = static_cast<Yield>(yield);
      u.goal.arrived = bits & 1;
      u.waits.bridge = bits & 2;
      u.waits.passage = bits & 4;
      u.goal.taken = bits & 8;
    }
    if (g & kIndices) {
      u.route.order_point = r.varint();
      u.route.waypoint = r.varint();
    }
    if (g & kPath) {
      const std::uint64_t prefix = r.varint(), suffix = r.varint(), middle = r.varint();
      // Each bound on its own: prefix + suffix may wrap around.
      if (!r.ok() || prefix > u.route.path.size() || suffix > u.route.path.size() - prefix ||
          middle > bytes.size())
        return false;
      std::vector<Vec2> path(u.route.path.begin(),
                             u.route.path.begin() + static_cast<std::ptrdiff_t>(prefix));
      Vec2 prev = prefix > 0 ? path.back() : Vec2{0, 0};
      for (std::uint64_t k = 0; k < middle; ++k) {
        Vec2 p = prev;
        r.vec(p);
        path.push_back(p);
        prev = p;
      }
      path.insert(path.end(), u.route.path.end() - static_cast<std::ptrdiff_t>(suffix), u.route.path.end());
      u.route.path = std::move(path);
    }
    if (g & kYieldDetail) {
      const std::uint8_t which = r.byte();
      if (which & 1) {
        u.coop.yield_to.index = r.u32();
        u.coop.yield_to.generation = r.u32();
      }
      if (which & 2) r.vec(u.coop.aside);
      if (which & 4) r.vec(u.coop.home);
      if (which & 8) r.vec(u.coop.get_to);
    }
  }
  const std::uint64_t count = r.varint();
  if (!r.ok() || count > bytes.size()) return false;  // each collision takes at least 3 bytes
  const std::vector<Collision> was_collisions = key ? std::vector<Collision>{} : std::move(collisions);
  collisions.assign(count, Collision{});
  Collision prev;
  for (Collision& c : collisions) {
    const std::uint64_t ref_index = r.varint();
    if (ref_index > was_collisions.size()) return false;
    const Collision& ref = ref_index > 0 ? was_collisions[ref_index - 1] : prev;
    if (ref_index > 0) {
      c.a = ref.a;
      c.b = ref.b;
    } else {
      c.a.index = r.u32();
      c.a.generation = r.u32();
      c.b.index = r.u32();
      c.b.generation = r.u32();
      if (c.a.index >= n || c.b.index >= n) return false;  // a collision of slots the frame has not
    }
    const std::uint8_t flags = r.byte(), rule = r.byte();
    if ((flags >> 2 & 3) > static_cast<int>(CollisionState::Resolved) ||
        rule > static_cast<std::uint8_t>(CooperationRule::SwapSlots))
      return false;
    c.hard = flags & 1;
    c.immediate = flags & 2;
    c.state = static_cast<CollisionState>(flags >> 2 & 3);
    c.rule = static_cast<CooperationRule>(rule);
    c.time = ref.time;
    c.point = ref.point;
    c.get_to = ref.get_to;
    double unused = 0;
    if (flags & 16) r.pair(c.time, unused);
    if (flags & 32) r.vec(c.point);
    if (flags & 64) r.vec(c.get_to);
    prev = c;
  }
  if (key || !r.ok() || r.done()) platoons.clear();
  if (r.ok() && !r.done() && !decode_platoons(r, bytes.size(), n, platoons)) return false;
  return r.ok() && r.done();
}

// The first value of decoded units that no simulation makes (a number that is not
// finite), named as "units[3].position"; "" when there is none.
std::string frame_value_error(const std::vector<SimUnit>& units) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (const std::string field = fields::first_not_finite(units[i]); !field.empty())
      return "units[" + std::to_string(i) + "]." + field;
  }
  return {};
}

}  // namespace pathscope::sim::recording_detail

// Recordings: frames as keyframes plus deltas, the decision log, snapshots, and the file.
//
// A frame's bytes: a kind byte (1: keyframe, decoded from empty slots; 0: delta, from the
// frame before), the slot count, then each changed slot as (slot gap + 1, a byte of field
// groups, the groups' values) and a 0 to end, then the step's collisions. Doubles are
// written exactly, as the bits that differ from the value before (XOR), without their
// leading zero bytes: a unit that moved a little costs a few bytes a coordinate, one that
// stood still nothing.

#include "planner/sim/recording.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <numbers>
#include <optional>

#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "planner/core/atomic_write.hpp"
#include "planner/scenario/scenario_io.hpp"

namespace pathscope::sim {

namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "pathscope-recording";
constexpr int kVersion = 1;
/// Largest recording file read (bytes).
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{4} << 30;
/// Most unit slots a frame may hold (twice the scenario's limit of units: room for units
/// added while the run was recorded).
constexpr std::uint64_t kMaxFrameSlots = 200'000;
/// Deepest nesting of lists and maps read from a recording's CBOR (a recording has 2).
constexpr std::size_t kMaxCborDepth = 16;
/// Most steps between two full frames.
constexpr std::uint64_t kMaxKeyframeInterval = 1'000'000;
/// Last step a recording may hold (as a saved game's step count, 2^53).
constexpr std::uint64_t kMaxRecordedStep = std::uint64_t{1} << 53;

// nlohmann's CBOR reader recurses once per level of nesting: a file of nested one-item
// lists would overflow the stack. This reader builds the same value and stops at
// kMaxCborDepth.
class DepthLimitedReader : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  explicit DepthLimitedReader(nlohmann::json& root) : Base(root, true) {}
  bool start_object(std::size_t n) { return enter() && Base::start_object(n); }
  bool start_array(std::size_t n) { return enter() && Base::start_array(n); }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }
  bool too_deep() const { return too_deep_; }

 private:
  bool enter() {
    too_deep_ = too_deep_ || ++depth_ > kMaxCborDepth;
    return !too_deep_;
  }
  std::size_t depth_ = 0;
  bool too_deep_ = false;
};

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

std::uint64_t bits_of(double v) { return std::bit_cast<std::uint64_t>(v); }

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void byte(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      byte(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    byte(static_cast<std::uint8_t>(v));
  }
  void raw(double v) {
    const std::uint64_t b = bits_of(v);
    for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(b >> (8 * i)));
  }
  // Two doubles as their differing bits from `was`: a byte of two byte counts, then the bytes.
  void pair(double a, double was_a, double b, double was_b) {
    const std::uint64_t xa = bits_of(a) ^ bits_of(was_a);
    const std::uint64_t xb = bits_of(b) ^ bits_of(was_b);
    const int na = 8 - std::countl_zero(xa) / 8;
    const int nb = 8 - std::countl_zero(xb) / 8;
    byte(static_cast<std::uint8_t>(na << 4 | nb));
    for (int i = 0; i < na; ++i) byte(static_cast<std::uint8_t>(xa >> (8 * i)));
    for (int i = 0; i < nb; ++i) byte(static_cast<std::uint8_t>(xb >> (8 * i)));
  }
  void vec(Vec2 p, Vec2 was) { pair(p.x, was.x, p.y, was.y); }

 private:
  std::string& out_;
};

class Reader {
 public:
  Reader(const char* data, std::size_t size)
      : begin_(reinterpret_cast<const unsigned char*>(data)), p_(begin_), end_(p_ + size) {}
  bool ok() const { return ok_; }
  bool done() const { return p_ == end_; }
  /// Bytes read so far.
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  std::uint8_t byte() {
    if (p_ == end_) {
      ok_ = false;
      return 0;
    }
    return *p_++;
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = byte();
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok_ = false;
    return 0;
  }
  std::uint32_t u32() {
    const std::uint64_t v = varint();
    if (v > 0xffffffffu) ok_ = false;
    return static_cast<std::uint32_t>(v);
  }
  double raw() {
    std::uint64_t b = 0;
    for (int i = 0; i < 8; ++i) b |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return std::bit_cast<double>(b);
  }
  void pair(double& a, double& b) {
    const std::uint8_t n = byte();
    const int na = n >> 4, nb = n & 15;
    if (na > 8 || nb > 8) {
      ok_ = false;
      return;
    }
    a = std::bit_cast<double>(bits_of(a) ^ low_bytes(na));
    b = std::bit_cast<double>(bits_of(b) ^ low_bytes(nb));
  }
  void vec(Vec2& p) { pair(p.x, p.y); }

 private:
  std::uint64_t low_bytes(int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return v;
  }
  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
  bool ok_ = true;
};

// Sets the fields of `p` a frame keeps, but its path, to `u`'s.
void project_but_path(const SimUnit& u, SimUnit& p) {
  p.id = u.id;
  p.alive = u.alive;
  p.scenario_id = u.scenario_id;
  p.movement_class = u.movement_class;
  p.faction = u.faction;
  p.position = u.position;
  p.heading = u.heading;
  p.speed = u.speed;
  p.state = u.state;
  p.yield = u.yield;
  p.yield_to = u.yield_to;
  p.order_point = u.order_point;
  p.waypoint = u.waypoint;
  p.arrived = u.arrived;
  p.goal_taken = u.goal_taken;
  p.arrived_time = u.arrived_time;
  p.bridge_wait = u.bridge_wait;
  p.passage_wait = u.passage_wait;
  p.aside = u.aside;
  p.home = u.home;
  p.get_to = u.get_to;
}

bool same_doubles(double a, double b) { return bits_of(a) == bits_of(b); }
bool same_vec(Vec2 a, Vec2 b) { return same_doubles(a.x, b.x) && same_doubles(a.y, b.y); }
bool same_path(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_vec);
}

std::uint8_t status_bits(const SimUnit& u) {
  return static_cast<std::uint8_t>((u.arrived ? 1 : 0) | (u.bridge_wait ? 2 : 0) | (u.passage_wait ? 4 : 0) |
                                   (u.goal_taken ? 8 : 0));
}

std::uint8_t groups_changed(const SimUnit& was, const SimUnit& now, bool path_differs) {
  std::uint8_t g = 0;
  if (!same_vec(was.position, now.position)) g |= kPosition;
  if (!same_doubles(was.heading, now.heading) || !same_doubles(was.speed, now.speed)) g |= kMotion;
  if (was.state != now.state || was.yield != now.yield || status_bits(was) != status_bits(now)) g |= kStatus;
  if (was.order_point != now.order_point || was.waypoint != now.waypoint) g |= kIndices;
  if (path_differs) g |= kPath;
  if (!(was.yield_to == now.yield_to) || !same_vec(was.aside, now.aside) || !same_vec(was.home, now.home) ||
      !same_vec(was.get_to, now.get_to))
    g |= kYieldDetail;
  if (was.alive != now.alive || was.id.generation != now.id.generation ||
      was.scenario_id != now.scenario_id || was.movement_class != now.movement_class ||
      was.faction != now.faction || !same_doubles(was.arrived_time, now.arrived_time))
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
  return i < before.size() ? was.position + (was.position - before[i]) : was.position;
}

std::vector<Vec2> positions(const std::vector<SimUnit>& units) {
  std::vector<Vec2> out(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) out[i] = units[i].position;
  return out;
}

// Appends one frame: `now` (projected) against `was` (the frame before, or empty slots
// for a keyframe); positions as their difference from the position predicted with
// `before` (positions of the frame before `was`; empty when it is not in `was`'s block).
// `path_changed` (per slot of `now`): its path differs from the one in `was` (not read
// for keyframes).
void encode_frame(bool key, const std::vector<SimUnit>& was, std::span<const Vec2> before,
                  std::span<const SimUnit> now, std::span<const std::uint8_t> path_changed,
                  std::span<const Collision> was_collisions, std::span<const Collision> collisions,
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
    const bool path_differs = key || i >= was.size() ? !u.path.empty() : path_changed[i] != 0;
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
      w.pair(u.arrived_time, base.arrived_time, 0, 0);
    }
    if (g & kPosition) w.vec(u.position, predicted_position(base, i, before));
    if (g & kMotion) w.pair(u.heading, base.heading, u.speed, base.speed);
    if (g & kStatus) {
      w.byte(static_cast<std::uint8_t>(u.state));
      w.byte(static_cast<std::uint8_t>(u.yield));
      w.byte(status_bits(u));
    }
    if (g & kIndices) {
      w.varint(u.order_point);
      w.varint(u.waypoint);
    }
    if (g & kPath) {
      // The points it shares with the path before at its start and its end are kept.
      const std::vector<Vec2>& a = base.path;
      const std::vector<Vec2>& b = u.path;
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
      const std::uint8_t which = static_cast<std::uint8_t>(
          (u.yield_to == base.yield_to ? 0 : 1) | (same_vec(u.aside, base.aside) ? 0 : 2) |
          (same_vec(u.home, base.home) ? 0 : 4) | (same_vec(u.get_to, base.get_to) ? 0 : 8));
      w.byte(which);
      if (which & 1) {
        w.varint(u.yield_to.index);
        w.varint(u.yield_to.generation);
      }
      if (which & 2) w.vec(u.aside, base.aside);
      if (which & 4) w.vec(u.home, base.home);
      if (which & 8) w.vec(u.get_to, base.get_to);
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
}

// Applies one frame's bytes to `units` and sets `collisions`; false if they are damaged.
// `before`: as encode_frame's.
bool decode_frame(std::string_view bytes, std::vector<SimUnit>& units, std::span<const Vec2> before,
                  std::vector<Collision>& collisions) {
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
      r.pair(u.arrived_time, unused);
    }
    if (g & kPosition) {
      u.position = predicted_position(u, slot, before);
      r.vec(u.position);
    }
    if (g & kMotion) r.pair(u.heading, u.speed);
    if (g & kStatus) {
      const std::uint8_t state = r.byte(), yield = r.byte(), bits = r.byte();
      if (state > static_cast<std::uint8_t>(MoveState::Failed) ||
          yield > static_cast<std::uint8_t>(Yield::Detour))
        return false;
      u.state = static_cast<MoveState>(state);
      u.yield = static_cast<Yield>(yield);
      u.arrived = bits & 1;
      u.bridge_wait = bits & 2;
      u.passage_wait = bits & 4;
      u.goal_taken = bits & 8;
    }
    if (g & kIndices) {
      u.order_point = r.varint();
      u.waypoint = r.varint();
    }
    if (g & kPath) {
      const std::uint64_t prefix = r.varint(), suffix = r.varint(), middle = r.varint();
      // Each bound on its own: prefix + suffix may wrap around.
      if (!r.ok() || prefix > u.path.size() || suffix > u.path.size() - prefix || middle > bytes.size())
        return false;
      std::vector<Vec2> path(u.path.begin(), u.path.begin() + static_cast<std::ptrdiff_t>(prefix));
      Vec2 prev = prefix > 0 ? path.back() : Vec2{0, 0};
      for (std::uint64_t k = 0; k < middle; ++k) {
        Vec2 p = prev;
        r.vec(p);
        path.push_back(p);
        prev = p;
      }
      path.insert(path.end(), u.path.end() - static_cast<std::ptrdiff_t>(suffix), u.path.end());
      u.path = std::move(path);
    }
    if (g & kYieldDetail) {
      const std::uint8_t which = r.byte();
      if (which & 1) {
        u.yield_to.index = r.u32();
        u.yield_to.generation = r.u32();
      }
      if (which & 2) r.vec(u.aside);
      if (which & 4) r.vec(u.home);
      if (which & 8) r.vec(u.get_to);
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
  return r.ok() && r.done();
}

bool finite_point(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// The first value of decoded units that no simulation makes (a number that is not
// finite), named as "units[3].position"; "" when there is none.
std::string frame_value_error(const std::vector<SimUnit>& units) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    const SimUnit& u = units[i];
    const auto at = [&](const std::string& field) { return "units[" + std::to_string(i) + "]." + field; };
    if (!finite_point(u.position)) return at("position");
    if (!std::isfinite(u.heading)) return at("heading");
    if (!std::isfinite(u.speed)) return at("speed");
    for (std::size_t k = 0; k < u.path.size(); ++k) {
      if (!finite_point(u.path[k])) return at("path[" + std::to_string(k) + "]");
    }
    if (!finite_point(u.aside)) return at("aside");
    if (!finite_point(u.home)) return at("home");
    if (!finite_point(u.get_to)) return at("get_to");
  }
  return {};
}

double path_length(const std::vector<Vec2>& path) {
  double len = 0;
  for (std::size_t i = 1; i < path.size(); ++i) len += glm::length(path[i] - path[i - 1]);
  return len;
}

std::string fmt(const char* format, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

std::uint64_t pair_key(UnitId a, UnitId b) {
  const std::uint32_t lo = std::min(a.index, b.index), hi = std::max(a.index, b.index);
  return static_cast<std::uint64_t>(hi) << 32 | lo;
}

// The decisions' bytes in the file: a fixed order of fields per entry.
void write_decisions(std::span<const Decision> decisions, std::string& out) {
  Writer w(out);
  for (const Decision& d : decisions) {
    w.varint(d.step);
    w.varint(d.unit.index);
    w.varint(d.unit.generation);
    w.varint(d.who);
    w.byte(static_cast<std::uint8_t>(d.kind));
    w.byte(d.from);
    w.byte(d.to);
    w.byte(d.flags);
    w.byte(d.has_other ? 1 : 0);
    w.varint(d.other.index);
    w.varint(d.other.generation);
    w.varint(d.whom);
    w.varint(d.count);
    w.raw(d.point.x);
    w.raw(d.point.y);
    w.raw(d.value);
  }
}

// What read_decisions returns when every entry was read.
constexpr std::size_t kDecisionsRead = ~std::size_t{0};

// Reads the decisions' bytes; kDecisionsRead, or the byte offset of the damaged entry.
std::size_t read_decisions(std::string_view bytes, std::vector<Decision>& out) {
  Reader r(bytes.data(), bytes.size());
  while (r.ok() && !r.done()) {
    const std::size_t entry = r.offset();
    Decision d;
    d.step = r.varint();
    d.unit.index = r.u32();
    d.unit.generation = r.u32();
    d.who = r.u32();
    const std::uint8_t kind = r.byte();
    if (kind > static_cast<std::uint8_t>(DecisionKind::Unstuck)) return entry;
    d.kind = static_cast<DecisionKind>(kind);
    d.from = r.byte();
    d.to = r.byte();
    d.flags = r.byte();
    d.has_other = r.byte() != 0;
    d.other.index = r.u32();
    d.other.generation = r.u32();
    d.whom = r.u32();
    d.count = r.u32();
    d.point.x = r.raw();
    d.point.y = r.raw();
    d.value = r.raw();
    if (!r.ok()) return entry;
    out.push_back(d);
  }
  return kDecisionsRead;
}

}  // namespace

const char* to_string(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::Appeared: return "appeared";
    case DecisionKind::Removed: return "removed";
    case DecisionKind::State: return "state";
    case DecisionKind::PathRequested: return "path_requested";
    case DecisionKind::PathFound: return "path_found";
    case DecisionKind::PathFailed: return "path_failed";
    case DecisionKind::PathChanged: return "path_changed";
    case DecisionKind::Collision: return "collision";
    case DecisionKind::Yield: return "yield";
    case DecisionKind::BridgeWait: return "bridge_wait";
    case DecisionKind::PassageWait: return "passage_wait";
    case DecisionKind::Avoided: return "avoided";
    case DecisionKind::Pushed: return "pushed";
    case DecisionKind::Arrived: return "arrived";
    case DecisionKind::Stuck: return "stuck";
    case DecisionKind::Unstuck: return "unstuck";
  }
  return "?";
}

std::string describe(const Decision& d) {
  const auto state = [](std::uint8_t s) { return to_string(static_cast<MoveState>(s)); };
  switch (d.kind) {
    case DecisionKind::Appeared:
      return fmt("appeared at (%.2f, %.2f), %s", d.point.x, d.point.y, state(d.to));
    case DecisionKind::Removed: return "removed";
    case DecisionKind::State: return fmt("%s -> %s", state(d.from), state(d.to));
    case DecisionKind::PathRequested:
      return d.from == static_cast<std::uint8_t>(MoveState::Moving) ||
                     d.from == static_cast<std::uint8_t>(MoveState::IncrementWaypoint)
                 ? fmt("asks for a new path (re-path) to (%.2f, %.2f)", d.point.x, d.point.y)
                 : fmt("asks for a path to (%.2f, %.2f)", d.point.x, d.point.y);
    case DecisionKind::PathFound:
      return fmt("path of %.2f m (%u points) to (%.2f, %.2f)", d.value, d.count, d.point.x, d.point.y);
    case DecisionKind::PathFailed: return fmt("no path to (%.2f, %.2f): it stands", d.point.x, d.point.y);
    case DecisionKind::PathChanged:
      return fmt("path changed: %.2f m (%u points) to (%.2f, %.2f)", d.value, d.count, d.point.x, d.point.y);
    case DecisionKind::Collision: {
      const auto rule = static_cast<CooperationRule>(d.to);
      const auto cstate = static_cast<CollisionState>(d.flags >> kDecisionStateShift & 3);
      return fmt("%s %s collision with unit %u: %s, %s (%s)",
                 d.flags & kDecisionImmediate ? "immediate" : "future",
                 d.flags & kDecisionHard ? "hard" : "soft", d.whom, to_string(rule), to_string(cstate),
                 d.flags & kDecisionDecides ? "it decides" : "the other decides");
    }
    case DecisionKind::Yield: {
      std::string s =
          fmt("yield %s -> %s", to_string(static_cast<Yield>(d.from)), to_string(static_cast<Yield>(d.to)));
      if (d.has_other) s += fmt(" for unit %u", d.whom);
      const auto y = static_cast<Yield>(d.to);
      if (y == Yield::MoveAside || y == Yield::Detour || y == Yield::Return)
        s += fmt(", to (%.2f, %.2f)", d.point.x, d.point.y);
      return s;
    }
    case DecisionKind::BridgeWait:
      return d.to ? "waits before a bridge another platoon holds" : "no longer waits before the bridge";
    case DecisionKind::PassageWait:
      return d.to ? "waits before a narrow passage units come through the other way"
                  : "no longer waits before the passage";
    case DecisionKind::Avoided:
      return fmt("avoidance turns it %.1f deg off its path", d.value * 180 / std::numbers::pi);
    case DecisionKind::Pushed: return fmt("collision prevention pushes it %.3f m", d.value);
    case DecisionKind::Arrived: return fmt("arrived at (%.2f, %.2f)", d.point.x, d.point.y);
    case DecisionKind::Stuck: return fmt("flagged stuck: no progress for %.1f s", d.value);
    case DecisionKind::Unstuck: return "made progress again: no longer stuck";
  }
  return "?";
}

Recording::Recording(Scenario start, RecordingLimits limits) : start_(std::move(start)), limits_(limits) {
  limits_.keyframe_interval = std::max<std::uint32_t>(1, limits_.keyframe_interval);
}

std::size_t Recording::bytes() const {
  std::size_t n = data_.size() + offsets_.size() * sizeof(std::uint64_t) +
                  hashes_.size() * sizeof(std::uint64_t) + decisions_.size() * sizeof(Decision);
  for (const std::string& w : worlds_) n += w.size();
  for (const Snapshot& s : snapshots_) n += s.state.size() + sizeof(Snapshot);
  for (const RecordedStuck& s : stuck_) n += s.text.size() + sizeof(RecordedStuck);
  return n;
}

void Recording::stop(std::string message) {
  if (stop_message_.empty()) stop_message_ = std::move(message);
}

bool Recording::capture(const Simulation& simulation) {
  if (stopped()) return false;
  ++revision_;
  const std::uint64_t step = simulation.step_count();
  const bool first = empty();
  if (first) {
    first_step_ = step;
    live_ = true;
    detector_ = std::make_unique<StuckDetector>(stuck_params(simulation.scenario().sim));
    // A saved game with the detector's tracks flags units when the run it came from did.
    if (!start_.sim_state.empty()) {
      try {
        const Json state = Json::parse(start_.sim_state);
        if (const auto it = state.find("stuck_detector"); it != state.end())
          (void)detector_->restore_state(it->dump(), simulation.slots().size());
      } catch (const Json::exception&) {
        // Not a state: the simulation was not restored from it either.
      }
    }
  } else if (!live_ || step != last_step() + 1) {
    stop(fmt("recording stopped at step %llu: the simulation is at step %llu, not the next one",
             static_cast<unsigned long long>(last_step()), static_cast<unsigned long long>(step)));
    return false;
  }
  const auto slots = simulation.slots();
  // Whether each path changed since the last frame: compared once, used by the stuck
  // detector, the log, the frame and the state hash.
  path_changed_.resize(slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    path_changed_[i] = i < base_.size() ? !same_path(base_[i].path, slots[i].path) : !slots[i].path.empty();
  }
  if (!first) detector_->observe(simulation, path_changed_);
  log_changes(simulation);
  const std::size_t index = hashes_.size();
  const bool key = index % limits_.keyframe_interval == 0;
  offsets_.push_back(data_.size());
  const bool history = index % limits_.keyframe_interval >= 2;
  encode_frame(key, base_, history ? std::span<const Vec2>(before_) : std::span<const Vec2>(), slots,
               path_changed_,
               key ? std::span<const Collision>() : std::span<const Collision>(base_collisions_),
               simulation.collisions(), data_);
  base_collisions_.assign(simulation.collisions().begin(), simulation.collisions().end());
  // The frame just recorded becomes what the next is compared with; paths are copied (and
  // their digests for the state hash made) only when they changed.
  before_ = positions(base_);
  const std::size_t had = base_.size();
  base_.resize(slots.size());
  digests_.resize(slots.size(), path_digest({}));
  for (std::size_t i = had; i < slots.size(); ++i) base_[i].id.index = static_cast<std::uint32_t>(i);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    project_but_path(slots[i], base_[i]);
    if (path_changed_[i]) {
      base_[i].path = slots[i].path;
      digests_[i] = path_digest(slots[i].path);
    }
  }
  hashes_.push_back(state_hash(step, slots, digests_));
  if (first || simulation.time() - last_snapshot_time_ >= limits_.snapshot_seconds - 1e-9)
    take_snapshot(simulation, first);
  if (bytes() > limits_.max_bytes) {
    stop(
        fmt("recording stopped at step %llu (%.2f s): it reached its memory cap of %zu MB; the run goes on "
            "unrecorded",
            static_cast<unsigned long long>(step), simulation.time(), limits_.max_bytes >> 20));
  }
  return !stopped();
}

void Recording::take_snapshot(const Simulation& simulation, bool new_world) {
  if (new_world || worlds_.empty()) {
    Scenario world = saved_game(simulation);
    world.sim_state.clear();
    worlds_.push_back(scenario_to_json(world));
  }
  Snapshot s{simulation.step_count(), worlds_.size() - 1, simulation.state_json()};
  if (!snapshots_.empty() && snapshots_.back().step == s.step) {
    snapshots_.back() = std::move(s);
  } else {
    snapshots_.push_back(std::move(s));
  }
  last_snapshot_time_ = simulation.time();
}

void Recording::world_changed(const Simulation& simulation) {
  ++revision_;
  if (empty() || !live_ || stopped() || simulation.step_count() != last_step()) return;
  take_snapshot(simulation, true);
}

void Recording::log_changes(const Simulation& simulation) {
  const std::uint64_t step = simulation.step_count();
  const auto slots = simulation.slots();
  const bool first = empty();
  avoiding_.resize(slots.size(), 0);
  pushing_.resize(slots.size(), 0);
  const SimUnit blank;
  for (const SimUnit& u : slots) {
    const SimUnit& was = u.id.index < base_.size() ? base_[u.id.index] : blank;
    Decision d;
    d.step = step;
    d.unit = u.id;
    d.who = u.scenario_id;
    auto add = [&](DecisionKind kind) {
      Decision e = d;
      e.kind = kind;
      decisions_.push_back(e);
      return &decisions_.back();
    };
    const Vec2 target = u.order_point < u.order.points.size() ? u.order.points[u.order_point] : u.position;
    if (!u.alive) {
      if (was.alive && was.id.generation == u.id.generation) add(DecisionKind::Removed);
      continue;
    }
    if (first || !was.alive || was.id.generation != u.id.generation) {
      Decision* e = add(DecisionKind::Appeared);
      e->to = static_cast<std::uint8_t>(u.state);
      e->point = u.position;
      if (first) continue;
    }
    const bool path_changed = path_changed_[u.id.index] != 0;
    if (was.state != u.state) {
      if (u.state == MoveState::WaitingForPath) {
        Decision* e = add(DecisionKind::PathRequested);
        e->from = static_cast<std::uint8_t>(was.state);
        e->point = target;
      } else if (u.state == MoveState::Failed) {
        add(DecisionKind::PathFailed)->point = target;
      } else if (!(was.state == MoveState::WaitingForPath && path_changed)) {
        Decision* e = add(DecisionKind::State);
        e->from = static_cast<std::uint8_t>(was.state);
        e->to = static_cast<std::uint8_t>(u.state);
      }
    }
    if (path_changed && !u.path.empty()) {
      Decision* e =
          add(was.state == MoveState::WaitingForPath ? DecisionKind::PathFound : DecisionKind::PathChanged);
      e->value = path_length(u.path);
      e->count = static_cast<std::uint32_t>(u.path.size());
      e->point = u.path.back();
    }
    if (was.yield != u.yield || (u.yield != Yield::None && !(was.yield_to == u.yield_to))) {
      Decision* e = add(DecisionKind::Yield);
      e->from = static_cast<std::uint8_t>(was.yield);
      e->to = static_cast<std::uint8_t>(u.yield);
      if (u.yield != Yield::None) {
        if (const SimUnit* other = simulation.unit(u.yield_to)) {
          e->has_other = true;
          e->other = u.yield_to;
          e->whom = other->scenario_id;
        }
      }
      e->point = u.yield == Yield::Return ? u.home : u.aside;
    }
    if (was.bridge_wait != u.bridge_wait) add(DecisionKind::BridgeWait)->to = u.bridge_wait ? 1 : 0;
    if (was.passage_wait != u.passage_wait) add(DecisionKind::PassageWait)->to = u.passage_wait ? 1 : 0;
    const bool avoiding = std::abs(u.steered) > 1e-3;
    if (avoiding && !avoiding_[u.id.index]) add(DecisionKind::Avoided)->value = u.steered;
    avoiding_[u.id.index] = avoiding;
    const double push = glm::length(u.pushed);
    const bool pushing = push > 1e-4;
    if (pushing && !pushing_[u.id.index]) add(DecisionKind::Pushed)->value = push;
    pushing_[u.id.index] = pushing;
    if (u.arrived && !was.arrived) add(DecisionKind::Arrived)->point = u.position;
  }
  // Collisions: each pair when found, and again when its rule or state changes.
  std::unordered_map<std::uint64_t, std::uint16_t> contacts;
  for (const Collision& c : simulation.collisions()) {
    const std::uint64_t key = pair_key(c.a, c.b);
    const auto code =
        static_cast<std::uint16_t>(static_cast<int>(c.rule) << 8 | static_cast<int>(c.state) << 2 |
                                   (c.hard ? 1 : 0) | (c.immediate ? 2 : 0));
    if (!contacts.emplace(key, code).second) continue;
    const auto it = contacts_.find(key);
    if (it != contacts_.end() && it->second == code) continue;
    const SimUnit* a = simulation.unit(c.a);
    const SimUnit* b = simulation.unit(c.b);
    if (!a || !b) continue;
    for (int side = 0; side < 2; ++side) {
      const SimUnit& me = side == 0 ? *a : *b;
      const SimUnit& other = side == 0 ? *b : *a;
      Decision d;
      d.step = step;
      d.unit = me.id;
      d.who = me.scenario_id;
      d.kind = DecisionKind::Collision;
      d.to = static_cast<std::uint8_t>(c.rule);
      d.flags = static_cast<std::uint8_t>(
          (c.hard ? kDecisionHard : 0) | (c.immediate ? kDecisionImmediate : 0) |
          (side == 0 ? kDecisionDecides : 0) | static_cast<int>(c.state) << kDecisionStateShift);
      d.has_other = true;
      d.other = other.id;
      d.whom = other.scenario_id;
      d.point = c.point;
      d.value = c.time;
      decisions_.push_back(d);
    }
  }
  contacts_ = std::move(contacts);
  // Stuck flags the detector raised at this step.
  if (detector_) {
    const auto events = detector_->events();
    for (std::size_t i = stuck_seen_; i < events.size(); ++i) {
      const StuckEvent& e = events[i];
      Decision d;
      d.step = step;
      d.unit = e.id;
      d.who = e.unit;
      d.kind = DecisionKind::Stuck;
      d.point = e.position;
      d.value = e.time - e.since;
      decisions_.push_back(d);
      stuck_.push_back({step, e.id, e.unit, e.time, e.since, RecordedStuck::kStillStuck, describe(e)});
    }
    stuck_seen_ = events.size();
    // Flags whose unit made progress again.
    for (std::size_t i = stuck_watched_from_; i < stuck_.size(); ++i) {
      RecordedStuck& r = stuck_[i];
      if (r.until != RecordedStuck::kStillStuck || r.step == step || detector_->is_stuck(r.unit)) continue;
      r.until = step;
      Decision d;
      d.step = step;
      d.unit = r.unit;
      d.who = r.who;
      d.kind = DecisionKind::Unstuck;
      if (const SimUnit* u = simulation.unit(r.unit)) d.point = u->position;
      decisions_.push_back(d);
    }
  }
}

std::vector<UnitId> Recording::stuck_at(std::uint64_t step) const {
  std::vector<UnitId> out;
  for (const RecordedStuck& r : stuck_) {
    if (r.step <= step && step < r.until) out.push_back(r.unit);
  }
  return out;
}

void Recording::truncate_after(std::uint64_t step) {
  if (empty() || step < first_step_) return;
  ++revision_;
  if (step < last_step()) {
    const std::size_t n = step - first_step_ + 1;
    data_.resize(offsets_[n]);
    offsets_.resize(n);
    hashes_.resize(n);
    std::erase_if(snapshots_, [&](const Snapshot& s) { return s.step > step; });
    std::erase_if(decisions_, [&](const Decision& d) { return d.step > step; });
    std::erase_if(stuck_, [&](const RecordedStuck& s) { return s.step > step; });
    for (RecordedStuck& s : stuck_) {
      if (s.until != RecordedStuck::kStillStuck && s.until > step) s.until = RecordedStuck::kStillStuck;
    }
    const std::size_t worlds = snapshots_.empty() ? 0 : snapshots_.back().world + 1;
    worlds_.resize(std::max<std::size_t>(worlds, 1));
  }
  // The detector starts afresh: flags still open end here (it flags them again if they
  // stay stuck).
  for (RecordedStuck& s : stuck_) {
    if (s.until == RecordedStuck::kStillStuck) s.until = step + 1;
  }
  // Take up recording from `step`: what capture() compares the next step with.
  stop_message_.clear();
  auto frame_then = frame(step);
  base_ = frame_then ? std::move(frame_then->units) : std::vector<SimUnit>{};
  digests_.resize(base_.size());
  for (std::size_t i = 0; i < base_.size(); ++i) digests_[i] = path_digest(base_[i].path);
  before_.clear();
  if (step > first_step_ && (step - first_step_) % limits_.keyframe_interval >= 1) {
    if (auto earlier = frame(step - 1)) before_ = positions(earlier->units);
  }
  contacts_.clear();
  base_collisions_.clear();
  if (frame_then) {
    base_collisions_ = frame_then->collisions;
    for (const Collision& c : frame_then->collisions) {
      contacts_.emplace(
          pair_key(c.a, c.b),
          static_cast<std::uint16_t>(static_cast<int>(c.rule) << 8 | static_cast<int>(c.state) << 2 |
                                     (c.hard ? 1 : 0) | (c.immediate ? 2 : 0)));
    }
  }
  avoiding_.assign(base_.size(), 0);
  pushing_.assign(base_.size(), 0);
  detector_ = std::make_unique<StuckDetector>(stuck_params(start_.sim));
  stuck_seen_ = 0;
  stuck_watched_from_ = stuck_.size();
  last_snapshot_time_ = snapshots_.empty() ? -1 : static_cast<double>(snapshots_.back().step) * dt();
  live_ = true;
}

std::string Recording::at(const std::string& field) const {
  return source_.empty() ? field : field.empty() ? source_ : source_ + ": " + field;
}

Status Recording::decode_next(std::size_t j, Frame& f, std::vector<Vec2>& before) const {
  const std::size_t key = j - j % limits_.keyframe_interval;
  const std::uint64_t begin = offsets_[j];
  const std::uint64_t end = j + 1 < offsets_.size() ? offsets_[j + 1] : data_.size();
  std::vector<Vec2> next_before = positions(f.units);
  const bool history = j - key >= 2;
  f.step = first_step_ + j;
  const auto damaged = [&](const std::string& why) {
    return make_error(
        ErrorCode::Parse,
        at(fmt("frames, bytes %llu to %llu", static_cast<unsigned long long>(begin),
               static_cast<unsigned long long>(end))),
        fmt("the frame of step %llu is damaged: ", static_cast<unsigned long long>(f.step)) + why);
  };
  if (!decode_frame(std::string_view(data_).substr(begin, end - begin), f.units,
                    history ? std::span<const Vec2>(before) : std::span<const Vec2>(), f.collisions)) {
    return damaged("its bytes do not decode");
  }
  if (const std::string field = frame_value_error(f.units); !field.empty())
    return damaged(field + " is not a finite number");
  before.swap(next_before);
  return Ok{};
}

Result<Frame> Recording::frame(std::uint64_t step) const {
  if (!has(step)) {
    return make_error(
        ErrorCode::Value, at("step"),
        empty()
            ? fmt("step %llu was not recorded: the recording is empty", static_cast<unsigned long long>(step))
            : fmt("step %llu was not recorded (steps %llu to %llu were)",
                  static_cast<unsigned long long>(step), static_cast<unsigned long long>(first_step_),
                  static_cast<unsigned long long>(last_step())));
  }
  const std::size_t i = step - first_step_;
  Frame f;
  std::vector<Vec2> before;
  for (std::size_t j = i - i % limits_.keyframe_interval; j <= i; ++j) {
    if (Status decoded = decode_next(j, f, before); !decoded) return decoded.error();
  }
  return f;
}

Status Recording::for_each_frame(const std::function<bool(const Frame&)>& visit) const {
  Frame f;
  std::vector<Vec2> before;
  for (std::size_t j = 0; j < offsets_.size(); ++j) {
    if (Status decoded = decode_next(j, f, before); !decoded) return decoded;
    if (!visit(f)) break;
  }
  return Ok{};
}

std::vector<std::size_t> Recording::decisions_of(UnitId unit) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < decisions_.size(); ++i) {
    if (decisions_[i].unit == unit) out.push_back(i);
  }
  return out;
}

const Snapshot* Recording::snapshot_before(std::uint64_t step) const {
  const Snapshot* best = nullptr;
  for (const Snapshot& s : snapshots_) {
    if (s.step <= step) best = &s;
  }
  return best;
}

Result<std::unique_ptr<Simulation>> Recording::resume(std::uint64_t step) const {
  if (!has(step)) return frame(step).error();
  const Snapshot* snap = snapshot_before(step);
  if (!snap || snap->world >= worlds_.size())
    return make_error(ErrorCode::Value, at("snapshots"),
                      fmt("no snapshot at or before step %llu", static_cast<unsigned long long>(step)));
  const std::size_t index = static_cast<std::size_t>(snap - snapshots_.data());
  const std::string where =
      fmt("snapshots[%zu] (step %llu)", index, static_cast<unsigned long long>(snap->step));
  auto world = parse_scenario(worlds_[snap->world], at(fmt("worlds[%zu]", snap->world)));
  if (!world) return world.error();
  world->sim_state.clear();
  auto simulation = std::make_unique<Simulation>(std::move(*world));
  if (Status restored = simulation->restore_state(snap->state); !restored.ok()) {
    Error e = restored.error();
    e.where = at(where + " " + e.where);
    return e;
  }
  // The state's own step must be the snapshot's: running on from an earlier one would
  // take as many steps as the state says, not as the recording holds.
  if (simulation->step_count() != snap->step) {
    return make_error(ErrorCode::Value, at(where + ".state"),
                      fmt("the state is at step %llu, not at the snapshot's step",
                          static_cast<unsigned long long>(simulation->step_count())));
  }
  while (simulation->step_count() < step) simulation->step();
  if (simulation->state_hash() != hash(step)) {
    return make_error(
        ErrorCode::Value, at("hashes"),
        fmt("running on from the snapshot of step %llu does not give the recorded state at step %llu "
            "(was the recording made by another version of Pathscope?)",
            static_cast<unsigned long long>(snap->step), static_cast<unsigned long long>(step)));
  }
  return simulation;
}

std::string Recording::to_bytes() const {
  Json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["scenario"] = scenario_to_json(start_);
  j["first_step"] = first_step_;
  j["keyframe_interval"] = limits_.keyframe_interval;
  j["snapshot_seconds"] = limits_.snapshot_seconds;
  j["max_bytes"] = limits_.max_bytes;
  j["frames"] = Json::binary(std::vector<std::uint8_t>(data_.begin(), data_.end()));
  j["offsets"] = offsets_;
  j["hashes"] = hashes_;
  j["worlds"] = worlds_;
  Json snaps = Json::array();
  for (const Snapshot& s : snapshots_)
    snaps.push_back({{"step", s.step}, {"world", s.world}, {"state", s.state}});
  j["snapshots"] = std::move(snaps);
  std::string log;
  write_decisions(decisions_, log);
  j["decisions"] = Json::binary(std::vector<std::uint8_t>(log.begin(), log.end()));
  Json stuck = Json::array();
  for (const RecordedStuck& s : stuck_) {
    stuck.push_back({{"step", s.step},
                     {"slot", s.unit.index},
                     {"generation", s.unit.generation},
                     {"unit", s.who},
                     {"time", s.time},
                     {"since", s.since},
                     {"until", s.until},
                     {"text", s.text}});
  }
  j["stuck"] = std::move(stuck);
  j["stopped"] = stop_message_;
  const std::vector<std::uint8_t> cbor = Json::to_cbor(j);
  return std::string(cbor.begin(), cbor.end());
}

Result<Recording> Recording::from_bytes(std::string_view bytes, const std::string& source_name) {
  Json j;
  {
    DepthLimitedReader reader(j);
    bool read = false;
    try {
      read = Json::sax_parse(bytes.begin(), bytes.end(), &reader, nlohmann::json::input_format_t::cbor);
    } catch (const Json::parse_error& e) {
      return make_error(ErrorCode::Parse, source_name,
                        "not a recording: its bytes are not well-formed CBOR (at byte " +
                            std::to_string(e.byte > 0 ? e.byte - 1 : 0) + ")");
    } catch (const Json::exception&) {
      return make_error(ErrorCode::Parse, source_name, "not a recording: its bytes are not well-formed CBOR");
    }
    if (reader.too_deep()) {
      return make_error(
          ErrorCode::Parse, source_name,
          "not a recording: lists and maps nested more than " + std::to_string(kMaxCborDepth) + " deep");
    }
    if (!read) return make_error(ErrorCode::Parse, source_name, "not a recording: its CBOR ends early");
  }
  const auto bad = [&](const std::string& field, const std::string& message) {
    return make_error(ErrorCode::Schema, source_name + ": " + field, message);
  };
  // A file of another kind (a text file renamed .psrec) may still read as CBOR: one
  // number or string. A recording is always a map.
  if (!j.is_object())
    return bad("(top)", std::string("not a Pathscope recording (it holds a CBOR ") + j.type_name() +
                            ", not a recording's map)");
  if (!j.contains("format") || j["format"] != kFormat)
    return bad("format", std::string("expected \"") + kFormat + "\": not a Pathscope recording");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"] != kVersion)
    return bad("version", "expected " + std::to_string(kVersion));
  for (const char* f : {"scenario", "first_step", "keyframe_interval", "frames", "offsets", "hashes",
                        "worlds", "snapshots", "decisions", "stuck"}) {
    if (!j.contains(f)) return bad(f, "missing");
  }
  // A whole number from 0 to `max`, or nullopt.
  const auto whole = [](const Json& v, std::uint64_t max) -> std::optional<std::uint64_t> {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max) return std::nullopt;
    return v.get<std::uint64_t>();
  };
  const auto whole_text = [](std::uint64_t max) {
    return "expected a whole number from 0 to " + std::to_string(max);
  };
  constexpr std::uint64_t kU32 = 0xffffffffu;
  if (!j["scenario"].is_string()) return bad("scenario", "expected the scenario's JSON text");
  auto start = parse_scenario(j["scenario"].get<std::string>(), source_name + ": scenario");
  if (!start) return start.error();
  RecordingLimits limits;
  const auto interval = whole(j["keyframe_interval"], kMaxKeyframeInterval);
  if (!interval || *interval < 1)
    return bad("keyframe_interval",
               "expected a whole number from 1 to " + std::to_string(kMaxKeyframeInterval));
  limits.keyframe_interval = static_cast<std::uint32_t>(*interval);
  if (j.contains("snapshot_seconds")) {
    const Json& v = j["snapshot_seconds"];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
      return bad("snapshot_seconds", "expected a number of seconds above 0");
    limits.snapshot_seconds = v.get<double>();
  }
  if (j.contains("max_bytes")) {
    const auto cap = whole(j["max_bytes"], std::numeric_limits<std::uint64_t>::max());
    if (!cap) return bad("max_bytes", "expected a whole number of bytes");
    limits.max_bytes = static_cast<std::size_t>(*cap);
  }
  Recording rec(std::move(*start), limits);
  rec.source_ = source_name;
  const auto first = whole(j["first_step"], kMaxRecordedStep);
  if (!first) return bad("first_step", whole_text(kMaxRecordedStep));
  rec.first_step_ = *first;
  if (!j["frames"].is_binary()) return bad("frames", "expected bytes");
  const auto& frames = j["frames"].get_binary();
  rec.data_.assign(frames.begin(), frames.end());
  const Json& offsets = j["offsets"];
  const Json& hashes = j["hashes"];
  if (!offsets.is_array()) return bad("offsets", "expected a list of whole numbers");
  if (!hashes.is_array()) return bad("hashes", "expected a list of whole numbers");
  if (offsets.size() != hashes.size())
    return bad("offsets", "expected one offset per hash (" + std::to_string(hashes.size()) + "), found " +
                              std::to_string(offsets.size()));
  // A frame takes at least 4 bytes; and no step past the last a state may have.
  if (offsets.size() > rec.data_.size() || offsets.size() > kMaxRecordedStep - rec.first_step_)
    return bad("offsets", "more frames (" + std::to_string(offsets.size()) + ") than the frames' " +
                              std::to_string(rec.data_.size()) + " bytes or the steps allow");
  rec.offsets_.reserve(offsets.size());
  rec.hashes_.reserve(hashes.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const auto offset = whole(offsets[i], rec.data_.size());
    if (!offset) return bad("offsets[" + std::to_string(i) + "]", whole_text(rec.data_.size()));
    if ((i == 0 && *offset != 0) || (i > 0 && *offset < rec.offsets_.back()))
      return bad("offsets[" + std::to_string(i) + "]", "out of order (the first must be 0)");
    rec.offsets_.push_back(*offset);
    if (!hashes[i].is_number_unsigned())
      return bad("hashes[" + std::to_string(i) + "]", "expected a whole number (a state hash)");
    rec.hashes_.push_back(hashes[i].get<std::uint64_t>());
  }
  const Json& worlds = j["worlds"];
  if (!worlds.is_array()) return bad("worlds", "expected a list of scenario JSON texts");
  for (std::size_t i = 0; i < worlds.size(); ++i) {
    if (!worlds[i].is_string())
      return bad("worlds[" + std::to_string(i) + "]", "expected a scenario's JSON text");
    rec.worlds_.push_back(worlds[i].get<std::string>());
  }
  if (!j["snapshots"].is_array()) return bad("snapshots", "expected a list");
  for (std::size_t i = 0; i < j["snapshots"].size(); ++i) {
    const Json& s = j["snapshots"][i];
    const std::string where = "snapshots[" + std::to_string(i) + "]";
    if (!s.is_object() || !s.contains("step") || !s.contains("world") || !s.contains("state"))
      return bad(where, "expected {step, world, state}");
    const auto step = whole(s["step"], kMaxRecordedStep);
    if (!step) return bad(where + ".step", whole_text(kMaxRecordedStep));
    const auto world = whole(s["world"], rec.worlds_.size());
    if (!world || *world >= rec.worlds_.size()) return bad(where + ".world", "names no world");
    if (!s["state"].is_string()) return bad(where + ".state", "expected the state's JSON text");
    if (!rec.has(*step)) return bad(where + ".step", "outside the recorded steps");
    if (!rec.snapshots_.empty() && *step <= rec.snapshots_.back().step)
      return bad(where + ".step", "not after the step of the snapshot before");
    rec.snapshots_.push_back(
        Snapshot{*step, static_cast<std::size_t>(*world), s["state"].get<std::string>()});
  }
  if (!j["decisions"].is_binary()) return bad("decisions", "expected bytes");
  const auto& log = j["decisions"].get_binary();
  if (const std::size_t damaged = read_decisions(
          std::string_view(reinterpret_cast<const char*>(log.data()), log.size()), rec.decisions_);
      damaged != kDecisionsRead)
    return bad("decisions", "damaged at byte " + std::to_string(damaged) + " of the log");
  if (!j["stuck"].is_array()) return bad("stuck", "expected a list");
  for (std::size_t i = 0; i < j["stuck"].size(); ++i) {
    const Json& s = j["stuck"][i];
    const std::string where = "stuck[" + std::to_string(i) + "]";
    if (!s.is_object())
      return bad(where, "expected {step, slot, generation, unit, time, since, until, text}");
    const auto field = [&](const char* name) -> const Json* {
      const auto it = s.find(name);
      return it == s.end() ? nullptr : &*it;
    };
    RecordedStuck r;
    const std::pair<const char*, std::uint64_t> wholes[] = {
        {"step", std::numeric_limits<std::uint64_t>::max()},
        {"slot", kU32},
        {"generation", kU32},
        {"unit", kU32},
        {"until", std::numeric_limits<std::uint64_t>::max()}};
    std::uint64_t values[5] = {};
    for (std::size_t k = 0; k < 5; ++k) {
      const Json* v = field(wholes[k].first);
      const auto value = v ? whole(*v, wholes[k].second) : std::nullopt;
      if (!value) return bad(where + "." + wholes[k].first, whole_text(wholes[k].second));
      values[k] = *value;
    }
    r.step = values[0];
    r.unit.index = static_cast<std::uint32_t>(values[1]);
    r.unit.generation = static_cast<std::uint32_t>(values[2]);
    r.who = static_cast<std::uint32_t>(values[3]);
    r.until = values[4];
    for (const char* name : {"time", "since"}) {
      const Json* v = field(name);
      if (!v || !v->is_number() || !std::isfinite(v->get<double>()))
        return bad(where + "." + name, "expected a finite number of seconds");
      (std::string_view(name) == "time" ? r.time : r.since) = v->get<double>();
    }
    const Json* text = field("text");
    if (!text || !text->is_string()) return bad(where + ".text", "expected a text");
    r.text = text->get<std::string>();
    rec.stuck_.push_back(std::move(r));
  }
  if (j.contains("stopped")) {
    if (!j["stopped"].is_string()) return bad("stopped", "expected a text");
    rec.stop_message_ = j["stopped"].get<std::string>();
  }
  return rec;
}

Status Recording::save(const std::filesystem::path& path) const {
  return write_file_atomically(path, to_bytes());
}

Result<Recording> Recording::load(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string where = path.string();
  std::error_code ec;
  if (!fs::exists(path, ec) || ec)
    return make_error(ErrorCode::Io, where, "cannot read the file: it does not exist");
  if (fs::is_directory(path, ec))
    return make_error(ErrorCode::Io, where, "cannot read the file: it is a directory");
  if (const std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxFileBytes)
    return make_error(
        ErrorCode::Limit, where,
        "the file is " + std::to_string(size) + " bytes; the limit is " + std::to_string(kMaxFileBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::Io, where, "cannot open the file for reading");
  std::string bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::Limit, where, "out of memory while reading the file");
  }
  if (in.bad()) return make_error(ErrorCode::Io, where, "read error");
  return from_bytes(bytes, where);
}

}  // namespace pathscope::sim

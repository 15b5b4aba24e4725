// Recordings' frame codec, the platoons' part (recording_codec.hpp): every field of each
// platoon (platoon_drive.hpp), so that a recorded step draws exactly what the live one
// drew. A platoon is written as a byte of changed field groups against the same platoon in
// the frame before (by its index: a run's platoons are the scenario's groups, in order),
// then those groups' values. Doubles are coded as the unit slots' are, as the bits that
// differ from the same value in the frame before; a list's k-th item against the k-th
// item before, or against the item's defaults when the list was shorter; point lists
// (paths, walks, offsets) each point against the point before it. A platoon standing
// without an order costs one byte a frame.

#include <algorithm>
#include <cmath>
#include <limits>

#include "planner/sim/recording_codec.hpp"

namespace pathscope::sim::recording_detail {

namespace {

// Field groups of a platoon in a frame.
enum PlatoonGroup : std::uint8_t {
  kPlatoonSetup = 1,   // group, slots, path class, spacing, params, both formations
  kPlatoonOrder = 2,   // order, goal, final heading, requester, arrived time
  kPlatoonPath = 4,    // path, walk
  kPlatoonMotion = 8,  // motion
  kPlatoonSlots = 16,  // morph, targets
  kPlatoonCrews = 32,  // crews
  kPlatoonAll = 63,
};

bool same_d(double a, double b) { return bits_of(a) == bits_of(b); }

bool same_points(std::span<const Vec2> a, std::span<const Vec2> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_vec);
}

bool same_doubles(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_d);
}

// Each PlatoonParams value, in the order they are written.
template <typename Params, typename F>
void each_param(Params& a, F f) {
  f(a.max_speed);
  f(a.acceleration);
  f(a.turn_rate);
  f(a.corner_lookahead);
  f(a.slack);
  f(a.wait_factor);
  f(a.resume_factor);
  f(a.obstacle_slowdown);
  f(a.formation_change_seconds);
  f(a.final_heading_tolerance);
  f(a.wait_patience);
  f(a.press_on_factor);
}

bool same_params(const PlatoonParams& a, const PlatoonParams& b) {
  std::vector<double> va, vb;
  each_param(a, [&](double v) { va.push_back(v); });
  each_param(b, [&](double v) { vb.push_back(v); });
  return same_doubles(va, vb);
}

bool same_formation(const PlatoonFormation& a, const PlatoonFormation& b) {
  return a.shape == b.shape && same_points(a.offsets, b.offsets);
}

bool same_setup(const PlatoonRun& a, const PlatoonRun& b) {
  return a.group == b.group && a.slots == b.slots && a.path_class == b.path_class &&
         same_d(a.spacing, b.spacing) && same_params(a.params, b.params) && same_formation(a.from, b.from) &&
         same_formation(a.to, b.to);
}

bool same_order(const PlatoonRun& a, const PlatoonRun& b) {
  return a.order == b.order && same_vec(a.goal, b.goal) &&
         a.final_heading.has_value() == b.final_heading.has_value() &&
         (!a.final_heading || same_d(*a.final_heading, *b.final_heading)) && a.requester == b.requester &&
         same_d(a.arrived_time, b.arrived_time) && same_points(a.legs, b.legs);
}

bool same_walk(const PathWalk& a, const PathWalk& b) {
  return same_points(a.points(), b.points()) && same_d(a.path_start(), b.path_start());
}

bool same_motion(const PlatoonMotion& a, const PlatoonMotion& b) {
  return same_vec(a.position, b.position) && same_d(a.heading, b.heading) && same_d(a.speed, b.speed) &&
         same_d(a.along, b.along) && a.phase == b.phase && same_d(a.final_heading, b.final_heading) &&
         same_d(a.formation_blend, b.formation_blend) && same_d(a.wait_best, b.wait_best) &&
         same_d(a.wait_stalled, b.wait_stalled) && a.pressing_on == b.pressing_on;
}

bool same_target(const SlotTarget& a, const SlotTarget& b) {
  return same_vec(a.formation, b.formation) && same_vec(a.column, b.column) &&
         same_vec(a.drive_to, b.drive_to) && same_d(a.morph, b.morph);
}

bool same_crew(const CrewState& a, const CrewState& b) {
  return a.direction == b.direction && a.backing_turn == b.backing_turn && a.turn_side == b.turn_side &&
         a.heading_case == b.heading_case && same_vec(a.steering, b.steering) && a.avoided == b.avoided &&
         a.stopped == b.stopped && same_points(a.private_path.points(), b.private_path.points()) &&
         a.private_path.index() == b.private_path.index() &&
         same_d(a.private_path.release_distance(), b.private_path.release_distance()) &&
         a.private_path_pending == b.private_path_pending && same_d(a.last_check, b.last_check) &&
         a.private_paths == b.private_paths && a.three_point_turns == b.three_point_turns;
}

std::uint8_t platoon_groups(const PlatoonRun& was, const PlatoonRun& now) {
  std::uint8_t g = 0;
  if (!same_setup(was, now)) g |= kPlatoonSetup;
  if (!same_order(was, now)) g |= kPlatoonOrder;
  if (!same_points(was.path, now.path) || !same_walk(was.walk, now.walk)) g |= kPlatoonPath;
  if (!same_motion(was.motion, now.motion)) g |= kPlatoonMotion;
  if (!same_doubles(was.morph, now.morph) || now.targets.size() != was.targets.size() ||
      !std::equal(now.targets.begin(), now.targets.end(), was.targets.begin(), same_target))
    g |= kPlatoonSlots;
  if (now.crews.size() != was.crews.size() ||
      !std::equal(now.crews.begin(), now.crews.end(), was.crews.begin(), same_crew))
    g |= kPlatoonCrews;
  return g;
}

void write_id(Writer& w, UnitId id) {
  w.varint(id.index);
  w.varint(id.generation);
}

UnitId read_id(Reader& r) {
  UnitId id;
  id.index = r.u32();
  id.generation = r.u32();
  return id;
}

// One value against the value before.
void write_d(Writer& w, double v, double was) { w.pair(v, was, 0, 0); }
void read_d(Reader& r, double& v) {
  double unused = 0;
  r.pair(v, unused);
}

// A list of points, each against the point before it (the first against (0, 0)).
void write_points(Writer& w, std::span<const Vec2> points) {
  w.varint(points.size());
  Vec2 prev{0, 0};
  for (const Vec2 p : points) {
    w.vec(p, prev);
    prev = p;
  }
}

// False past `bytes` points (each takes at least a byte).
bool read_points(Reader& r, std::size_t bytes, std::vector<Vec2>& out) {
  const std::uint64_t n = r.varint();
  if (!r.ok() || n > bytes) return false;
  out.assign(n, Vec2{0, 0});
  Vec2 prev{0, 0};
  for (Vec2& p : out) {
    p = prev;
    r.vec(p);
    prev = p;
  }
  return r.ok();
}

void write_formation(Writer& w, const PlatoonFormation& f) {
  w.byte(static_cast<std::uint8_t>(f.shape));
  write_points(w, f.offsets);
}

bool read_formation(Reader& r, std::size_t bytes, PlatoonFormation& f) {
  const std::uint8_t shape = r.byte();
  if (shape > static_cast<std::uint8_t>(FormationShape::Custom)) return false;
  f.shape = static_cast<FormationShape>(shape);
  return read_points(r, bytes, f.offsets);
}

std::uint8_t crew_bits(const CrewState& c) {
  return static_cast<std::uint8_t>((c.backing_turn ? 1 : 0) | (c.stopped ? 2 : 0) |
                                   (c.private_path_pending ? 4 : 0));
}

void encode_platoon(const PlatoonRun& was, const PlatoonRun& p, Writer& w) {
  const std::uint8_t g = platoon_groups(was, p);
  w.byte(g);
  if (g & kPlatoonSetup) {
    w.varint(p.group);
    w.varint(p.slots.size());
    for (const UnitId id : p.slots) write_id(w, id);
    w.varint(p.path_class);
    write_d(w, p.spacing, was.spacing);
    std::vector<double> before;
    each_param(was.params, [&](double v) { before.push_back(v); });
    std::size_t k = 0;
    each_param(p.params, [&](double v) { write_d(w, v, before[k++]); });
    write_formation(w, p.from);
    write_formation(w, p.to);
  }
  if (g & kPlatoonOrder) {
    w.byte(static_cast<std::uint8_t>(p.order));
    w.vec(p.goal, was.goal);
    w.byte(p.final_heading ? 1 : 0);
    if (p.final_heading) write_d(w, *p.final_heading, was.final_heading.value_or(0));
    write_id(w, p.requester);
    write_d(w, p.arrived_time, was.arrived_time);
    write_points(w, p.legs);
  }
  if (g & kPlatoonPath) {
    write_points(w, p.path);
    write_points(w, p.walk.points());
    write_d(w, p.walk.path_start(), was.walk.path_start());
  }
  if (g & kPlatoonMotion) {
    const PlatoonMotion& m = p.motion;
    const PlatoonMotion& b = was.motion;
    w.vec(m.position, b.position);
    w.pair(m.heading, b.heading, m.speed, b.speed);
    w.pair(m.along, b.along, m.final_heading, b.final_heading);
    write_d(w, m.formation_blend, b.formation_blend);
    write_d(w, m.wait_best, b.wait_best);
    write_d(w, m.wait_stalled, b.wait_stalled);
    w.byte(static_cast<std::uint8_t>(m.phase) | (m.pressing_on ? 0x80 : 0));
  }
  if (g & kPlatoonSlots) {
    w.varint(p.morph.size());
    for (std::size_t k = 0; k < p.morph.size(); ++k)
      write_d(w, p.morph[k], k < was.morph.size() ? was.morph[k] : 0);
    w.varint(p.targets.size());
    const SlotTarget blank;
    for (std::size_t k = 0; k < p.targets.size(); ++k) {
      const SlotTarget& t = p.targets[k];
      const SlotTarget& b = k < was.targets.size() ? was.targets[k] : blank;
      w.vec(t.formation, b.formation);
      w.vec(t.column, b.column);
      w.vec(t.drive_to, b.drive_to);
      write_d(w, t.morph, b.morph);
    }
  }
  if (g & kPlatoonCrews) {
    w.varint(p.crews.size());
    const CrewState blank;
    for (std::size_t k = 0; k < p.crews.size(); ++k) {
      const CrewState& c = p.crews[k];
      const CrewState& b = k < was.crews.size() ? was.crews[k] : blank;
      w.byte(static_cast<std::uint8_t>(c.direction));
      w.byte(static_cast<std::uint8_t>(c.turn_side + 1));
      w.byte(static_cast<std::uint8_t>(c.heading_case));
      w.byte(crew_bits(c));
      w.vec(c.steering, b.steering);
      write_id(w, c.avoided);
      write_points(w, c.private_path.points());
      w.varint(c.private_path.index());
      write_d(w, c.private_path.release_distance(), b.private_path.release_distance());
      write_d(w, c.last_check, b.last_check);
      w.varint(c.private_paths);
      w.varint(c.three_point_turns);
    }
  }
}

// `slots`: the frame's slot count; an id names one of them, or none (index ~0).
bool names_slot(UnitId id, std::size_t slots) {
  return id.index < slots || id.index == std::numeric_limits<std::uint32_t>::max();
}

bool decode_platoon(Reader& r, std::size_t bytes, std::size_t slots, PlatoonRun& p) {
  const std::uint8_t g = r.byte();
  if (!r.ok() || (g & ~kPlatoonAll) != 0) return false;
  if (g & kPlatoonSetup) {
    p.group = r.u32();
    const std::uint64_t n = r.varint();
    if (!r.ok() || n > bytes) return false;
    p.slots.assign(n, UnitId{});
    for (UnitId& id : p.slots) {
      id = read_id(r);
      if (!names_slot(id, slots)) return false;
    }
    p.path_class = r.varint();
    read_d(r, p.spacing);
    each_param(p.params, [&](double& v) { read_d(r, v); });
    if (!read_formation(r, bytes, p.from) || !read_formation(r, bytes, p.to)) return false;
  }
  if (g & kPlatoonOrder) {
    const std::uint8_t order = r.byte();
    if (order > static_cast<std::uint8_t>(PlatoonOrderState::Failed)) return false;
    p.order = static_cast<PlatoonOrderState>(order);
    r.vec(p.goal);
    const std::uint8_t has_heading = r.byte();
    if (has_heading > 1) return false;
    if (has_heading) {
      double heading = p.final_heading.value_or(0);
      read_d(r, heading);
      p.final_heading = heading;
    } else {
      p.final_heading.reset();
    }
    p.requester = read_id(r);
    read_d(r, p.arrived_time);
    if (!read_points(r, bytes, p.legs)) return false;
  }
  if (g & kPlatoonPath) {
    std::vector<Vec2> walk;
    if (!read_points(r, bytes, p.path) || !read_points(r, bytes, walk)) return false;
    double lead_in = p.walk.path_start();
    read_d(r, lead_in);
    p.walk = PathWalk::from_vertices(std::move(walk), lead_in);
  }
  if (g & kPlatoonMotion) {
    PlatoonMotion& m = p.motion;
    r.vec(m.position);
    r.pair(m.heading, m.speed);
    r.pair(m.along, m.final_heading);
    read_d(r, m.formation_blend);
    read_d(r, m.wait_best);
    read_d(r, m.wait_stalled);
    const std::uint8_t byte = r.byte();
    const std::uint8_t phase = byte & 0x7f;
    if (phase > static_cast<std::uint8_t>(PlatoonPhase::BridgeWait)) return false;
    m.phase = static_cast<PlatoonPhase>(phase);
    m.pressing_on = (byte & 0x80) != 0;
  }
  if (g & kPlatoonSlots) {
    const std::uint64_t morphs = r.varint();
    if (!r.ok() || morphs > bytes) return false;
    p.morph.resize(morphs, 0);
    for (double& v : p.morph) read_d(r, v);
    const std::uint64_t targets = r.varint();
    if (!r.ok() || targets > bytes) return false;
    p.targets.resize(targets);
    for (SlotTarget& t : p.targets) {
      r.vec(t.formation);
      r.vec(t.column);
      r.vec(t.drive_to);
      read_d(r, t.morph);
    }
  }
  if (g & kPlatoonCrews) {
    const std::uint64_t n = r.varint();
    if (!r.ok() || n > bytes) return false;
    p.crews.resize(n);
    for (CrewState& c : p.crews) {
      c.direction = static_cast<std::int8_t>(r.byte());
      const std::uint8_t side = r.byte(), heading_case = r.byte(), bits = r.byte();
      if (side > 2 || heading_case > static_cast<std::uint8_t>(HeadingCase::AheadTurnAtEnd) || bits > 7)
        return false;
      c.turn_side = static_cast<std::int8_t>(side - 1);
      c.heading_case = static_cast<HeadingCase>(heading_case);
      c.backing_turn = bits & 1;
      c.stopped = bits & 2;
      c.private_path_pending = bits & 4;
      r.vec(c.steering);
      c.avoided = read_id(r);
      if (!names_slot(c.avoided, slots)) return false;
      std::vector<Vec2> points;
      if (!read_points(r, bytes, points)) return false;
      const std::uint64_t index = r.varint();
      if (!r.ok() || index > points.size()) return false;
      double release = c.private_path.release_distance();
      read_d(r, release);
      c.private_path = PrivatePath::restored(std::move(points), static_cast<std::size_t>(index), release);
      read_d(r, c.last_check);
      c.private_paths = r.u32();
      c.three_point_turns = r.u32();
    }
  }
  return r.ok();
}

}  // namespace

void encode_platoons(std::span<const PlatoonRun> was, std::span<const PlatoonRun> now, Writer& w) {
  w.varint(now.size());
  const PlatoonRun blank;
  for (std::size_t i = 0; i < now.size(); ++i) encode_platoon(i < was.size() ? was[i] : blank, now[i], w);
}

bool decode_platoons(Reader& r, std::size_t bytes, std::size_t slots, std::vector<PlatoonRun>& platoons) {
  const std::uint64_t n = r.varint();
  if (!r.ok() || n > bytes) return false;  // each platoon takes at least a byte
  platoons.resize(n);
  for (PlatoonRun& p : platoons) {
    if (!decode_platoon(r, bytes, slots, p)) return false;
  }
  return true;
}

std::string platoons_value_error(const std::vector<PlatoonRun>& platoons) {
  const auto finite = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
  const auto all_finite = [&](std::span<const Vec2> points) {
    return std::all_of(points.begin(), points.end(), finite);
  };
  for (std::size_t i = 0; i < platoons.size(); ++i) {
    const PlatoonRun& p = platoons[i];
    const std::string at = "platoons[" + std::to_string(i) + "].";
    if (!finite(p.goal)) return at + "goal";
    if (!all_finite(p.path)) return at + "path";
    if (!all_finite(p.walk.points())) return at + "walk";
    if (!finite(p.motion.position)) return at + "motion.position";
    if (!std::isfinite(p.motion.heading) || !std::isfinite(p.motion.speed) || !std::isfinite(p.motion.along))
      return at + "motion";
    for (std::size_t k = 0; k < p.targets.size(); ++k) {
      const SlotTarget& t = p.targets[k];
      if (!finite(t.formation) || !finite(t.column) || !finite(t.drive_to))
        return at + "targets[" + std::to_string(k) + "]";
    }
    for (std::size_t k = 0; k < p.crews.size(); ++k) {
      if (!finite(p.crews[k].steering) || !all_finite(p.crews[k].private_path.points()))
        return at + "crews[" + std::to_string(k) + "]";
    }
  }
  return {};
}

}  // namespace pathscope::sim::recording_detail

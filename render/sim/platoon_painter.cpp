// paint_platoons: the platoon layer. A platoon is a pose on its path; each slot's drive-to
// point is its formation position pulled towards its column position by obstacles (seed
// 004's morphing), and each crew answers one of the seed's four heading cases.

#include "render/sim/platoon_painter.hpp"

#include "planner/sim/formation_gaps.hpp"
#include "render/core/color_ramp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace pathscope::render {
namespace {

constexpr Layer kLayer = Layer::SimPlatoons;

// Unit vector of a heading (as the simulation painter: 0 is +x, counter-clockwise on screen).
Vec2 heading_dir(double heading) { return {std::cos(heading), -std::sin(heading)}; }

const sim::SimUnit* live_unit(std::span<const sim::SimUnit> units, sim::UnitId id) {
  if (id.index >= units.size()) return nullptr;
  const sim::SimUnit& u = units[id.index];
  return u.alive && u.id == id ? &u : nullptr;
}

void arrow(Color color, Vec2 from, Vec2 to, double head, DrawList& out) {
  out.line(kLayer, color, from, to, 2.5f);
  const Vec2 d = to - from;
  const double len = std::sqrt(d.x * d.x + d.y * d.y);
  if (!(len > 0)) return;
  const Vec2 u = d / len, n{-u.y, u.x};
  out.polygon(kLayer, color,
              {to + u * head, to - u * head * 0.5 + n * head * 0.7, to - u * head * 0.5 - n * head * 0.7});
}

void paint_crew(const sim::CrewState& crew, const sim::SimUnit& u, std::span<const sim::SimUnit> units,
                DrawList& out) {
  const Vec2 p = u.body.position;
  if (crew.heading_case != sim::HeadingCase::Still) {
    std::string label = std::to_string(int(crew.heading_case));
    if (crew.direction < 0) label += "R";
    out.text(kLayer, platoon_palette::kCase, p + Vec2{0.8, 0.8}, std::move(label));
  }
  if (crew.steering.x != 0 || crew.steering.y != 0)
    out.line(kLayer, platoon_palette::kSteering, p, p + crew.steering, 1.5f);
  if (const sim::SimUnit* other = live_unit(units, crew.avoided))
    out.line(kLayer, platoon_palette::kAvoid, p, other->body.position, 1.5f);
  if (crew.private_path.active()) {
    // Its own path round an obstacle (the bad-position check), from where it stands.
    const std::span<const Vec2> pts = crew.private_path.points();
    std::vector<Vec2> rest{p};
    rest.insert(rest.end(), pts.begin() + static_cast<std::ptrdiff_t>(crew.private_path.index()), pts.end());
    out.polyline(kLayer, platoon_palette::kPrivatePath, std::move(rest), false, 1.5f);
  }
  if (crew.stopped) {
    constexpr double s = 0.9;
    out.line(kLayer, platoon_palette::kStopped, p + Vec2{-s, -s}, p + Vec2{s, s}, 2.5f);
    out.line(kLayer, platoon_palette::kStopped, p + Vec2{-s, s}, p + Vec2{s, -s}, 2.5f);
  }
}

void paint_platoon(const sim::PlatoonRun& p, std::span<const sim::SimUnit> units, DrawList& out) {
  const std::span<const Vec2> walk = p.walk.points();
  if (walk.size() < 2) return;  // Never ordered: nothing but its vehicles to show.
  // The lead-in, then the planned path.
  const Vec2 start = p.walk.point_at(p.walk.path_start());
  if (p.walk.path_start() > 0) out.line(kLayer, platoon_palette::kLeadIn, walk.front(), start, 1.5f);
  if (p.path.size() >= 2) out.polyline(kLayer, platoon_palette::kPath, p.path, false, 2);

  // Its pose.
  const Vec2 pos = p.motion.position;
  out.circle(kLayer, platoon_palette::kPose, pos, 1.2, false, 2, 6);
  arrow(platoon_palette::kPose, pos, pos + heading_dir(p.motion.heading) * 4.0, 1.0, out);

  std::vector<Vec2> vehicles;
  std::vector<std::uint8_t> present;
  for (std::size_t k = 0; k < p.targets.size(); ++k) {
    const sim::SlotTarget& t = p.targets[k];
    const sim::SimUnit* u = k < p.slots.size() ? live_unit(units, p.slots[k]) : nullptr;
    vehicles.push_back(u ? u->body.position : Vec2{0, 0});
    present.push_back(u ? 1 : 0);
    const double morph = k < p.morph.size() ? p.morph[k] : t.morph;
    if (!u) {
      // Empty slot: a grey ring with a cross on its formation position.
      out.circle(kLayer, platoon_palette::kEmpty, t.formation, 0.9, false, 1, 5);
      out.line(kLayer, platoon_palette::kEmpty, t.formation + Vec2{-0.6, -0.6}, t.formation + Vec2{0.6, 0.6},
               1);
      out.line(kLayer, platoon_palette::kEmpty, t.formation + Vec2{-0.6, 0.6}, t.formation + Vec2{0.6, -0.6},
               1);
      continue;
    }
    out.circle(kLayer, platoon_palette::kFormation, t.formation, 0.9, false, 1.5f, 5);
    if (morph > 0) out.circle(kLayer, platoon_palette::kColumn, t.column, 0.5, true, 1, 3);
    const Color c = drive_to_color(morph);
    out.line(kLayer, with_alpha(c, 170), u->body.position, t.drive_to, 1.5f);
    out.circle(kLayer, c, t.drive_to, 0.45, true, 1, 3);
    if (k < p.crews.size()) paint_crew(p.crews[k], *u, units, out);
  }
  // Its area while it drives: units of no platoon are kept out of it (seed 002).
  if (p.order == sim::PlatoonOrderState::Driving) {
    std::vector<Vec2> centres;
    for (std::size_t k = 0; k < vehicles.size(); ++k) {
      if (present[k] != 0) centres.push_back(vehicles[k]);
    }
    std::vector<Vec2> hull = sim::convex_hull(std::move(centres));
    if (hull.size() >= 2) out.polyline(kLayer, platoon_palette::kArea, std::move(hull), true, 1);
  }
  if (p.motion.phase == sim::PlatoonPhase::BridgeWait)
    out.text(kLayer, platoon_palette::kWaiting, pos + Vec2{1.5, -2.5}, "waiting for a bridge");
  if (p.motion.phase == sim::PlatoonPhase::Waiting) {
    const double d = sim::straggler_distance(vehicles, present, p.targets);
    char buf[48];
    std::snprintf(buf, sizeof buf, "waiting: %.1f m", d);
    out.text(kLayer, platoon_palette::kWaiting, pos + Vec2{1.5, -2.5}, buf);
  }
}

}  // namespace

Color drive_to_color(double morph) {
  return mix(platoon_palette::kDriveTo, platoon_palette::kPulledIn, std::clamp(morph, 0.0, 1.0));
}

void paint_platoons(std::span<const sim::PlatoonRun> platoons, std::span<const sim::SimUnit> units,
                    DrawList& out) {
  for (const sim::PlatoonRun& p : platoons) paint_platoon(p, units, out);
}

}  // namespace pathscope::render

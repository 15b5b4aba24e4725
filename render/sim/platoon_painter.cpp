// Drawing of platoons (platoon_painter.hpp).

#include "render/sim/platoon_painter.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "planner/sim/platoon.hpp"
#include "render/core/color_ramp.hpp"

namespace pathscope::render {

namespace {

const sim::SimUnit* vehicle_of_slot(std::span<const sim::SimUnit> units, sim::UnitId id) {
  if (id.index >= units.size()) return nullptr;
  const sim::SimUnit& u = units[id.index];
  return u.alive && u.id.generation == id.generation ? &u : nullptr;
}

/// A triangle at `p` pointing along `heading` (as Unit::heading: y down), `size` metres.
void arrow_head(Vec2 p, double heading, double size, Color color, DrawList& out) {
  const Vec2 f{std::cos(heading), -std::sin(heading)};
  const Vec2 l{-f.y, f.x};
  out.polygon(
      Layer::SimPlatoons, color,
      {p + f * size, p - f * (0.6 * size) + l * (0.6 * size), p - f * (0.6 * size) - l * (0.6 * size)});
}

}  // namespace

void paint_platoons(std::span<const sim::PlatoonRun> platoons, std::span<const sim::SimUnit> units,
                    DrawList& out) {
  namespace pal = platoon_palette;
  for (const sim::PlatoonRun& p : platoons) {
    const auto walk = p.walk.points();
    if (walk.size() >= 2) {
      // The lead-in (its first segment) thinner than the planned path.
      out.line(Layer::SimPlatoons, with_alpha(pal::kPath, 70), walk[0], walk[1], 1);
      out.polyline(Layer::SimPlatoons, pal::kPath, std::vector<Vec2>(walk.begin() + 1, walk.end()), false, 2);
    }
    if (p.order == sim::PlatoonOrderState::Driving || p.motion.phase == sim::PlatoonPhase::Arrived) {
      const double size = std::max(1.5, 0.3 * p.spacing);
      arrow_head(p.motion.position, p.motion.heading, size, pal::kPlatoon, out);
      out.text(
          Layer::SimPlatoons, pal::kPlatoon, p.motion.position + Vec2{size, size},
          "platoon " + std::to_string(p.group) + ": " + std::string(sim::platoon_phase_name(p.motion.phase)));
    }
    for (std::size_t k = 0; k < p.targets.size() && k < p.slots.size(); ++k) {
      const sim::SlotTarget& t = p.targets[k];
      const sim::SimUnit* u = vehicle_of_slot(units, p.slots[k]);
      if (u == nullptr) {
        out.circle(Layer::SimPlatoons, with_alpha(pal::kSlot, 90), t.formation, 1.0, false, 1, 4);
        continue;
      }
      out.circle(Layer::SimPlatoons, pal::kSlot, t.formation, 1.0, false, 1.5f, 4);
      if (t.morph > 0) {
        out.circle(Layer::SimPlatoons, with_alpha(pal::kPulled, 150), t.column, 0.4, true);
        out.line(Layer::SimPlatoons, with_alpha(pal::kPulled, 120), t.column, t.drive_to, 1);
      }
      const Color point = mix(pal::kSlot, pal::kPulled, t.morph);
      out.circle(Layer::SimPlatoons, point, t.drive_to, 0.6, true);
      out.line(Layer::SimPlatoons, with_alpha(point, 160), u->body.position, t.drive_to, 1.5f);
    }
    for (std::size_t k = 0; k < p.crews.size() && k < p.slots.size(); ++k) {
      const sim::CrewState& c = p.crews[k];
      const sim::SimUnit* u = vehicle_of_slot(units, p.slots[k]);
      if (u == nullptr) continue;
      if (c.heading_case != sim::HeadingCase::Still) {
        out.text(Layer::SimPlatoons, pal::kSteering, u->body.position + Vec2{1.5, -1.5},
                 std::to_string(static_cast<int>(c.heading_case)));
      }
      if (glm::length(c.steering) > 0) {
        out.line(Layer::SimPlatoons, pal::kSteering, u->body.position, u->body.position + c.steering, 1.5f);
      }
      if (const sim::SimUnit* other = vehicle_of_slot(units, c.avoided)) {
        out.line(Layer::SimPlatoons, pal::kAvoid, u->body.position, other->body.position, 1.5f);
      }
      if (c.stopped) {
        out.line(Layer::SimPlatoons, pal::kAvoid, u->body.position + Vec2{-1, -1},
                 u->body.position + Vec2{1, 1}, 2);
        out.line(Layer::SimPlatoons, pal::kAvoid, u->body.position + Vec2{-1, 1},
                 u->body.position + Vec2{1, -1}, 2);
      }
      if (c.private_path.active()) {
        const auto pts = c.private_path.points();
        std::vector<Vec2> rest{u->body.position};
        rest.insert(rest.end(), pts.begin() + static_cast<std::ptrdiff_t>(c.private_path.index()), pts.end());
        out.polyline(Layer::SimPlatoons, pal::kPrivatePath, std::move(rest), false, 1.5f);
      }
    }
  }
}

}  // namespace pathscope::render

// paint_sim: the unit simulation as drawing. Shapes follow seed 002's vocabulary: a hard
// shape no other unit may enter, a soft radius others should keep out of, predicted
// positions where a unit turns (a straight stretch is the line between two of them),
// collisions coloured by how far their resolution has got.

#include "render/sim/sim_painter.hpp"

#include "render/sim/platoon_painter.hpp"

#include "render/core/color_ramp.hpp"

#include <glm/geometric.hpp>

#include "planner/world/planning_world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace pathscope::render {
namespace {

// Segments of an ellipse outline: smooth at the sizes units are drawn.
constexpr int kEllipseSegments = 24;

// Unit vector of a heading: 0 is +x and it grows counter-clockwise on screen (towards -y).
Vec2 heading_dir(double heading) { return {std::cos(heading), -std::sin(heading)}; }

// The ellipse with semi-axis `along` on the heading and `across` perpendicular to it.
std::vector<Vec2> ellipse(Vec2 center, double heading, double along, double across) {
  const Vec2 u = heading_dir(heading), v{-u.y, u.x};
  std::vector<Vec2> points;
  points.reserve(kEllipseSegments);
  for (int i = 0; i < kEllipseSegments; ++i) {
    const double a = 2 * 3.141592653589793 * i / kEllipseSegments;
    points.push_back(center + u * (along * std::cos(a)) + v * (across * std::sin(a)));
  }
  return points;
}

// The unit a collision names, if it is in the scene and alive.
const sim::SimUnit* find_unit(std::span<const sim::SimUnit> units, sim::UnitId id) {
  if (id.index >= units.size()) return nullptr;
  const sim::SimUnit& u = units[id.index];
  return u.alive && u.id == id ? &u : nullptr;
}

// A small diagonal cross at `p`, `size` metres from the centre to each tip.
void cross(Layer layer, Color color, Vec2 p, double size, DrawList& out) {
  out.line(layer, color, p + Vec2{-size, -size}, p + Vec2{size, size}, 2);
  out.line(layer, color, p + Vec2{-size, size}, p + Vec2{size, -size}, 2);
}

void paint_density(const sim::DensityMap& d, DrawList& out) {
  const std::size_t cells = std::size_t(std::max(d.width, 0)) * std::size_t(std::max(d.height, 0));
  if (cells == 0 || d.value.size() < cells || !(d.max_value > 0) || !(d.cell_size > 0)) return;
  ImagePrim image;
  image.key = "sim_density";
  image.width = d.width;
  image.height = d.height;
  image.rgba.assign(cells * 4, 0);
  bool any = false;
  constexpr Color kLow{255, 230, 80, 255}, kHigh{230, 30, 30, 255};
  for (std::size_t i = 0; i < cells; ++i) {
    const double t = std::clamp(double(d.value[i]) / double(d.max_value), 0.0, 1.0);
    if (!(t > 0)) continue;  // Empty cells stay transparent.
    any = true;
    const Color c = mix(kLow, kHigh, t);
    image.rgba[i * 4 + 0] = c.r;
    image.rgba[i * 4 + 1] = c.g;
    image.rgba[i * 4 + 2] = c.b;
    image.rgba[i * 4 + 3] = std::uint8_t(std::lround(60 + 150 * t));
  }
  if (!any) return;
  image.min = {0, 0};
  image.max = {d.width * d.cell_size, d.height * d.cell_size};
  out.image(Layer::SimDensity, {255, 255, 255, 255}, std::move(image));
}

// The cells that carry density cost: one outline per run of them along a row.
void paint_density_cost(std::span<const float> factors, int width, double cell_size, DrawList& out) {
  if (factors.empty() || width <= 0 || factors.size() % std::size_t(width) != 0) return;
  constexpr Color kCost{150, 40, 200, 220};
  const int height = int(factors.size() / std::size_t(width));
  for (int y = 0; y < height; ++y) {
    const float* row = factors.data() + std::size_t(y) * std::size_t(width);
    for (int x = 0; x < width;) {
      if (row[x] <= 1.0f) {
        ++x;
        continue;
      }
      const int x0 = x;
      while (x < width && row[x] > 1.0f) ++x;
      out.rect(Layer::SimDensity, kCost, Vec2{x0 * cell_size, y * cell_size},
               Vec2{x * cell_size, (y + 1) * cell_size}, false, 1.5f);
    }
  }
}

void arrow(Layer layer, Color color, Vec2 from, Vec2 to, double head, DrawList& out) {
  out.line(layer, color, from, to, 3);
  const Vec2 d = to - from;
  const double len = std::sqrt(d.x * d.x + d.y * d.y);
  if (!(len > 0)) return;
  const Vec2 u = d / len, n{-u.y, u.x};
  out.polygon(layer, color,
              {to + u * head, to - u * head * 0.5 + n * head * 0.7, to - u * head * 0.5 - n * head * 0.7});
}

void paint_passages(const SimScene& scene, DrawList& out) {
  if (scene.grid_width <= 0 || !(scene.cell_size > 0)) return;
  const auto w = static_cast<std::uint32_t>(scene.grid_width);
  const double s = scene.cell_size;
  // The claimed ways (the first class's, on the grid drawn), one rectangle per run of a row.
  if (!scene.claimed.empty() && !scene.claimed[0].empty()) {
    const std::span<const std::uint8_t> claimed = scene.claimed[0];
    const std::size_t rows = claimed.size() / w;
    for (std::size_t y = 0; y < rows; ++y) {
      for (std::size_t x = 0; x < w;) {
        if (!claimed[y * w + x]) {
          ++x;
          continue;
        }
        std::size_t end = x;
        while (end < w && claimed[y * w + end]) ++end;
        out.rect(Layer::SimPassages, sim_palette::kPassageClaim, Vec2{double(x) * s, double(y) * s},
                 Vec2{double(end) * s, double(y + 1) * s}, true);
        x = end;
      }
    }
  }
  for (const std::span<const sim::Passage> passages : scene.passages) {
    for (const sim::Passage& p : passages) {
      const Color fill = p.held ? sim_palette::kPassageHeld : sim_palette::kPassage;
      for (const std::uint32_t c : p.cells) {
        const Vec2 lo{double(c % w) * s, double(c / w) * s};
        out.rect(Layer::SimPassages, fill, lo, lo + Vec2{s, s}, true);
      }
      const Vec2 mid = (p.bounds.lo + p.bounds.hi) * 0.5;
      const Vec2 size = p.bounds.hi - p.bounds.lo;
      const double reach = 0.5 * std::max(s * 2, std::min(std::max(size.x, size.y), 8.0));
      if (p.held)
        arrow(Layer::SimPassages, sim_palette::kPassageFlow, mid - p.flow * reach, mid + p.flow * reach,
              s * 0.6, out);
      if (p.queued) {
        const Vec2 side = Vec2{-p.queue_flow.y, p.queue_flow.x} * (s * 0.8);
        arrow(Layer::SimPassages, sim_palette::kPassageQueue, mid + side - p.queue_flow * reach,
              mid + side + p.queue_flow * reach * 0.5, s * 0.5, out);
      }
      if (p.inside > 0 || p.waiting > 0) {
        out.text(Layer::SimPassages, sim_palette::kPassageFlow, Vec2{p.bounds.lo.x, p.bounds.hi.y},
                 std::string(p.knot ? "knot: " : "") + std::to_string(p.inside) + " in, " +
                     std::to_string(p.waiting) + " waiting");
      }
    }
  }
}

void paint_path(const sim::SimUnit& u, bool selected, DrawList& out) {
  if (u.route.waypoint >= u.route.path.size()) return;
  std::vector<Vec2> points;
  points.reserve(u.route.path.size() - u.route.waypoint + 1);
  points.push_back(u.body.position);
  points.insert(points.end(), u.route.path.begin() + std::ptrdiff_t(u.route.waypoint), u.route.path.end());
  out.polyline(Layer::SimPaths, sim_palette::kPath, std::move(points), false, selected ? 2.5f : 1.0f);
  out.circle(Layer::SimPaths, sim_palette::kWaypoint, u.route.path[u.route.waypoint], 0.15, false, 1.5f, 3);
}

void paint_predicted(const sim::SimUnit& u, DrawList& out) {
  if (u.route.predicted.empty()) return;
  std::vector<Vec2> points;
  points.reserve(u.route.predicted.size() + 1);
  points.push_back(u.body.position);
  for (const sim::PredictedPoint& p : u.route.predicted) points.push_back(p.position);
  out.polyline(Layer::SimPredicted, sim_palette::kPredicted, std::move(points), false, 1);
  for (const sim::PredictedPoint& p : u.route.predicted) {
    out.circle(Layer::SimPredicted, sim_palette::kPredicted, p.position, 0.05, true, 1, 2);
  }
}

// `yields_to_unit`: the unit it yields to is in the scene. A unit that waits or steps
// aside with nobody asking (before a bridge or a passage, or braking clear of the way)
// has no other unit's get-to point: its get_to is left over or unset (0, 0).
void paint_targets(const sim::SimUnit& u, double size, bool yields_to_unit, DrawList& out) {
  using sim::Yield;
  switch (u.coop.yield) {
    case Yield::None: return;
    case Yield::MoveAside:
    case Yield::Detour:
      out.line(Layer::SimTargets, with_alpha(sim_palette::kAside, 160), u.body.position, u.coop.aside, 1);
      out.circle(Layer::SimTargets, sim_palette::kAside, u.coop.aside, size, false, 2, 4);
      break;
    case Yield::Return:
      out.line(Layer::SimTargets, with_alpha(sim_palette::kHome, 160), u.body.position, u.coop.home, 1);
      out.circle(Layer::SimTargets, sim_palette::kHome, u.coop.home, size, false, 2, 4);
      break;
    case Yield::Wait:
    case Yield::SlowDown: break;
  }
  // The point the other unit must pass before this one may go on (or come back).
  if (yields_to_unit &&
      (u.coop.yield == Yield::Wait || u.coop.yield == Yield::SlowDown || u.coop.yield == Yield::MoveAside)) {
    cross(Layer::SimTargets, sim_palette::kGetTo, u.coop.get_to, size * 0.7, out);
  }
}

// Where a group was ordered to: a ring with a cross, once per point.
void paint_ordered_points(std::span<const sim::SimUnit> units, DrawList& out) {
  std::vector<Vec2> points;
  for (const sim::SimUnit& u : units) {
    if (u.alive && u.goal.formation) points.push_back(u.goal.formation_point);
  }
  std::sort(points.begin(), points.end(), [](Vec2 a, Vec2 b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  for (const Vec2 p : points) {
    out.circle(Layer::SimFormation, sim_palette::kOrdered, p, 0.6, false, 2, 6);
    cross(Layer::SimFormation, sim_palette::kOrdered, p, 0.4, out);
  }
}

// A unit's slot goal: a ring of its hard radius, a faint line from the ordered point.
void paint_slot(const sim::SimUnit& u, double radius, DrawList& out) {
  if (!u.goal.formation || u.route.order.points.empty()) return;
  const Vec2 slot = u.route.order.points.back();
  out.line(Layer::SimFormation, with_alpha(sim_palette::kSlot, 90), u.goal.formation_point, slot, 1);
  out.circle(Layer::SimFormation, sim_palette::kSlot, slot, radius, false, u.goal.arrived ? 2.5f : 1.5f, 5);
}

void paint_unit(const sim::SimUnit& u, const sim::Motion& m, Color fill, bool selected, DrawList& out) {
  const Vec2 dir = heading_dir(u.body.heading);
  out.circle(Layer::Units, with_alpha(fill, 90), u.body.position, m.soft_radius, false, 1);
  if (m.hard_aspect < 1) {
    std::vector<Vec2> shape =
        ellipse(u.body.position, u.body.heading, m.hard_radius, m.hard_radius * m.hard_aspect);
    out.polygon(Layer::Units, fill, shape);
    out.polyline(Layer::Units, sim_palette::kOutline, std::move(shape), true, 1);
  } else {
    out.circle(Layer::Units, fill, u.body.position, m.hard_radius, true, 1, 4);
    out.circle(Layer::Units, sim_palette::kOutline, u.body.position, m.hard_radius, false, 1, 4);
  }
  out.line(Layer::Units, sim_palette::kOutline, u.body.position,
           u.body.position + dir * (m.hard_radius * 1.8), 2);
  if (u.body.speed != 0) {
    // Where it would be in one second at its current speed; the head tells it from the
    // heading line and from collision lines.
    const Vec2 tip = u.body.position + dir * u.body.speed, side{-dir.y, dir.x};
    const double head = std::min(std::abs(u.body.speed) * 0.4, m.hard_radius * 0.8);
    const Vec2 back = tip - dir * (u.body.speed < 0 ? -head : head);
    out.line(Layer::Units, sim_palette::kVelocity, u.body.position, back, 1.5f);
    out.polygon(Layer::Units, sim_palette::kVelocity,
                {tip, back + side * (head * 0.45), back - side * (head * 0.45)});
  }
  if (selected) {
    out.circle(Layer::Units, sim_palette::kSelected, u.body.position,
               std::max(m.soft_radius, m.hard_radius * 1.4), false, 2, 8);
  }
}

}  // namespace

Color collision_color(sim::CollisionState state) {
  switch (state) {
    case sim::CollisionState::Unresolved: return sim_palette::kUnresolved;
    case sim::CollisionState::Resolving: return sim_palette::kResolving;
    case sim::CollisionState::Resolved: return sim_palette::kResolved;
  }
  return sim_palette::kUnresolved;
}

SimScene sim_scene(const sim::Simulation& simulation, std::span<const sim::UnitId> selected) {
  SimScene scene;
  scene.scenario = &simulation.scenario();
  scene.units = simulation.slots();
  scene.collisions = simulation.collisions();
  scene.density = &simulation.density();
  scene.density_cost = simulation.world().cost_overlay();
  scene.selected = selected;
  for (std::size_t c = 0; c < simulation.scenario().classes.size(); ++c) {
    scene.passages.push_back(simulation.passages(c));
    scene.claimed.push_back(simulation.claimed_cells(c));
  }
  scene.platoons = simulation.platoons();
  scene.grid_width = simulation.world().grid(0).width();
  scene.cell_size = simulation.world().grid(0).cell_size();
  return scene;
}

void paint_sim(const SimScene& scene, const LayerSet& layers, DrawList& out) {
  const Scenario& s = *scene.scenario;
  if (scene.density && layers.contains(Layer::SimDensity)) paint_density(*scene.density, out);
  if (layers.contains(Layer::SimDensity))
    paint_density_cost(scene.density_cost, scene.grid_width, scene.cell_size, out);
  if (layers.contains(Layer::SimPassages)) paint_passages(scene, out);
  if (layers.contains(Layer::SimPlatoons)) paint_platoons(scene.platoons, scene.units, out);

  // Selection by slot, so a long selection costs no more than one pass.
  std::vector<bool> selected(scene.units.size(), false);
  for (const sim::UnitId id : scene.selected) {
    if (find_unit(scene.units, id)) selected[id.index] = true;
  }
  std::vector<sim::Motion> motions;
  motions.reserve(s.classes.size());
  for (const MovementClass& c : s.classes) motions.push_back(sim::resolve_motion(c));
  const sim::Motion fallback;

  const bool paths = layers.contains(Layer::SimPaths), predicted = layers.contains(Layer::SimPredicted);
  const bool targets = layers.contains(Layer::SimTargets), units = layers.contains(Layer::Units);
  const bool formation = layers.contains(Layer::SimFormation);
  if (formation) paint_ordered_points(scene.units, out);
  for (std::size_t i = 0; i < scene.units.size(); ++i) {
    const sim::SimUnit& u = scene.units[i];
    if (!u.alive) continue;
    const sim::Motion& m = u.movement_class < motions.size() ? motions[u.movement_class] : fallback;
    if (paths) paint_path(u, selected[i], out);
    if (predicted) paint_predicted(u, out);
    if (targets)
      paint_targets(u, std::max(m.hard_radius * 0.5, 0.1), find_unit(scene.units, u.coop.yield_to) != nullptr,
                    out);
    if (formation) paint_slot(u, m.hard_radius, out);
    if (units) {
      const Color fill =
          u.faction < s.factions.size() ? s.factions[u.faction].color : sim_palette::kNoFaction;
      paint_unit(u, m, fill, selected[i], out);
    }
  }

  if (layers.contains(Layer::SimCollisions)) {
    for (const sim::Collision& c : scene.collisions) {
      const sim::SimUnit* a = find_unit(scene.units, c.a);
      const sim::SimUnit* b = find_unit(scene.units, c.b);
      if (!a || !b) continue;
      // Soft-only collisions are fainter: nothing overlaps, units only come close.
      const Color color = with_alpha(collision_color(c.state), c.hard ? 255 : 150);
      out.line(Layer::SimCollisions, color, a->body.position, b->body.position, c.immediate ? 3.0f : 1.5f);
      // A predicted collision also marks where it would happen.
      if (!c.immediate) out.circle(Layer::SimCollisions, color, c.point, 0.2, false, 1.5f, 4);
    }
  }
  if (units) {
    for (const sim::UnitId id : scene.stuck) {
      const sim::SimUnit* u = find_unit(scene.units, id);
      if (!u) continue;
      const sim::Motion& m = u->movement_class < motions.size() ? motions[u->movement_class] : fallback;
      out.circle(Layer::Units, sim_palette::kStuck, u->body.position, m.hard_radius + 0.3, false, 2.5f, 5);
    }
  }
  if (scene.focus && targets) {
    out.circle(Layer::SimTargets, sim_palette::kFocus, *scene.focus, 0.9, false, 2.5f, 5);
    cross(Layer::SimTargets, sim_palette::kFocus, *scene.focus, 0.5, out);
  }
}

}  // namespace pathscope::render

// The simulation referee (what it checks and its tolerances: sim_referee.hpp). It reads the
// simulation's units, scenario and cost grids, and nothing of the step's own code.
//
// Broad phases are sweep and prune along x (sorted interval starts, an active run of
// intervals that still reach), which finds every pair whose x intervals meet; narrow
// phases are the exact tests of referee_geometry.hpp. Cells near a move line: for each
// column the line crosses, the rows it spans there (one more each side, against
// rounding), each cell tested exactly.

#include "planner/sim/sim_referee.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "planner/world/cost_grid.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

// An interval on x for sweep and prune, with the unit's slot.
struct Span {
  double lo = 0;
  double hi = 0;
  std::uint32_t slot = 0;
};

// Calls f(a, b) for every two spans whose x intervals meet (a's slot below b's).
template <class F>
void sweep_and_prune(std::vector<Span>& spans, F&& f) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.lo != b.lo ? a.lo < b.lo : a.slot < b.slot; });
  for (std::size_t i = 0; i < spans.size(); ++i) {
    for (std::size_t j = i + 1; j < spans.size() && spans[j].lo <= spans[i].hi; ++j) {
      const std::uint32_t a = std::min(spans[i].slot, spans[j].slot);
      const std::uint32_t b = std::max(spans[i].slot, spans[j].slot);
      f(a, b);
    }
  }
}

// The angle from a to b, in (-pi, pi].
double turn_between(double a, double b) {
  double d = std::remainder(b - a, 2 * std::numbers::pi);
  if (d <= -std::numbers::pi) d += 2 * std::numbers::pi;
  return d;
}

// A unit's terrain: which cells are closed to it.
struct Ground {
  const CostGrid* grid = nullptr;
  std::uint16_t key = 0;  // 0: only impassable and off-grid cells are closed
  bool closed(int x, int y) const {
    if (!grid->in_bounds(x, y)) return true;
    const std::uint16_t k = grid->move_key(grid->index(x, y));
    return k == 0 || (key != 0 && k != key);
  }
  // The cell holding p (cell coordinates, may be off the grid).
  glm::ivec2 cell_of(Vec2 p) const {
    const double s = grid->cell_size();
    return {static_cast<int>(std::floor(p.x / s)), static_cast<int>(std::floor(p.y / s))};
  }
  Vec2 lo(int x, int y) const { return Vec2{x, y} * grid->cell_size(); }
  Vec2 hi(int x, int y) const { return Vec2{x + 1, y + 1} * grid->cell_size(); }
};

// The move key of the cell holding p, 0 off the grid or impassable.
std::uint16_t key_at(const CostGrid& grid, Vec2 p) {
  const double s = grid.cell_size();
  const double fx = std::floor(p.x / s), fy = std::floor(p.y / s);
  if (!(fx >= 0 && fy >= 0 && fx < grid.width() && fy < grid.height())) return 0;
  return grid.move_key(grid.index(static_cast<int>(fx), static_cast<int>(fy)));
}

// True if the segment [p, q] passes through a closed cell other than the one p is in,
// `margin` metres inside it.
bool crosses_closed_cell(const Ground& ground, Vec2 p, Vec2 q, double margin) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(q.x) || !std::isfinite(q.y)) return true;
  const double s = ground.grid->cell_size();
  const glm::ivec2 start = ground.cell_of(p);
  const Vec2 a = p / s, b = q / s;  // cell units
  const int x0 = static_cast<int>(std::floor(std::min(a.x, b.x))) - 1;
  const int x1 = static_cast<int>(std::floor(std::max(a.x, b.x))) + 1;
  for (int x = x0; x <= x1; ++x) {
    // The rows the line spans within this column.
    double ylo = std::min(a.y, b.y), yhi = std::max(a.y, b.y);
    if (a.x != b.x) {
      const double ta = std::clamp((x - a.x) / (b.x - a.x), 0.0, 1.0);
      const double tb = std::clamp((x + 1 - a.x) / (b.x - a.x), 0.0, 1.0);
      const double ya = a.y + (b.y - a.y) * ta, yb = a.y + (b.y - a.y) * tb;
      ylo = std::min(ya, yb);
      yhi = std::max(ya, yb);
    }
    const int y0 = static_cast<int>(std::floor(ylo)) - 1;
    const int y1 = static_cast<int>(std::floor(yhi)) + 1;
    for (int y = y0; y <= y1; ++y) {
      if ((x == start.x && y == start.y) || !ground.closed(x, y)) continue;
      if (segment_crosses_box(p, q, ground.lo(x, y), ground.hi(x, y), margin)) return true;
    }
  }
  return false;
}

// A slot's key for the sets of counted units: index and generation.
std::uint64_t unit_key(const SimUnit& u) {
  return (static_cast<std::uint64_t>(u.id.index) << 32) | u.id.generation;
}

}  // namespace

HardShape hard_shape(const SimUnit& unit, const Motion& motion) {
  return HardShape{unit.body.position, unit.body.heading, motion.hard_radius,
                   motion.hard_radius * motion.hard_aspect};
}

SimReferee::SimReferee(RefereeSettings settings) : settings_(settings) {}

void SimReferee::flag_tunnel(UnitKey key, std::set<UnitKey>& kind, std::uint64_t& count) {
  if (kind.insert(key).second) ++count;
  if (tunnelled_.insert(key).second) ++counts_.tunnelled;
}

void SimReferee::check_step(const Simulation& simulation) {
  const std::span<const SimUnit> units = simulation.slots();
  const Scenario& scenario = simulation.scenario();
  const PlanningWorld& world = simulation.world();
  std::vector<Motion> motions;
  motions.reserve(scenario.classes.size());
  for (const MovementClass& c : scenario.classes) motions.push_back(resolve_motion(c));
  ++counts_.steps;
  seen_.resize(units.size());

  // Each alive unit's shape now and where the step took it from.
  std::vector<std::uint32_t> alive;
  std::vector<HardShape> end(units.size()), start(units.size());
  for (std::uint32_t i = 0; i < units.size(); ++i) {
    const SimUnit& u = units[i];
    if (!u.alive) continue;
    alive.push_back(i);
    end[i] = hard_shape(u, motions[u.movement_class]);
    start[i] = end[i];
    const Seen& before = seen_[i];
    if (before.valid && before.generation == u.id.generation) {
      start[i].centre = before.position;
      start[i].heading = before.heading;
    } else {
      start[i].centre = u.body.previous;
    }
  }

  // Hard overlaps now.
  std::vector<Span> spans;
  spans.reserve(alive.size());
  for (std::uint32_t i : alive) {
    const double r = std::max(end[i].along, end[i].across);
    spans.push_back({end[i].centre.x - r, end[i].centre.x + r, i});
  }
  counts_.overlaps_now = 0;
  sweep_and_prune(spans, [&](std::uint32_t i, std::uint32_t j) {
    const double depth = overlap_depth(end[i], end[j]);
    if (!(depth > settings_.overlap_tolerance_m)) return;
    ++counts_.overlaps_now;
    counts_.max_overlap_m = std::max(counts_.max_overlap_m, depth);
    if (overlapped_.insert({unit_key(units[i]), unit_key(units[j])}).second) ++counts_.hard_overlaps;
  });

  // The static world: move lines through closed cells, centres in closed cells.
  counts_.inside_walls_now = 0;
  for (std::uint32_t i : alive) {
    const SimUnit& u = units[i];
    Seen& seen = seen_[i];
    if (!seen.valid || seen.generation != u.id.generation) seen = Seen{u.id.generation, true, {}, 0, 0};
    const CostGrid& grid = world.grid(u.movement_class);
    const std::uint16_t start_key = key_at(grid, start[i].centre);
    if (seen.home_key == 0) seen.home_key = start_key != 0 ? start_key : key_at(grid, u.body.position);
    const Ground from{&grid, start_key != 0 ? start_key : seen.home_key};
    if (start[i].centre != u.body.position &&
        crosses_closed_cell(from, start[i].centre, u.body.position, settings_.wall_tolerance_m))
      flag_tunnel(unit_key(u), tunnelled_walls_, counts_.tunnelled_walls);
    const Ground home{&grid, seen.home_key};
    const glm::ivec2 c = home.cell_of(u.body.position);
    if (home.closed(c.x, c.y) && segment_crosses_box(u.body.position, u.body.position, home.lo(c.x, c.y),
                                                     home.hi(c.x, c.y), settings_.wall_tolerance_m)) {
      ++counts_.inside_walls_now;
      if (inside_walls_.insert(unit_key(u)).second) ++counts_.inside_walls;
    }
  }

  // Units through units: the swept boxes of the two moves meet, then the exact tests.
  spans.clear();
  for (std::uint32_t i : alive) {
    const double r = std::max(end[i].along, end[i].across);
    spans.push_back({std::min(start[i].centre.x, end[i].centre.x) - r,
                     std::max(start[i].centre.x, end[i].centre.x) + r, i});
  }
  const int samples = std::max(2, settings_.tunnel_samples);
  sweep_and_prune(spans, [&](std::uint32_t i, std::uint32_t j) {
    const HardShape &a0 = start[i], &a1 = end[i], &b0 = start[j], &b1 = end[j];
    const bool a_moved = a0.centre != a1.centre || a0.heading != a1.heading;
    const bool b_moved = b0.centre != b1.centre || b0.heading != b1.heading;
    if (!a_moved && !b_moved) return;
    const double ra = std::max(a1.along, a1.across), rb = std::max(b1.along, b1.across);
    const double reach = ra + rb;
    if (std::max(a0.centre.y, a1.centre.y) + ra < std::min(b0.centre.y, b1.centre.y) - rb ||
        std::max(b0.centre.y, b1.centre.y) + rb < std::min(a0.centre.y, a1.centre.y) - ra)
      return;
    // The relative move of b's centre seen from a's. Where the circles round the shapes do
    // not overlap deeper than a graze, neither do the shapes.
    const Vec2 p0 = b0.centre - a0.centre, p1 = b1.centre - a1.centre;
    const double closest = segment_distance_to_origin(p0, p1);
    // How deep an overlap on the way is a pass through.
    const double graze = settings_.tunnel_fraction * std::min(a1.along, b1.along);
    if (!(closest < reach - graze)) return;
    // Apart before and after (an overlap at either end is counted as an overlap).
    if (overlap_depth(a0, b0) > settings_.overlap_tolerance_m ||
        overlap_depth(a1, b1) > settings_.overlap_tolerance_m)
      return;
    bool through = false;
    if (a1.along == a1.across && b1.along == b1.across) {
      through = true;  // circles: the closest approach above is exact
    } else {
      const double turn_a = turn_between(a0.heading, a1.heading);
      const double turn_b = turn_between(b0.heading, b1.heading);
      for (int k = 1; k < samples && !through; ++k) {
        const double t = static_cast<double>(k) / samples;
        HardShape a = a1, b = b1;
        a.centre = a0.centre + (a1.centre - a0.centre) * t;
        b.centre = b0.centre + (b1.centre - b0.centre) * t;
        a.heading = a0.heading + turn_a * t;
        b.heading = b0.heading + turn_b * t;
        // Deeper than the tolerance iff still overlapping when b is moved that far away
        // along the centre line (the overlapping moves form an interval from 0).
        const Vec2 d = b.centre - a.centre;
        const double len = std::hypot(d.x, d.y);
        b.centre += (len > 0 ? d / len : Vec2{1, 0}) * graze;
        through = hard_shapes_overlap(a, b);
      }
    }
    if (!through) return;
    if (a_moved) flag_tunnel(unit_key(units[i]), tunnelled_units_, counts_.tunnelled_units);
    if (b_moved) flag_tunnel(unit_key(units[j]), tunnelled_units_, counts_.tunnelled_units);
  });

  // Remember where each unit stands for the next check.
  for (std::uint32_t i = 0; i < units.size(); ++i) {
    Seen& seen = seen_[i];
    if (!units[i].alive) {
      seen.valid = false;
      continue;
    }
    seen.position = units[i].body.position;
    seen.heading = units[i].body.heading;
  }
}

GoalErrors SimReferee::goal_errors(const Simulation& simulation) const {
  GoalErrors g;
  g.tolerance_m = settings_.goal_tolerance_m;
  double sum = 0;
  for (const SimUnit& u : simulation.slots()) {
    if (!u.alive || u.route.order.points.empty()) continue;
    if (u.route.order.kind != OrderKind::Move && u.route.order.kind != OrderKind::Waypoints) continue;
    // A formation order's last point is the unit's own slot.
    const Vec2 d = u.route.order.points.back() - u.body.position;
    const double error = std::hypot(d.x, d.y);
    ++g.ordered;
    if (error <= settings_.goal_tolerance_m) ++g.at_goal;
    sum += error;
    g.max_goal_error_m = std::max(g.max_goal_error_m, error);
  }
  if (g.ordered > 0) {
    g.at_goal_pct = 100.0 * static_cast<double>(g.at_goal) / static_cast<double>(g.ordered);
    g.mean_goal_error_m = sum / static_cast<double>(g.ordered);
  }
  return g;
}

}  // namespace pathscope::sim

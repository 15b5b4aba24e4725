// Straight out of a passage (see passages.hpp): when a path arrives, every stretch of it
// through a narrow passage is followed by a straight run of kExitRun metres along the
// way it left the passage, before the path turns off to its goal. The units waiting
// for the passage stand clear of that line (wait_clear), beside the mouth; a unit
// coming out that turned at once would walk into them, one that runs on first passes
// them. A run that would cross a closed cell, or whose join to the rest of the path
// would, is shortened (down to half its length) or not taken; nor is one when the path
// ends within the run (its goal is by the mouth).

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <glm/geometric.hpp>

#include "planner/sim/passages.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

/// One stretch of a way through a passage: where it enters and leaves it, and how far
/// along the way that is.
struct Stretch {
  Vec2 entry{0, 0}, exit{0, 0};
  double exit_at = 0;
};

}  // namespace

void Simulation::run_out_of_passages(SimUnit& u) {
  if (!scenario().sim.passages || u.route.waypoint >= u.route.path.size()) return;
  make_passage_maps();
  const PassageMap& map = impl_->passage_maps[u.movement_class];
  if (map.passages().empty()) return;
  const CostGrid& grid = world_->grid(u.movement_class);
  const std::uint16_t key = impl_->extra[u.id.index].move_key;
  const double step = 0.25 * grid.cell_size();

  // The way: the unit's position, then its path from the waypoint on; at[k] is the
  // distance along it to way[k].
  std::vector<Vec2> way{u.body.position};
  way.insert(way.end(), u.route.path.begin() + static_cast<std::ptrdiff_t>(u.route.waypoint),
             u.route.path.end());
  std::vector<double> at(way.size(), 0.0);
  for (std::size_t k = 1; k < way.size(); ++k) at[k] = at[k - 1] + glm::length(way[k] - way[k - 1]);

  // Its stretches through passages, sampled every `step` metres.
  std::vector<Stretch> stretches;
  std::optional<std::uint32_t> current;
  for (std::size_t k = 0; k + 1 < way.size(); ++k) {
    const double len = at[k + 1] - at[k];
    const double last = k + 2 == way.size() ? len : len - 1e-9;
    for (double d = 0; d <= last; d += step) {
      const Vec2 q = len > 0 ? way[k] + (way[k + 1] - way[k]) * (d / len) : way[k];
      const auto cell = grid.cell_at(q);
      auto p = cell ? map.passage_of(*cell) : std::nullopt;
      if (p && map.passages()[*p].knot) p.reset();  // a knot's passage lasts only while it lasts
      if (p && current == p) {
        stretches.back().exit = q;
        stretches.back().exit_at = at[k] + d;
      } else if (p) {
        stretches.push_back(Stretch{q, q, at[k] + d});
      }
      current = p;
    }
  }
  if (stretches.empty()) return;

  std::vector<Vec2> out(u.route.path.begin(),
                        u.route.path.begin() + static_cast<std::ptrdiff_t>(u.route.waypoint));
  std::size_t next = 1;  // the next way point not yet copied (way[0] is the unit)
  double done_at = 0;    // distance along the way up to which the new path is settled
  bool changed = false;
  for (const Stretch& s : stretches) {
    const Vec2 through = s.exit - s.entry;
    const double through_len = glm::length(through);
    if (through_len < 0.5 * grid.cell_size() || s.exit_at < done_at) continue;
    const Vec2 f = through / through_len;
    for (double run = kExitRun; run >= 0.5 * kExitRun; run *= 0.75) {
      const double out_at = s.exit_at + run;
      if (out_at >= at.back()) continue;  // its goal is by the mouth: no run
      std::size_t after = next;
      while (after < way.size() && at[after] <= out_at) ++after;
      std::size_t upto = next;  // way points up to the exit stay
      while (upto < after && at[upto] <= s.exit_at) ++upto;
      const Vec2 end = s.exit + f * run;
      if (after >= way.size() || segment_blocked(grid, key, s.exit, end) ||
          segment_blocked(grid, key, end, way[after])) {
        continue;
      }
      out.insert(out.end(), way.begin() + static_cast<std::ptrdiff_t>(next),
                 way.begin() + static_cast<std::ptrdiff_t>(upto));
      out.push_back(s.exit);
      out.push_back(end);
      next = after;
      done_at = out_at;
      changed = true;
      break;
    }
  }
  if (!changed) return;
  out.insert(out.end(), way.begin() + static_cast<std::ptrdiff_t>(next), way.end());
  u.route.path = std::move(out);
}

void Simulation::make_passage_maps() {
  if (!impl_->passage_maps.empty()) return;
  for (std::size_t c = 0; c < impl_->motions.size(); ++c) {
    impl_->passage_maps.emplace_back(world_->grid(c), passage_rules(impl_->motions[c]));
  }
}

}  // namespace pathscope::sim

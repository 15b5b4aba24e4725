// The step's counters (seed 002's quality measures): pairs whose hard shapes still
// overlap at the end of the step (each pair counted once over the run) and the deepest
// overlap; units whose move crossed a closed cell or passed through another unit's hard
// shape between two steps (tunnelling).

#include <algorithm>
#include <cmath>

#include "planner/core/geometry.hpp"
#include "planner/sim/prevention.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

void Simulation::count_step() {
  // Hard overlaps left at the end of the step.
  const double reach = 2 * impl_->max_hard + 1e-9;
  impl_->hash_units(units_, reach);
  impl_->hash.pairs_within(impl_->points, reach, [&](std::uint32_t i, std::uint32_t j) {
    const SimUnit& a = units_[i];
    const SimUnit& b = units_[j];
    Vec2 n;
    double dist;
    const double over =
        hard_overlap(a.body.position, a.body.heading, impl_->motions[a.movement_class], b.body.position,
                     b.body.heading, impl_->motions[b.movement_class], n, dist);
    if (over <= 1e-6) return;
    counters_.max_overlap_m = std::max(counters_.max_overlap_m, over);
    const std::uint64_t key = (static_cast<std::uint64_t>(j) << 32) | i;
    if (impl_->overlapping_pairs.insert(key).second) ++counters_.hard_overlaps;
  });
  // Tunnelling through the static world: the move line crossed a closed cell.
  auto flag = [&](std::size_t i) {
    if (!impl_->extra[i].tunnelled) {
      impl_->extra[i].tunnelled = true;
      ++counters_.tunnelled;
    }
  };
  for (std::size_t i = 0; i < units_.size(); ++i) {
    const SimUnit& u = units_[i];
    if (!u.alive || u.body.previous == u.body.position) continue;
    if (segment_blocked(world_->grid(u.movement_class), impl_->extra[i].move_key, u.body.previous,
                        u.body.position))
      flag(i);
  }
  // Tunnelling through units: the two moves, taken as straight lines over the step,
  // brought the centres closer than their hard radii while both ends are apart.
  const double dt = scenario().sim.dt;
  const double move_reach = 2 * impl_->max_hard + 4 * impl_->max_speed * dt + 1e-9;
  impl_->hash_units(units_, move_reach, /*previous=*/true);
  impl_->hash.pairs_within(impl_->points, move_reach, [&](std::uint32_t i, std::uint32_t j) {
    const SimUnit& a = units_[i];
    const SimUnit& b = units_[j];
    const double r =
        impl_->motions[a.movement_class].hard_radius + impl_->motions[b.movement_class].hard_radius;
    const Vec2 p0 = b.body.previous - a.body.previous;
    const Vec2 p1 = b.body.position - a.body.position;
    // Both ends apart (by a little less than r, so rounding at contact does not count).
    const double r_in = r * 0.9;
    if (glm::dot(p0, p0) < r_in * r_in || glm::dot(p1, p1) < r_in * r_in) return;
    if (distance_sq_to_segment(Vec2{0, 0}, p0, p1) < r_in * r_in) {
      // The unit(s) that moved crossed; one standing still was crossed.
      if (a.body.previous != a.body.position) flag(i);
      if (b.body.previous != b.body.position) flag(j);
    }
  });
}

}  // namespace pathscope::sim

#pragma once

// The threat-aware cost model of seed 001 over one world: the scenario's threats and
// allies as discs, the two constants, and the seed's future-work options (fading,
// occlusion by obstacles). Answers the cost and exposure of any straight segment, which
// the tactical planner uses both for its moves and for its BSTS heuristic.

#include <cstdint>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/tactical/segment_exposure.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::tactical {

/// Parameters of the cost model.
struct CostModelParams {
  double c1 = 0.25;        ///< Cost per metre outside threats and allies (seed's c1).
  double c2 = 0.75;        ///< Cost per metre inside threats (seed's c2); c1 + c2 = 1.
  bool fading = false;     ///< A threat counts 1 - d / radius at distance d from its centre.
  bool occlusion = false;  ///< Obstacles hide threats: no exposure where the line from the
                           ///< threat's centre to the point crosses an impassable cell (exact).
};

/// |c1 + c2 - 1| allowed for rounding.
inline constexpr double kConstantsTolerance = 1e-9;

/// The cost model, built for one world, movement class and parameters. Threats and
/// allies of strength 0 are left out; strength does not scale costs otherwise (the
/// seed's model has areas only). Borrows nothing after construction. Queries reuse
/// scratch memory, so one field is used by one thread at a time.
class ThreatField {
 public:
  ThreatField() = default;
  /// Reads the threats and allies of `world`; with occlusion, which cells each threat
  /// sees through the class's impassable cells.
  ThreatField(const PlanningWorld& world, std::size_t movement_class, const CostModelParams& params);

  const CostModelParams& params() const { return params_; }
  const std::vector<Disc>& threats() const { return threats_; }
  const std::vector<Disc>& allies() const { return allies_; }

  /// Exposure of the segment a-b (world metres).
  Exposure exposure(Vec2 a, Vec2 b) const;
  /// Seed cost of the segment a-b, metres (no terrain multiplier).
  double cost(Vec2 a, Vec2 b) const { return exposure_cost(exposure(a, b), params_.c1, params_.c2); }
  /// Cost per metre at a point: c1 in the open, 0 in a safe area, c2 (or between c1 and
  /// c2 with fading) under a threat.
  double factor_at(Vec2 p) const;
  /// The smallest cost per metre outside allies' discs: c1, or c2 if lower and there is a
  /// threat (a threat over an ally counts as the threat, fading only brings c1 and c2
  /// together). Scales the admissible heuristic, which takes allies apart.
  double min_factor_outside_allies() const;
  /// Whether threat `i` is visible from the centre of cell (x, y) (always, without occlusion).
  bool sees(std::size_t i, int x, int y) const;
  /// With occlusion: appends to `out` the stretches of [t0, t1] (metres from a along a-b,
  /// inside threat `i`'s disc) from which the threat's centre is visible, in order and
  /// disjoint. Exact: the shadows of the blocked cells are clipped from the interval.
  void visible_spans(std::size_t i, Vec2 a, Vec2 b, Span chord, std::vector<Span>& out) const;

 private:
  struct Visibility {
    CellRect rect;                   // the cells under the threat's disc
    std::vector<std::uint8_t> seen;  // per cell of rect, row-major: 1 = sees the centre
  };
  struct Square {  // a blocked cell, world metres
    double x0, y0, x1, y1;
  };

  CostModelParams params_;
  std::vector<Disc> threats_;
  std::vector<Disc> allies_;
  std::vector<Visibility> visibility_;  // per threat, with occlusion only
  std::vector<std::vector<Square>>
      blockers_;  // per threat: blocked cells meeting its disc (not its centre's)
  double cell_size_ = 1;
  int width_ = 0, height_ = 0;
  mutable std::vector<ThreatSpans> threat_scratch_;
  mutable std::vector<Span> ally_scratch_;
  mutable std::vector<double> cut_scratch_;
  mutable std::vector<Span> hidden_scratch_;
};

/// Calls fn(x, y, t0, t1) for each grid cell segment a-b crosses, in order, with the
/// stretch [t0, t1] (metres from a) inside it; cells outside the w x h grid end the walk.
template <class Fn>
void walk_cells(Vec2 a, Vec2 b, double cell_size, int w, int h, Fn&& fn);

}  // namespace pathscope::tactical

#include "planner/tactical/walk_cells.inl"

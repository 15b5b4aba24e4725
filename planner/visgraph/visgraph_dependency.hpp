#pragma once

// What a finished visibility-graph search depends on: the obstacles along its path.

#include <vector>

#include "planner/core/search.hpp"

namespace pathscope {

/// The ResultDependency of the visgraph planner (seed 003: "you only have to recompute
/// paths when we have had to update links"). An obstacle added cannot make any path
/// shorter, so a path stays optimal while the obstacles added miss it; removed or moved
/// obstacles may open a shorter way, so they void it. Changes that move no obstacle
/// (threats, allies, units, roads, bridges: not read yet) keep it.
class VisGraphDependency final : public ResultDependency {
 public:
  /// `path`: the result's polyline (world); `pad`: metres an obstacle's box grows by
  /// (radius + max_error + a cell); `line`: also the straight start-goal segment, whose
  /// crossings the shortcut mode reads.
  VisGraphDependency(std::vector<Vec2> path, double pad, bool line);

  bool still_valid(const WorldChange& change) const override;

 private:
  std::vector<Vec2> path_;
  double pad_;
  bool line_;
};

}  // namespace pathscope

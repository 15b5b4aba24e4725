#pragma once

// Block-based jump point search (Harabor and Grastien, "Improving Jump Point Search",
// ICAPS 2014) on a cost grid whose passable cells all cost the same, for the
// 8-connected, no-corner-cutting movement of cost_grid.hpp.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "planner/grid/grid_jump_search.hpp"

namespace pathscope {

/// Jump point search with block-based jumps: every straight jump reads rows of bits 56
/// cells at a time, and a diagonal jump runs both straight block scans from each of its
/// steps and hands on what they find directly, so the cells where it turns are never
/// nodes. Exact (the costs of `astar`) on a uniform-cost group; otherwise a query is
/// Invalid and names `astar`. Nodes are cells (id = row-major index).
class GridJpsBlock final : public JumpPointSearch<GridJpsBlock> {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  GridJpsBlock(const PlanningWorld& world, std::size_t movement_class, std::string name);
  ~GridJpsBlock() override;

 private:
  friend class JumpPointSearch<GridJpsBlock>;
  bool prepare();
  bool passable(int x, int y) const { return bits_->passable(x, y); }
  std::uint8_t pruned_dirs(glm::ivec2 c, std::uint8_t dir) const;
  template <class Push, class Scan>
  void jumps(glm::ivec2 c, int dir, Push&& push, Scan&& scan) const;
  template <int kDir, class Push, class Scan>
  void straight_jump(glm::ivec2 c, Push&& push, Scan&& scan) const;
  template <int kDx, int kDy, class Push, class Scan>
  void diagonal_jump(glm::ivec2 c, Push&& push, Scan&& scan) const;

  const JpsBitGrid* bits_ = nullptr;  // the current query's group; valid while bits_revision_ holds
  std::uint64_t bits_revision_ = ~std::uint64_t(0);
  std::map<std::uint16_t, std::unique_ptr<JpsBitGrid>> grids_;  // per move key, for bits_revision_
};

// The search loop is instantiated once, in grid_jps_block.cpp, where the jumps are.
extern template class JumpPointSearch<GridJpsBlock>;

}  // namespace pathscope

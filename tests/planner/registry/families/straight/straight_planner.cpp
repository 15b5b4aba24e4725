// The test-only `straight` planner and its registry entry (straight_registry.hpp).

#include "tests/planner/registry/families/straight/straight_registry.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "planner/core/planner_entry.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {
namespace {

struct StraightParams {};

// Nodes: 0 the start, 1 the goal. One step looks at the whole line.
class StraightPlanner final : public PlannerBase {
 public:
  StraightPlanner(const PlanningWorld& world, std::size_t movement_class)
      : PlannerBase("straight"), grid_(world.grid(movement_class)) {}

  SearchStatus start(const PathQuery& query) override {
    query_ = query;
    result_ = PathResult{};
    expanded_ = false;
    if (!grid_.cell_at(query.start) || !grid_.passable(*grid_.cell_at(query.start)))
      return fail(SearchStatus::Invalid, "the start is outside the map or in a wall");
    if (!grid_.cell_at(query.goal) || !grid_.passable(*grid_.cell_at(query.goal)))
      return fail(SearchStatus::Invalid, "the goal is outside the map or in a wall");
    result_.status = SearchStatus::Running;
    if (observer_) emit(SearchEventKind::Push, 0, 0, kNoNode, 0, distance());
    return result_.status;
  }

  SearchStatus step(std::uint64_t max_expansions) override {
    if (result_.status != SearchStatus::Running || max_expansions == 0) return result_.status;
    ++result_.stats.steps;
    ++result_.stats.expansions;
    expanded_ = true;
    if (observer_) emit(SearchEventKind::Expand, 0, 0, kNoNode, 0, distance());
    const std::optional<double> multiplier = line_multiplier();
    if (!multiplier)
      return fail(SearchStatus::NoPath, "the straight line crosses a wall or cells of several costs");
    ++result_.stats.pushes;
    ++result_.stats.relaxations;
    if (observer_) emit(SearchEventKind::Push, 0, 1, 0, *multiplier * distance(), 0);
    result_.points = {query_.start, query_.goal};
    result_.nodes = {0, 1};
    result_.length = distance();
    result_.cost = *multiplier * result_.length;
    result_.status = SearchStatus::Found;
    if (observer_) {
      emit(SearchEventKind::Path, 0, 0, kNoNode, 0, 0);
      emit(SearchEventKind::Path, 0, 1, 0, result_.cost, 0);
    }
    return result_.status;
  }

  std::size_t node_count() const override { return 2; }
  Vec2 node_position(NodeId node) const override { return node == 0 ? query_.start : query_.goal; }

  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override {
    if (result_.status == SearchStatus::Idle || result_.status == SearchStatus::Invalid) return;
    fn(NodeView{0, 0, 0, distance(), kNoNode, expanded_});
    if (result_.status == SearchStatus::Found) fn(NodeView{1, 0, result_.cost, 0, 0, false});
  }

 private:
  double distance() const {
    return std::hypot(query_.goal.x - query_.start.x, query_.goal.y - query_.start.y);
  }

  // Whether the segment meets the closed square of cell (x, y): the slab test.
  bool touches(int x, int y) const {
    const double s = grid_.cell_size();
    double t0 = 0, t1 = 1;
    const double p[2] = {query_.start.x, query_.start.y};
    const double d[2] = {query_.goal.x - query_.start.x, query_.goal.y - query_.start.y};
    const double lo[2] = {x * s, y * s};
    for (int a = 0; a < 2; ++a) {
      const double hi = lo[a] + s;
      if (d[a] == 0) {
        if (p[a] < lo[a] || p[a] > hi) return false;
        continue;
      }
      double ta = (lo[a] - p[a]) / d[a], tb = (hi - p[a]) / d[a];
      if (ta > tb) std::swap(ta, tb);
      t0 = std::max(t0, ta);
      t1 = std::min(t1, tb);
      if (t0 > t1) return false;
    }
    return true;
  }

  // The one multiplier of every cell the segment touches (sides and corners included),
  // or nothing when one is blocked or they differ in cost or movement key.
  std::optional<double> line_multiplier() const {
    const double s = grid_.cell_size();
    const int x0 = std::max(0, int(std::floor(std::min(query_.start.x, query_.goal.x) / s)) - 1);
    const int x1 =
        std::min(grid_.width() - 1, int(std::floor(std::max(query_.start.x, query_.goal.x) / s)) + 1);
    const int y0 = std::max(0, int(std::floor(std::min(query_.start.y, query_.goal.y) / s)) - 1);
    const int y1 =
        std::min(grid_.height() - 1, int(std::floor(std::max(query_.start.y, query_.goal.y) / s)) + 1);
    const std::uint32_t first = *grid_.cell_at(query_.start);
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        if (!touches(x, y)) continue;
        const std::uint32_t i = grid_.index(x, y);
        if (!grid_.passable(i) || grid_.multiplier(i) != grid_.multiplier(first) ||
            grid_.move_key(i) != grid_.move_key(first))
          return std::nullopt;
      }
    }
    return grid_.multiplier(first);
  }

  const CostGrid& grid_;
  PathQuery query_;
  bool expanded_ = false;
};

}  // namespace

void append_straight_planners(std::vector<PlannerInfo>& r) {
  using P = StraightParams;
  r.push_back(to_planner_info(
      PlannerEntry<P>{"straight",
                      "straight",
                      "the straight line when it crosses open cells of one cost (a test-only family)",
                      false,
                      "metres of terrain-weighted travel",
                      P{},
                      {},
                      [](const QueryContext& c, const P&) -> std::unique_ptr<Planner> {
                        return std::make_unique<StraightPlanner>(c.world, c.movement_class);
                      },
                      RefereeSpec{}}));
}

}  // namespace pathscope

#include "planner/quadtree/quadtree_map.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

namespace pathscope {

namespace {

// What a refusal of the budget suggests.
constexpr std::string_view kBudgetAdvice =
    "use larger cells or a smaller world, or raise the planner parameter memory_mib";

}  // namespace

QuadtreeMap::QuadtreeMap(const PlanningWorld& world, std::size_t movement_class, MemoryBudget budget)
    : class_(movement_class), budget_(budget) {
  const CostGrid& grid = world.grid(movement_class);
  const std::uint64_t cells = grid.cell_count();
  const std::uint64_t fixed = cells * kBytesPerCell;
  const auto refuse = [&](std::uint64_t estimate, const std::string& detail) {
    error_ = budget_
                 .check(std::max(estimate, budget_.bytes + 1), "the quadtree",
                        std::string(kBudgetAdvice) + " (" + detail + ")")
                 .error();
    tree_ = Quadtree();
    links_ = QuadLinks();
  };
  // Before the tree: its table of cells.
  if (!budget_.fits(fixed)) {
    refuse(fixed, std::to_string(cells) + " cells");
    return;
  }
  // While building: the leaves the rest of the budget allows.
  const std::uint64_t max_leaves = (budget_.bytes - fixed) / (kBytesPerLeaf + kLinkBytesPerLeaf);
  tree_ = Quadtree(grid, static_cast<std::size_t>(std::min<std::uint64_t>(max_leaves, ~std::size_t{0})));
  if (tree_.over_budget()) {
    refuse(
        fixed + (max_leaves + 1) * (kBytesPerLeaf + kLinkBytesPerLeaf),
        std::to_string(cells) + " cells; it passed " + std::to_string(max_leaves) + " leaves while building");
    return;
  }
  // After the links: what is held.
  links_ = QuadLinks(tree_);
  const std::uint64_t held = memory_bytes() + tree_.leaf_slots() * (kBytesPerLeaf - sizeof(QuadLeaf));
  if (!budget_.fits(held)) {
    refuse(held, std::to_string(tree_.leaf_count()) + " leaves and " + std::to_string(links_.link_count()) +
                     " links");
  }
}

const QuadtreeMap& QuadtreeMap::of(const PlanningWorld& world, std::size_t movement_class,
                                   MemoryBudget budget) {
  // The budget is part of the key only when not the default, so that ordinary use keeps one map.
  std::string key(kKey);
  if (budget.bytes != kDefaultMemoryBudget) key += " budget=" + std::to_string(budget.bytes);
  return world.derived<QuadtreeMap>(key, movement_class, [budget](const PlanningWorld& w, std::size_t c) {
    return std::make_unique<QuadtreeMap>(w, c, budget);
  });
}

bool QuadtreeMap::update(const PlanningWorld& world, const WorldChange& change) {
  if (change.cells.empty()) return true;
  if (!ok()) return false;  // refused: built again (and refused again, or not) at its next use
  const QuadtreeEdit edit = tree_.update(world.grid(class_), change.cells);
  links_.update(tree_, edit);
  return budget_.fits(memory_bytes() + tree_.leaf_slots() * (kBytesPerLeaf - sizeof(QuadLeaf)));
}

}  // namespace pathscope

#pragma once

// What the quadtree family derives from a planning world for one movement class: the
// tree, its neighbour links and their regions, cached by the world (derived<T>).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "planner/core/memory_budget.hpp"
#include "planner/core/result.hpp"
#include "planner/quadtree/quadtree.hpp"
#include "planner/quadtree/quadtree_links.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// A movement class's quadtree and neighbour graph. Built from the class's cost grid; a
/// world change that alters cells updates it in place: the squares of the changed cells
/// and the links around them are made again, regions are brought up to date around them
/// (leaves left in place keep their ids; see Quadtree for what ids may be used for).
///
/// Built within a memory budget (the planner parameter memory_mib): checked before the
/// tree (kBytesPerCell for every cell), while it is built (kBytesPerLeaf for every leaf
/// made: the tree stops at the leaf the budget allows), before the links (kLinkBytesPerLeaf
/// more per leaf) and after them (the bytes held). A map over the budget holds no leaf
/// and says why (error()).
class QuadtreeMap final : public DerivedStructure {
 public:
  /// Key of the family's structures in PlanningWorld::derived.
  static constexpr std::string_view kKey = "quadtree";
  /// Bytes the budget counts per grid cell: the table from cells to the leaves they start.
  static constexpr std::uint64_t kBytesPerCell = 4;
  /// Bytes per leaf before its links: the leaf (24), a share of the inner nodes (16) and a
  /// search's state for it (48).
  static constexpr std::uint64_t kBytesPerLeaf = 88;
  /// Bytes per leaf of its links, counted before they are found: four links (24 each) and
  /// its block (12).
  static constexpr std::uint64_t kLinkBytesPerLeaf = 108;

  /// Builds the map of `movement_class` in `world` within `budget`.
  QuadtreeMap(const PlanningWorld& world, std::size_t movement_class, MemoryBudget budget = {});

  /// The map of `movement_class` in `world`, made on first use (one per budget). The
  /// reference stays valid until the world's next update().
  static const QuadtreeMap& of(const PlanningWorld& world, std::size_t movement_class,
                               MemoryBudget budget = {});

  /// False when the map was refused by its memory budget (then it holds no leaf).
  bool ok() const { return !error_.has_value(); }
  /// Why it was refused: a Limit error naming the budget and the parameter memory_mib.
  const Error& error() const { return *error_; }
  MemoryBudget budget() const { return budget_; }

  const Quadtree& tree() const { return tree_; }
  const QuadLinks& links() const { return links_; }

  /// Kept as it is when no cell changed (threats, units, queries); otherwise updated in
  /// the changed cells (Quadtree::update, QuadLinks::update). Dropped when refused (made
  /// again at its next use) or when the update takes it over its budget (refused then).
  bool update(const PlanningWorld& world, const WorldChange& change) override;
  std::size_t memory_bytes() const override { return tree_.memory_bytes() + links_.memory_bytes(); }

 private:
  std::size_t class_;
  MemoryBudget budget_;
  Quadtree tree_;
  QuadLinks links_;
  std::optional<Error> error_;
};

}  // namespace pathscope

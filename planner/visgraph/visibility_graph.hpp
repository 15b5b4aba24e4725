#pragma once

// The visibility graph of a set of inflated obstacles (seed 003, "The solution, part 1"
// and "Howdy neighbour!"; seed 004, "Visibility graphs"): nodes are the obstacles'
// convex corners (the permanent waypoints), links join corners in line of sight.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "planner/core/memory_budget.hpp"
#include "planner/core/result.hpp"
#include "planner/visgraph/obstacle_set.hpp"
#include "planner/visgraph/segment_index.hpp"
#include "planner/visgraph/shadow_buffer.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::visgraph {

/// The last few edges that blocked sight tests from one point: tried before a full test,
/// since a segment that properly crosses an obstacle edge is blocked.
class Blockers {
 public:
  /// True when [p, q] is in sight; when not, remembers the blocking edge.
  bool sees(const SegmentIndex& index, Vec2 p, Vec2 q);
  /// True when every point of `box` lies behind one remembered edge as seen from p.
  bool hide_box(const SegmentIndex& index, Vec2 p, const Box2& box) const;
  /// The edge the last sees() that answered false found by a full test, or kNoEdge.
  std::uint32_t found() const { return found_; }

 private:
  std::array<std::uint32_t, 4> edge_{SegmentIndex::kNoEdge, SegmentIndex::kNoEdge, SegmentIndex::kNoEdge,
                                     SegmentIndex::kNoEdge};
  std::size_t next_ = 0;
  std::uint32_t found_ = SegmentIndex::kNoEdge;
};

/// True when segment [a, b] meets the closed box.
bool segment_meets_box(Vec2 a, Vec2 b, const Box2& box);
/// False only when no segment from p to a point of box b meets the closed box c (a
/// conservative test: true may also mean "not shown apart").
bool segments_may_meet(Vec2 p, const Box2& b, const Box2& c);

/// Counters of one build.
struct GraphBuildStats {
  std::uint64_t pairs = 0;          ///< Corner pairs considered.
  std::uint64_t tangent_pairs = 0;  ///< Pairs tangent at both ends (tested for sight).
  std::uint64_t edge_tests = 0;     ///< Obstacle edges tested by those sight tests.
  std::uint64_t hidden_groups = 0;  ///< Groups of nodes skipped whole, hidden behind an edge.
  std::uint64_t kept_links = 0;     ///< An update: links copied from the old graph untested.
};

/// How a build finds each node's links (the links are the same either way).
enum class PairScan : std::uint8_t {
  Automatic,  ///< Ordered below kTreeScanFrom nodes (an update: kTreeUpdateFrom), Tree from there on.
  Ordered,    ///< The groups of nodes in order, with the blockers' shortcuts.
  Tree,       ///< The tree of groups, nearest first, skipping what a shadow buffer hides.
};

/// Nodes from which PairScan::Automatic walks the tree in a build, and in an update:
/// about where it starts to pay (measured on the Moving AI and random-rectangle maps of
/// the README; an update tests few pairs, so the ordered scan's cheap skips last longer).
inline constexpr std::size_t kTreeScanFrom = 4096;
inline constexpr std::size_t kTreeUpdateFrom = 12288;

/// Corners and links of one obstacle set. A link joins two corners that see each other
/// and is kept only when its line is tangent to the obstacle at both ends: a shortest
/// path bends only around corners it is tangent to, so the others are never used.
class VisibilityGraph {
 public:
  /// Builds the graph over `obstacles` (taken). Each pair tangent at both ends is tested
  /// for sight unless its group was found hidden: quadratic in corners at worst (open
  /// maps), about linear in what each corner sees where obstacles hide most of the map.
  /// The scan stops as soon as the graph's bytes (memory_bytes() plus the links found
  /// so far) exceed `max_bytes`: then over_budget() and the graph has no links.
  explicit VisibilityGraph(ObstacleSet obstacles, PairScan scan = PairScan::Automatic,
                           std::uint64_t max_bytes = UINT64_MAX);

  const ObstacleSet& obstacles() const { return obstacles_; }
  const SegmentIndex& index() const { return index_; }

  std::size_t node_count() const { return corner_.size(); }
  /// The ring vertex (SegmentIndex id) of a node.
  std::uint32_t vertex(std::uint32_t node) const { return corner_[node]; }
  /// World position of a node.
  Vec2 position(std::uint32_t node) const { return index_.position(corner_[node]); }
  /// The nodes linked with `node`, in increasing id order.
  std::span<const std::uint32_t> links(std::uint32_t node) const {
    return {link_.data() + link_start_[node], link_.data() + link_start_[node + 1]};
  }
  /// Undirected links.
  std::size_t link_count() const { return link_.size() / 2; }
  /// The graph over `obstacles` after a change confined to `changed` (world box: the
  /// obstacles differ from old's nowhere outside it): links between unchanged nodes (same
  /// position and ring neighbours) whose segment misses the box are copied from `old`;
  /// every other pair is tested. Equals a full build over the same obstacles.
  VisibilityGraph(ObstacleSet obstacles, const VisibilityGraph& old, const Box2& changed,
                  PairScan scan = PairScan::Automatic, std::uint64_t max_bytes = UINT64_MAX);

  /// True when a build stopped over its `max_bytes` (the graph is then unusable).
  bool over_budget() const { return over_budget_; }
  /// The bytes the whole graph would take: memory_bytes() once built; after a stop, those
  /// of the links found so far projected over all the nodes (a rough figure).
  std::uint64_t projected_bytes() const { return projected_bytes_; }
  /// Bytes a link takes while a build runs: its pair (twice, as the list of pairs grows)
  /// and its two entries in the adjacency lists.
  static constexpr std::uint64_t kBuildBytesPerLink = 2 * 8 + 2 * 4;

  /// True when the node sees point p along a line tangent to its obstacle.
  bool links_to(std::uint32_t node, Vec2 p) const;
  /// Every node that links_to(node, p), in increasing id order, into `out` (cleared).
  /// Exact; groups of nodes hidden behind an edge that blocked an earlier test are
  /// skipped whole.
  void nodes_linked_to(Vec2 p, std::vector<std::uint32_t>& out) const;
  /// The node of a ring vertex, or UINT32_MAX when it is not a corner.
  std::uint32_t node_of_vertex(std::uint32_t vertex) const { return node_of_vertex_[vertex]; }

  const GraphBuildStats& stats() const { return stats_; }
  std::size_t memory_bytes() const;

 private:
  // Per node: position and the two ring neighbours relative to it, for the pair loops.
  struct Pairing {
    explicit Pairing(const VisibilityGraph& g);
    bool tangent(std::size_t i, Vec2 d) const;
    std::vector<Vec2> p, a, b;
  };
  // Which pairs an update tests: those with a fresh node, or across the changed box.
  struct UpdateFilter {
    const std::vector<std::uint8_t>* fresh;        // per node
    const std::vector<std::uint8_t>* group_fresh;  // per group: holds a fresh node
    const std::vector<std::uint8_t>* tree_fresh;   // per tree node: holds a fresh node
    Box2 changed;
  };
  // A node of the tree over groups (their Morton cells' quadtree, one-child links
  // skipped): a group, or children child_[child .. child + children).
  struct TreeNode {
    Box2 box;                      // of its nodes
    std::uint32_t g0 = 0, g1 = 0;  // its groups
    std::uint32_t child = 0, children = 0;
  };
  // Scratch of the tree scans.
  struct TreeScan {
    explicit TreeScan(int sectors) : shadows(sectors) {}
    void begin(Vec2 from);
    void add(const SegmentIndex& index, std::uint32_t edge);
    ShadowBuffer shadows;
    std::vector<std::uint32_t> stamp;  // per vertex: its edge was added for this scan (or empty)
    std::uint32_t current = 0;
    std::vector<std::uint32_t> stack;
  };
  void init_nodes();
  void init_tree(const std::vector<std::uint64_t>& group_key);
  bool tree_scan(PairScan scan, std::size_t from) const;
  // Links from node i (of group gi) to every later node, the groups in order, into pairs
  // (i, j), j > i; with a filter, only the pairs an update tests.
  void scan_pairs(const Pairing& pg, std::uint32_t i, std::size_t gi, const UpdateFilter* filter,
                  std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs);
  // Walks the tree from `from`, nearest subtrees first, over the groups from `first` on:
  // adds the edges near each group reached to scan.shadows, skips the subtrees skip(node)
  // names and those the shadows hide (counting their groups in `hidden`), and calls
  // visit(group) for every other group.
  template <class Skip, class Visit>
  void walk_groups(Vec2 from, std::size_t first, TreeScan& scan, std::uint64_t& hidden, Skip&& skip,
                   Visit&& visit) const;
  // The same through the tree (the pairs of each node in increasing j).
  void scan_tree(const Pairing& pg, std::uint32_t i, std::size_t gi, const UpdateFilter* filter,
                 TreeScan& scan, std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs);
  // Adjacency lists from pairs (i, j), i < j, sorted.
  void make_links(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs);
  // After `scanned` nodes of a build: false, with over_budget_ and the projection set,
  // when `fixed` bytes and `links` links exceed max_bytes.
  bool within(std::uint64_t max_bytes, std::uint64_t fixed, std::size_t links, std::size_t scanned);

  ObstacleSet obstacles_;
  SegmentIndex index_;
  std::vector<std::uint32_t> corner_;          // node -> vertex; nodes in Morton order of their group's cell
  std::vector<std::uint32_t> group_start_;     // groups of nodes sharing a cell: group_count + 1
  std::vector<Box2> group_box_;                // the box of each group's nodes
  std::vector<Box2> group_cell_;               // the cell of each group
  std::vector<TreeNode> tree_;                 // the root last
  int sectors_ = 64;                           // of the build's shadow buffers
  std::vector<std::uint32_t> child_;           // children of tree nodes
  std::vector<std::uint32_t> node_of_vertex_;  // vertex -> node or UINT32_MAX
  std::vector<std::uint32_t> link_start_;      // node_count + 1
  std::vector<std::uint32_t> link_;
  GraphBuildStats stats_;
  bool over_budget_ = false;
  std::uint64_t projected_bytes_ = 0;
};

/// What the family derives from a world for one movement class and one set of obstacle
/// parameters: the graph, or why the obstacles could not be built.
class VisGraphMap final : public DerivedStructure {
 public:
  /// Builds the graph within `budget`: refused (a Limit error naming the budget) when the
  /// obstacle inputs alone promise more (world_obstacle_vertices), when the obstacles
  /// built do, or as soon as the links found while building exceed it.
  VisGraphMap(const PlanningWorld& world, std::size_t movement_class, const ObstacleParams& params,
              MemoryBudget budget = {});

  /// The map for these parameters, made on first use; valid until the world's next update().
  static const VisGraphMap& of(const PlanningWorld& world, std::size_t movement_class,
                               const ObstacleParams& params, MemoryBudget budget = {});

  /// Bytes per vertex of the obstacle inputs that building the obstacles and the graph
  /// takes at its peak, about: the peak memory of `solve --planner visgraph` on random
  /// 30% wall grids of 256 and 512 cells a side was 870 to 960 bytes per vertex, the
  /// program's own megabytes included; a little less is assumed.
  static constexpr std::uint64_t kPeakBytesPerInputVertex = 768;
  /// Bytes per vertex of the obstacles' rings that the graph takes before its links.
  static constexpr std::uint64_t kBytesPerRingVertex = 64;

  /// True when the obstacles were built; otherwise error() says which item is bad, or
  /// (code Limit) that the graph would not fit the memory budget.
  bool ok() const { return graph_ != nullptr; }
  const VisibilityGraph& graph() const { return *graph_; }
  const Error& error() const { return error_; }

  /// Kept when no cell, tile or feature changed (threats, units, queries); otherwise the
  /// obstacles are built again and the graph updated: only links of changed corners or
  /// across the changed area (grown by the radius and max_error) are tested again.
  bool update(const PlanningWorld& world, const WorldChange& change) override;
  std::size_t memory_bytes() const override { return graph_ ? graph_->memory_bytes() : 0; }

  /// The world revision of the last change to what the graph and the structures made
  /// beside it read (cells, tiles, features, roads): weighted regions or a road network
  /// made at this revision are current. A change to threats, units or queries keeps it.
  std::uint64_t inputs_revision() const { return inputs_revision_; }

 private:
  std::uint64_t inputs_revision_ = 0;
  std::size_t class_;
  ObstacleParams params_;
  MemoryBudget budget_;
  std::unique_ptr<VisibilityGraph> graph_;
  Error error_;
};

/// Optional limits on the links between corners (seed 003: "only allowing obstacles to
/// link the k-nearest obstacles, or dismiss links above a certain length"). Fewer links
/// make searches cheaper and paths longer; links to the start and the goal are never
/// limited.
struct LinkLimits {
  std::uint32_t k_nearest =
      0;  ///< Each corner keeps its k shortest links (and every link of a corner keeping it); 0: all.
  double max_length = 0;  ///< Links longer than this (metres) are dropped; 0: none.
  bool any() const { return k_nearest > 0 || max_length > 0; }
};

/// The links of a graph under limits, symmetric: a link is kept when it is no longer
/// than max_length and is among the k shortest of either end (ties by node id).
class LimitedLinks final : public DerivedStructure {
 public:
  LimitedLinks(const VisibilityGraph& graph, const LinkLimits& limits);

  /// The limited links of `map` (which must be ok()), made on first use; dropped at the
  /// world's next update() that changes the graph, and made again from the new one.
  static const LimitedLinks& of(const PlanningWorld& world, std::size_t movement_class,
                                const ObstacleParams& params, const LinkLimits& limits,
                                MemoryBudget budget = {});

  /// The nodes still linked with `node`, in increasing id order.
  std::span<const std::uint32_t> links(std::uint32_t node) const {
    return {link_.data() + link_start_[node], link_.data() + link_start_[node + 1]};
  }
  /// Undirected links kept.
  std::size_t link_count() const { return link_.size() / 2; }
  bool update(const PlanningWorld& world, const WorldChange& change) override;
  std::size_t memory_bytes() const override;

 private:
  std::vector<std::uint32_t> link_start_;  // node_count + 1
  std::vector<std::uint32_t> link_;
};

/// True when a world change may change the obstacles (and so the graph).
bool changes_obstacles(const WorldChange& change);

}  // namespace pathscope::visgraph

#pragma once

// Describing the nodes of the active search for tooltips and the inspector: which node
// is under a world point, where a node is, its short label and a several-line
// description (terrain, cost, region, and what the replayed search knows of it). Nodes
// are named by NodeId; only node_at() starts from a world position.

#include <optional>
#include <string>

#include "app/debugger/trace_session.hpp"
#include "planner/core/search.hpp"
#include "planner/core/types.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {

/// A read-only view of the nodes of `session`'s planner in `world`. Both are borrowed
/// and must outlive it; `world` may be nullptr (no document: nothing is found).
class NodeInspector {
 public:
  /// Borrows `world` (may be nullptr) and `session`.
  NodeInspector(const PlanningWorld* world, const TraceSession& session) : world_(world), session_(session) {}

  /// The node under a world point (metres), as the active planner hit-tests its own
  /// node shapes (Planner::node_at; point nodes within `tolerance` metres); before any
  /// trace, the cell of the active class's grid.
  std::optional<NodeId> node_at(Vec2 world, double tolerance) const;
  /// The shape of a node of the active planner (world), or nullopt.
  std::optional<NodeGeometry> node_geometry(NodeId node) const;
  /// World position of a node of the active planner (metres), or nullopt.
  std::optional<Vec2> node_position(NodeId node) const;
  /// Short name: "cell (x, y)" for lattice planners, "polygon N", "point N" or "cell N"
  /// by the node's shape otherwise, "-" for kNoNode.
  std::string node_label(NodeId node) const;
  /// Several lines: cell and world coordinates, terrain, cost multiplier for the active
  /// query's class, region, and, if the search touched it by the replay's step: g, h,
  /// f, parent, opened at / closed at step (each side of a bidirectional search).
  std::string describe(NodeId node) const;

 private:
  const PlanningWorld* world_;
  const TraceSession& session_;
};

}  // namespace pathscope::app

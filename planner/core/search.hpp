#pragma once

// The steppable search interface shared by every planner (grid, quadtree, visibility
// graph, ...): start(query), step(max_expansions) -> status, result(). find_path() is
// start + a loop of step, so the debugger and the batch runner run the same code.

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope {

/// A node of a planner's search graph: a grid cell, a quadtree cell, a corner, ...
/// Ids are dense per planner, in [0, Planner::node_count()).
using NodeId = std::uint32_t;

/// The id that names no node.
inline constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

/// Where a search stands.
enum class SearchStatus {
  Idle,     ///< No query started yet.
  Running,  ///< step() has more to do.
  Found,    ///< A path was found; result() holds it.
  NoPath,   ///< The goal cannot be reached (proved, or found in different regions).
  Invalid,  ///< The query cannot be answered (start in a wall, outside the map, ...).
};

/// Lowercase snake_case name of a status ("found", "no_path", ...).
const char* to_string(SearchStatus status);

/// True for Found, NoPath and Invalid.
inline bool is_finished(SearchStatus s) {
  return s == SearchStatus::Found || s == SearchStatus::NoPath || s == SearchStatus::Invalid;
}

/// A path request in world coordinates (metres).
struct PathQuery {
  Vec2 start{0, 0};
  Vec2 goal{0, 0};
};

/// Counters every planner keeps; planner-specific figures go into `extra`.
struct SearchStats {
  std::uint64_t expansions = 0;    ///< Nodes taken from an open list and expanded.
  std::uint64_t pushes = 0;        ///< Entries pushed onto open lists (incl. improvements).
  std::uint64_t relaxations = 0;   ///< Edges whose target got a better g.
  std::uint64_t steps = 0;         ///< Calls to step() that did work.
  std::vector<std::pair<std::string, double>> extra;  ///< Planner-specific, in a fixed order.
};

/// The outcome of a search.
struct PathResult {
  SearchStatus status = SearchStatus::Idle;
  std::vector<Vec2> points;     ///< World-space polyline from start to goal (Found only).
  std::vector<NodeId> nodes;    ///< The graph nodes of the path, start to goal.
  double cost = 0;              ///< Sum of edge costs (terrain-weighted), metres.
  double length = 0;            ///< Euclidean length of `points`, metres.
  SearchStats stats;
  std::string message;          ///< Why the query is Invalid or has NoPath, if known.
};

/// What happened in a search, for tracing. `side` is 0 for forward searches and 1 for
/// the backward half of a bidirectional search.
enum class SearchEventKind : std::uint8_t {
  Push,     ///< node opened for the first time with g, h, parent.
  Relax,    ///< an open node got a better g (and parent).
  Expand,   ///< node closed; one expansion.
  Path,     ///< node is on the final path (emitted start to goal, after Found).
};

/// One trace event.
struct SearchEvent {
  SearchEventKind kind = SearchEventKind::Push;
  std::uint8_t side = 0;
  NodeId node = kNoNode;
  NodeId parent = kNoNode;
  double g = 0;
  double h = 0;
};

/// Receives search events. Planners call it only when one is attached, so an absent
/// observer costs one predictable branch.
class SearchObserver {
 public:
  virtual ~SearchObserver() = default;
  /// Called when a new query starts, before any other event.
  virtual void on_start(const PathQuery& query) = 0;
  /// Called for each event, in order.
  virtual void on_event(const SearchEvent& event) = 0;
};

/// A node's state as a planner sees it right now, for drawing.
struct NodeView {
  NodeId node = kNoNode;
  std::uint8_t side = 0;
  double g = 0;
  double h = 0;
  NodeId parent = kNoNode;
  bool closed = false;
};

/// The interface of every planner. A planner is built for one map and one movement
/// class and answers many queries; it owns its search memory and reuses it.
class Planner {
 public:
  virtual ~Planner() = default;

  /// Registry name, e.g. "astar".
  virtual std::string_view name() const = 0;

  /// Begins a query; may finish at once (Invalid, or NoPath between regions).
  virtual SearchStatus start(const PathQuery& query) = 0;

  /// Expands up to `max_expansions` nodes; returns the status afterwards.
  virtual SearchStatus step(std::uint64_t max_expansions) = 0;

  /// The result so far: status and stats always; the path once Found.
  virtual const PathResult& result() const = 0;

  /// Number of node ids (ids are in [0, node_count())).
  virtual std::size_t node_count() const = 0;

  /// World position of a node (cell centre, corner, ...), for drawing and traces.
  virtual Vec2 node_position(NodeId node) const = 0;

  /// Calls `fn` for every node the current search has touched, open and closed,
  /// in increasing (side, node) order.
  virtual void visit_nodes(const std::function<void(const NodeView&)>& fn) const = 0;

  /// For planners whose nodes are the cells of the world's grid (node id = cell index):
  /// sets `bits` to one bit per cell (bit c of word c / 64), set for the cells the
  /// current search has expanded, and returns true. Such a search reads the grid only
  /// through these cells' moves and multipliers, their neighbours' multipliers and the
  /// grid's min_multiplier(), so an edit that changes none of those would replay it
  /// exactly. Returns false for planners that read the world otherwise (their answers
  /// must be recomputed after any edit).
  virtual bool expanded_cells(std::vector<std::uint64_t>& bits) const {
    bits.clear();
    return false;
  }

  /// Attaches an observer (not owned; nullptr detaches). Applies from the next start().
  virtual void set_observer(SearchObserver* observer) = 0;
};

/// Runs a whole query: start() then step() until finished. Returns result().
const PathResult& find_path(Planner& planner, const PathQuery& query);

/// Euclidean length of a polyline.
double polyline_length(const std::vector<Vec2>& points);

}  // namespace pathscope

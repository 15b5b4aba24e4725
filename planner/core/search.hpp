#pragma once

// The steppable search interface shared by every planner (grid, quadtree, visibility
// graph, ...): start(query), step(max_expansions) -> status, result(). find_path() is
// start + a loop of step, so the debugger and the batch runner run the same code.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/core/world_change.hpp"

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
  std::uint64_t expansions = 0;   ///< Nodes taken from an open list and expanded.
  std::uint64_t pushes = 0;       ///< Entries pushed onto open lists (incl. improvements).
  std::uint64_t relaxations = 0;  ///< Edges whose target got a better g.
  std::uint64_t steps = 0;        ///< Calls to step() that did work.
  std::vector<std::pair<std::string, double>> extra;  ///< Planner-specific, in a fixed order.
};

/// The outcome of a search.
struct PathResult {
  SearchStatus status = SearchStatus::Idle;
  std::vector<Vec2> points;   ///< World-space polyline from start to goal (Found only).
  std::vector<NodeId> nodes;  ///< The graph nodes of the path, start to goal.
  double cost = 0;            ///< Sum of edge costs (terrain-weighted), metres.
  double length = 0;          ///< Euclidean length of `points`, metres.
  SearchStats stats;
  std::string message;  ///< Why the query is Invalid or has NoPath, if known.
};

/// What happened in a search, for tracing. `side` is 0 for forward searches and 1 for
/// the backward half of a bidirectional search.
enum class SearchEventKind : std::uint8_t {
  Push,    ///< node opened for the first time with g, h, parent.
  Relax,   ///< an open node got a better g (and parent).
  Expand,  ///< node closed; one expansion (one step of a replay).
  Prune,   ///< node dropped without expansion (dominated, culled, outside a bound).
  Refine,  ///< a whole intermediate polyline (one step of a replay): `node` indexes the
           ///< trace's refinements; smoothing passes, string pulling, culling.
  Path,    ///< node is on the final path (emitted start to goal, after Found).
  /// The search passed over the nodes on the straight line from parent (excluded) to node
  /// (included), reading them without opening any: a jump of jump point search along a
  /// row, a column or a diagonal, or any planner's sweep along a line of its nodes.
  PassOver,
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

/// The shape of a node, as its planner declares it.
enum class NodeShape : std::uint8_t {
  Point,    ///< A waypoint (a corner, a portal end): drawn as a dot, hit within a tolerance.
  Box,      ///< An axis-aligned cell of any size (grid and quadtree cells).
  Polygon,  ///< A convex or simple polygon (navigation mesh faces, regions).
};

/// Where a node is in the world. `polygon` borrows the planner's storage: valid until
/// the planner's next start() or until it is destroyed.
struct NodeGeometry {
  NodeShape shape = NodeShape::Point;
  Vec2 position{0, 0};            ///< The point paths run through (centre, corner).
  Box2 bounds;                    ///< World box of the node (Point: the point itself).
  std::span<const Vec2> polygon;  ///< Polygon only: its vertices.
};

/// For planners whose nodes are the cells of a uniform grid with its top-left corner at
/// the world origin, id = row-major index: lets painters draw node sets as one image and
/// hit-test in constant time.
struct NodeLattice {
  int width = 0;         ///< Cells.
  int height = 0;        ///< Cells.
  double cell_size = 1;  ///< Metres.
};

/// What a piece of structure stands for. Painters draw each role on its own layer, so
/// each can be shown or hidden alone; planners of any family pick the roles that fit.
enum class StructureRole : std::uint8_t {
  Structure,  ///< The planner's own structure: its cells, links, auxiliary shapes.
  Corridor,   ///< A cell the current path runs through (its corridor).
  Portal,     ///< A boundary between two consecutive cells of the path, which it crosses.
  Graph,      ///< Nodes and links of a secondary graph a refinement stage searches.
  Region,     ///< A region a refinement stage reasons with (a visibility wedge, its apex).
  Detail,     ///< A finer division of the structure's cells (a navmesh's detail triangles), its own layer.
};

/// One cell of a planner's structure (a grid cell, a quadtree leaf, a polygon).
struct StructureCell {
  NodeShape shape = NodeShape::Box;
  Box2 box;                       ///< World box (Box shape) or the polygon's bounds.
  std::span<const Vec2> polygon;  ///< Polygon only.
  double value = 0;               ///< What colours it, e.g. the cost multiplier; infinity: blocked.
  NodeId node = kNoNode;          ///< The search node it is, if any.
  StructureRole role = StructureRole::Structure;  ///< Structure, or Corridor for the path's cells.
};

/// One edge of a planner's structure (a neighbour link, a visibility link).
struct StructureEdge {
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  Vec2 a{0, 0};           ///< World position of the `from` end.
  Vec2 b{0, 0};           ///< World position of the `to` end.
  std::string_view kind;  ///< Short static name: "move", "link", "portal", "road".
  double cost = 0;        ///< In the planner's cost units.
  bool directed = false;  ///< Only from -> to.
};

/// Named auxiliary geometry: portals, corridors, inflated obstacles, visibility regions.
struct StructureShape {
  /// Links: pairs of points, a directed link from points[2i] to points[2i + 1].
  enum class Kind : std::uint8_t { Polyline, Polygon, Points, Circle, Links };
  Kind kind = Kind::Polyline;
  std::string_view name;         ///< Short static name, e.g. "inflated obstacle".
  std::span<const Vec2> points;  ///< Polyline / polygon vertices, or points; Circle: its centre.
  double radius = 0;             ///< Circle only.
  double value = 0;              ///< Optional scalar for colouring.
  StructureRole role = StructureRole::Structure;  ///< What it stands for (its layer).
};

/// Receives a planner's structure, as Recast's debug draw receives Detour's: a const
/// walk, no drawing code in the planner. Spans are valid only during the call.
class StructureVisitor {
 public:
  virtual ~StructureVisitor() = default;
  virtual void cell(const StructureCell& cell) { (void)cell; }
  virtual void edge(const StructureEdge& edge) { (void)edge; }
  virtual void shape(const StructureShape& shape) { (void)shape; }
  /// Returns true once the visitor wants no more (a limit was reached); planners check it
  /// between items and stop early.
  virtual bool full() const { return false; }
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
  /// Called when a search stage produces a whole polyline (world coordinates): cell
  /// centres, a smoothing pass, a string-pulling step. `stage` is a short name, e.g.
  /// "portal A*". `shapes` is what the stage reasoned with at that point, drawn with it
  /// (a secondary graph, a visibility region; see StructureRole); spans are valid only
  /// during the call. Observers that keep it record a Refine event.
  virtual void on_refine(std::string_view stage, std::span<const Vec2> polyline,
                         std::span<const StructureShape> shapes = {}) {
    (void)stage;
    (void)polyline;
    (void)shapes;
  }
};

/// What a finished search read from the world, kept apart from the planner (which goes
/// on to other queries): asked after each world change whether that answer still holds.
class ResultDependency {
 public:
  virtual ~ResultDependency() = default;
  /// True when `change` cannot alter the answer the dependency was taken from. The world
  /// has already been updated in place; asked once per change, in order.
  virtual bool still_valid(const WorldChange& change) const = 0;
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

  /// The node's shape in the world. Default: a point at node_position().
  virtual NodeGeometry node_geometry(NodeId node) const {
    const Vec2 p = node_position(node);
    return NodeGeometry{NodeShape::Point, p, Box2::of(p), {}};
  }

  /// Set when nodes are the cells of a uniform grid (see NodeLattice). Default: none.
  virtual std::optional<NodeLattice> node_lattice() const { return std::nullopt; }

  /// The node at a world point: the lattice cell holding it, else the box or polygon
  /// holding it (the smallest), else the nearest point node within `tolerance` metres.
  /// kNoNode if none. Default: the lattice, or a scan of node_geometry() over every node.
  virtual NodeId node_at(Vec2 point, double tolerance) const;

  /// Walks the planner's search structure inside `bounds` (world box): its cells, edges
  /// and auxiliary shapes. Default: nothing.
  virtual void visit_structure(const Box2& bounds, StructureVisitor& visitor) const {
    (void)bounds;
    (void)visitor;
  }

  /// The structure of the last path found, whatever the view: the cells it runs through
  /// (role Corridor) and the boundaries it crosses between them (role Portal). Linear in
  /// the path's length, so painters may ask at every step. Default: nothing.
  virtual void visit_path_structure(StructureVisitor& visitor) const { (void)visitor; }

  /// What the last finished search depends on, to ask after world changes whether its
  /// answer still holds; nullptr (the default) means any change may alter it.
  virtual std::unique_ptr<ResultDependency> result_dependency() const { return nullptr; }

  /// Whether the last result still holds after `change`: result_dependency() asked once.
  bool result_still_valid(const WorldChange& change) const {
    const std::unique_ptr<ResultDependency> d = result_dependency();
    return d != nullptr && !change.rebuilt && d->still_valid(change);
  }

  /// Calls `fn` for every node the current search has touched, open and closed,
  /// in increasing (side, node) order.
  virtual void visit_nodes(const std::function<void(const NodeView&)>& fn) const = 0;

  /// Attaches an observer (not owned; nullptr detaches). Applies from the next start().
  virtual void set_observer(SearchObserver* observer) = 0;
};

/// Runs a whole query: start() then step() until finished. Returns result().
const PathResult& find_path(Planner& planner, const PathQuery& query);

/// Euclidean length of a polyline.
double polyline_length(const std::vector<Vec2>& points);

}  // namespace pathscope

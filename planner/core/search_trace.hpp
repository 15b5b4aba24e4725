#pragma once

// Recording a search and replaying it to any step. A SearchTrace is a SearchObserver
// that keeps every event; a TraceReplay rebuilds, for any step k (k expansions and
// refinements done), the open and closed sets, each node's g, h, f and parent, the node
// expanded last, the latest refinement polyline and the best partial path. The debugger scrubs with it; tests
// compare it with the live planner stepped one expansion at a time.

#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "planner/core/search.hpp"

namespace pathscope {

/// A StructureShape kept by a trace: it owns its name and points.
struct RefinementShape {
  StructureShape::Kind kind = StructureShape::Kind::Polyline;
  StructureRole role = StructureRole::Structure;
  std::string name;          ///< The shape's short name, e.g. "visibility region".
  std::vector<Vec2> points;  ///< World coordinates (see StructureShape::points).
  double radius = 0;         ///< Circle only.
  double value = 0;

  /// A copy of `shape`.
  static RefinementShape of(const StructureShape& shape);
  /// A view of this shape, valid while it lives.
  StructureShape view() const;
};

/// A whole intermediate polyline of a search (a Refine event's payload) and the shapes
/// the stage reasoned with at that point (its secondary graph, a visibility region).
struct Refinement {
  std::string stage;                    ///< Short name of the stage, e.g. "string pulling".
  std::vector<Vec2> points;             ///< World coordinates.
  std::vector<RefinementShape> shapes;  ///< Drawn with the polyline while it is the latest.
};

/// The events of one search, in order.
class SearchTrace final : public SearchObserver {
 public:
  void on_start(const PathQuery& query) override;
  void on_event(const SearchEvent& event) override;
  void on_refine(std::string_view stage, std::span<const Vec2> polyline,
                 std::span<const StructureShape> shapes = {}) override;

  const PathQuery& query() const { return query_; }
  const std::vector<SearchEvent>& events() const { return events_; }
  /// Steps a replay can seek to are 0..step_count(): one per Expand or Refine event.
  std::uint64_t step_count() const { return step_index_.size(); }
  /// Number of Expand events.
  std::uint64_t expansion_count() const { return expansions_; }
  /// Index in events() of the event of step k + 1 (an Expand or a Refine; k from 0).
  std::size_t step_event(std::uint64_t k) const { return step_index_[k]; }
  /// The polylines of Refine events (an event's `node` indexes this).
  const std::vector<Refinement>& refinements() const { return refinements_; }
  /// Bytes held by the trace.
  std::size_t memory_bytes() const;

 private:
  PathQuery query_;
  std::vector<SearchEvent> events_;
  std::vector<std::size_t> step_index_;
  std::uint64_t expansions_ = 0;
  std::vector<Refinement> refinements_;
};

/// Step number that means "never".
inline constexpr std::uint64_t kNeverStep = std::numeric_limits<std::uint64_t>::max();

/// A node as the trace knows it at the replay's step.
struct TraceNode {
  NodeId node = kNoNode;
  std::uint8_t side = 0;
  double g = 0;
  double h = 0;
  NodeId parent = kNoNode;
  std::uint64_t opened_at = kNeverStep;  ///< Step during which it was first pushed (0 = at start).
  std::uint64_t closed_at = kNeverStep;  ///< Step that expanded it (1 = the first expansion).
  std::uint64_t pruned_at = kNeverStep;  ///< Step during which it was pruned, if it was.
  bool closed() const { return closed_at != kNeverStep; }
  bool pruned() const { return pruned_at != kNeverStep; }
  /// On the open list: pushed, neither expanded nor pruned.
  bool open() const { return !closed() && !pruned(); }
  double f() const { return g + h; }
};

/// Replays a trace to any step. Seeking forward applies events; seeking backward undoes
/// them from a log of what each push or relax overwrote (or replays from the start when
/// that is shorter), so stepping back costs as little as stepping forward.
class TraceReplay {
 public:
  /// `trace` must outlive the replay.
  explicit TraceReplay(const SearchTrace& trace);

  /// Shows the state after `step` steps (expansions and refinements; clamped to the
  /// trace's step count). Step == step_count() includes everything, the path too.
  void seek(std::uint64_t step);
  std::uint64_t step() const { return step_; }

  /// Every node touched so far, sorted by (side, node).
  std::vector<TraceNode> nodes() const;
  /// A node's state, or nullptr if untouched at this step.
  const TraceNode* find(std::uint8_t side, NodeId node) const;
  /// Open nodes sorted by f, then h, then node id (the order a planner pops them).
  std::vector<TraceNode> open_nodes() const;
  /// The node expanded at this step (kNoNode at step 0) and its side.
  NodeId current() const { return current_; }
  std::uint8_t current_side() const { return current_side_; }
  /// Parent chain from the start (or the goal, for side 1) to current(), start first.
  std::vector<NodeId> partial_path() const;
  /// The final path's nodes, once the replay has reached the Path events.
  const std::vector<NodeId>& path() const { return path_; }
  /// The latest refinement at this step, or nullptr before the first.
  const Refinement* refinement() const;

 private:
  void reset();
  void apply(const SearchEvent& event);
  void unapply(const SearchEvent& event);

  // What a Push or Relax event changed, to undo it.
  struct Undo {
    bool inserted;  // the event created the record (undo removes it)
    double g, h;    // otherwise the values it overwrote
    NodeId parent;
  };

  const SearchTrace& trace_;
  std::uint64_t step_ = 0;
  std::size_t applied_ = 0;                               // events applied
  std::unordered_map<std::uint64_t, std::size_t> index_;  // (side, node) -> records_ slot; lookup only
  std::vector<TraceNode> records_;
  NodeId current_ = kNoNode;
  std::uint8_t current_side_ = 0;
  std::vector<NodeId> path_;
  std::vector<Undo> undo_;                  // one per applied Push/Relax event, in order
  std::vector<std::uint64_t> closed_undo_;  // closed_at before each applied Expand
  struct Current {
    NodeId node;
    std::uint8_t side;
  };
  std::vector<Current> current_undo_;       // current node before each applied Expand
  std::vector<std::uint64_t> pruned_undo_;  // pruned_at before each applied Prune
  std::vector<NodeId> refinement_undo_;     // refinement before each applied Refine
  NodeId refinement_ = kNoNode;             // index into the trace's refinements
};

}  // namespace pathscope

#pragma once

// Bidirectional best-first search, one expansion per step, over any graph whose family
// supplies successors, costs and a heuristic (a model, below); the paged node state
// (paged_node_state.hpp) keeps both sides' g, parents and closed bits.
//
// mu is the cost of the best start-goal path seen so far: whenever one side improves
// g(v) and the other side has a g for v, g_f(v) + g_b(v) is a path (ties: the smaller
// meeting node). The model's stopping rule says when mu is final; the classic one is
// mu <= max(min f forward, min f backward) (Pohl 1971; Kaindl and Kainz 1997 discuss
// stronger ones): every path not yet seen passes through a node on each open list, and
// with a consistent heuristic the cheapest such path costs at least that list's least f.
// The search also ends when an open list runs empty (any path was seen on the way).
// Side choice: the side whose open list is smaller (Pohl's cardinality rule); ties go
// forward. Within a side: f, then h, then node id (open_list.hpp). The open lists use
// lazy deletion: an improved node is pushed again, its stale entry skipped when it surfaces.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "planner/core/open_list.hpp"
#include "planner/core/search.hpp"
#include "planner/search/paged_node_state.hpp"

namespace pathscope {

/// The loop and the per-query figures of a bidirectional search (side 0 from the start,
/// side 1 from the goal). `Node` is the family's node state: `double g[2]` (infinity when
/// not reached) and `std::uint8_t closed` (bit s: closed on side s), paged in
/// PagedNodeState<Node>.
///
/// A model (the family's view of its graph) supplies, all inlined into the loop:
///   bool tracing() const: an observer is attached;
///   void emit(SearchEventKind, int side, NodeId node, NodeId parent, double g, double h) const;
///   double heuristic(int side, NodeId n) const: towards the other side's root;
///   NodeId parent(int side, NodeId n, const Node& state) const: kNoNode at the root;
///   bool meeting_is_final(double mu, double top_f0, double top_f1) const: the stopping rule;
///   template <class Relax> void successors(int side, NodeId u, const Node& state, Relax&& relax):
///     calls relax(v, set_parent, cost, h) for each move out of u, where set_parent(Node&)
///     records u (or the move) as v's parent on `side`, cost() is the move's cost and
///     h(Node&) v's heuristic on `side`; cost and h are called only when needed.
template <class Node>
class BidirectionalSearch {
 public:
  /// Begins a query from the roots ends[0] (start) and ends[1] (goal): every earlier
  /// figure forgotten, both roots pushed (one Push event each, when tracing).
  template <class Model>
  void start(Model& model, PagedNodeState<Node>& state, const NodeId ends[2], SearchStats& stats) {
    reset();
    for (int side = 0; side < 2; ++side) {
      Node* s = state.find(ends[side]);
      if (!s) s = &state.add(ends[side]);
      s->g[side] = 0;
      const double h = model.heuristic(side, ends[side]);
      open_[side].push(OpenEntry{h, float(h), ends[side]});
      ++stats.pushes;
      if (model.tracing()) model.emit(SearchEventKind::Push, side, ends[side], kNoNode, 0.0, h);
    }
    if (ends[0] == ends[1]) {
      best_ = 0;
      meet_ = ends[0];
    }
  }

  /// Expands up to `max_expansions` nodes. Returns Running, Found (meeting() is the
  /// meeting node) or NoPath (an open list ran empty before the sides met).
  template <class Model>
  SearchStatus step(Model& model, PagedNodeState<Node>& state, SearchStats& stats,
                    std::uint64_t max_expansions) {
    for (std::uint64_t done = 0; done < max_expansions; ++done) {
      drop_stale(state, 0);
      drop_stale(state, 1);
      if (open_[0].empty() || open_[1].empty())
        return meet_ == kNoNode ? SearchStatus::NoPath : SearchStatus::Found;
      if (meet_ != kNoNode && model.meeting_is_final(best_, open_[0].top().f, open_[1].top().f))
        return SearchStatus::Found;
      expand(model, state, stats, open_[1].size() < open_[0].size() ? 1 : 0);
    }
    return SearchStatus::Running;
  }

  /// The path through the meeting node, start to goal (the meeting node must be set).
  template <class Model>
  std::vector<NodeId> path(const Model& model, const PagedNodeState<Node>& state) const {
    std::vector<NodeId> nodes;
    for (NodeId n = meet_; n != kNoNode; n = model.parent(0, n, state.at(n))) nodes.push_back(n);
    std::reverse(nodes.begin(), nodes.end());
    for (NodeId n = model.parent(1, meet_, state.at(meet_)); n != kNoNode;
         n = model.parent(1, n, state.at(n)))
      nodes.push_back(n);
    return nodes;
  }

  /// Forgets the last query: no open entry, no meeting, no expansion.
  void reset() {
    open_[0].clear();
    open_[1].clear();
    best_ = kInf;
    meet_ = kNoNode;
    side_expansions_[0] = side_expansions_[1] = 0;
    closed_nodes_ = 0;
  }

  /// The node where the best path seen so far meets (kNoNode: none yet).
  NodeId meeting() const { return meet_; }
  /// mu: the cost of the best path seen so far (infinity: none yet).
  double best_cost() const { return best_; }
  /// Expansions on `side` this query.
  std::uint64_t side_expansions(int side) const { return side_expansions_[side]; }
  /// Nodes closed on either side this query, each once.
  std::uint64_t closed_nodes() const { return closed_nodes_; }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  void drop_stale(const PagedNodeState<Node>& state, int side) {
    while (!open_[side].empty() && ((state.at(open_[side].top().node).closed >> side) & 1u))
      open_[side].pop();
  }

  template <class Model>
  void expand(Model& model, PagedNodeState<Node>& state, SearchStats& stats, int side) {
    const int other = 1 - side;
    const NodeId u = open_[side].pop().node;
    Node& cur = state.at(u);
    if (cur.closed == 0) ++closed_nodes_;
    cur.closed |= std::uint8_t(1u << side);
    ++stats.expansions;
    ++side_expansions_[side];
    const double gu = cur.g[side];
    if (model.tracing())
      model.emit(SearchEventKind::Expand, side, u, model.parent(side, u, cur), gu, model.heuristic(side, u));
    const auto reached = state.finder();
    // Inlined by force: GCC otherwise keeps the relaxation a call per move, which costs
    // grid A* about a sixth of its time.
    model.successors(
        side, u,
        cur, [&](NodeId v, auto&& set_parent, auto&& cost, auto&& heuristic) __attribute__((always_inline)) {
          Node* sv = reached.find(v);
          if (!sv)
            sv = &state.add(v);
          else if ((sv->closed >> side) & 1u)
            return;
          const double ng = gu + cost();
          if (!(ng < sv->g[side])) return;
          const bool fresh = sv->g[side] == kInf;
          sv->g[side] = ng;
          set_parent(*sv);
          const double h = heuristic(*sv);
          open_[side].push(OpenEntry{ng + h, float(h), v});
          ++stats.pushes;
          if (!fresh) ++stats.relaxations;
          if (model.tracing())
            model.emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, side, v, u, ng, h);
          if (sv->g[other] < kInf) {
            const double total = ng + sv->g[other];
            if (total < best_ || (total == best_ && v < meet_)) {
              best_ = total;
              meet_ = v;
            }
          }
        });
  }

  OpenList open_[2];
  double best_ = kInf;  // mu
  NodeId meet_ = kNoNode;
  std::uint64_t side_expansions_[2] = {0, 0};
  std::uint64_t closed_nodes_ = 0;
};

}  // namespace pathscope

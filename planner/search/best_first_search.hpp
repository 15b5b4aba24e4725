#pragma once

// Best-first search towards one target, one expansion per step, over any graph whose
// family supplies successors, costs, a heuristic and open-list keys (a model, below); the
// paged node state (paged_node_state.hpp) keeps g, parents and the closed bit.
//
// The target is never expanded. Its cost so far is kept when a move reaches it, and the
// search ends once the open list's least key is no smaller than the target's: with a
// consistent heuristic every other path costs at least that f. On open grids this saves
// every node whose f equals the optimum, a whole band of them, which expanding until the
// target surfaces would take whenever rounding puts one of them ahead of it; entries
// that cannot beat the target's key are not pushed at all. The open list uses lazy
// deletion: an improved node is pushed again and its stale entry is skipped when it
// surfaces (it is closed by then). Ties: key, then h (deeper first), then node id.

#include <cstdint>
#include <limits>

#include "planner/core/open_list.hpp"
#include "planner/core/search.hpp"
#include "planner/search/paged_node_state.hpp"

namespace pathscope {

/// The loop and the per-query figures of a one-sided best-first search (A*, weighted A*,
/// Dijkstra). `Node` is the family's node state: `double g[1]` (infinity when not
/// reached) and `std::uint8_t closed`, paged in PagedNodeState<Node>.
///
/// A model (the family's view of its graph) supplies, all inlined into the loop:
///   bool tracing() const: an observer is attached;
///   void emit(SearchEventKind, int side, NodeId node, NodeId parent, double g, double h) const;
///   double heuristic(NodeId n) const: towards the target;
///   NodeId parent(NodeId n, const Node& state) const: kNoNode at the root;
///   double key(double f) const: the open-list key of an f (f itself, or f rounded so
///     that equal f compare equal), monotone in f, key(infinity) = infinity;
///   template <class Relax> void successors(NodeId u, const Node& state, Relax&& relax):
///     calls relax(v, set_parent, cost, h) for each move out of u, where set_parent(Node&)
///     records u (or the move) as v's parent, cost() is the move's cost and h() v's
///     heuristic; cost and h are called only when needed.
template <class Node>
class BestFirstSearch {
 public:
  /// Begins a query from `root` towards `target`: the open list cleared, the root pushed
  /// (one Push event, when tracing). The model's key() must be set for the query.
  template <class Model>
  void start(Model& model, PagedNodeState<Node>& state, NodeId root, NodeId target, SearchStats& stats) {
    open_.clear();
    target_ = target;
    target_g_ = kInf;
    state.add(root).g[0] = 0.0;
    if (root == target) target_g_ = 0.0;  // found before any expansion
    const double h = model.heuristic(root);
    open_.push(OpenEntry{model.key(h), float(h), root});
    ++stats.pushes;
    if (model.tracing()) model.emit(SearchEventKind::Push, 0, root, kNoNode, 0.0, h);
  }

  /// Expands up to `max_expansions` nodes. Returns Running, Found (the target's parents
  /// lead back to the root) or NoPath (the open list ran empty).
  template <class Model>
  SearchStatus step(Model& model, PagedNodeState<Node>& state, SearchStats& stats,
                    std::uint64_t max_expansions) {
    const auto reached = state.finder();
    const NodeId target = target_;
    std::uint64_t done = 0;
    double target_key = model.key(target_g_);
    while (done < max_expansions) {
      // The target's best cost so far is final once no open entry can lead to a cheaper
      // one: f is a lower bound on any path through an entry (consistent heuristic).
      if (open_.empty() || open_.top().f >= target_key)
        return target_g_ < kInf ? SearchStatus::Found : SearchStatus::NoPath;
      const OpenEntry top = open_.pop();
      Node& cur = state.at(top.node);
      if (cur.closed) continue;  // stale duplicate of an improved entry
      cur.closed = 1;
      ++done;
      ++stats.expansions;
      const NodeId u = top.node;
      const double gu = cur.g[0];
      if (model.tracing())
        model.emit(SearchEventKind::Expand, 0, u, model.parent(u, cur), gu, model.heuristic(u));
      // Inlined by force: GCC otherwise keeps the relaxation a call per move, which costs
      // grid A* about a sixth of its time.
      model.successors(
          u, cur,
          [&](NodeId v, auto&& set_parent, auto&& cost, auto&& heuristic) __attribute__((always_inline)) {
            Node* sv = reached.find(v);
            const bool fresh = sv == nullptr;
            if (fresh)
              sv = &state.add(v);
            else if (sv->closed)
              return;
            const double ng = gu + cost();
            if (!(ng < sv->g[0])) return;
            sv->g[0] = ng;
            set_parent(*sv);
            const double h = heuristic();
            if (!fresh) ++stats.relaxations;
            if (model.tracing())
              model.emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, 0, v, u, ng, h);
            if (v == target) {
              target_g_ = ng;  // the target is never expanded: reaching it is enough
              target_key = model.key(ng);
              return;
            }
            // An entry that cannot beat the target's cost so far would never be expanded.
            const double f = model.key(ng + h);
            if (f >= target_key) return;
            open_.push(OpenEntry{f, float(h), v});
            ++stats.pushes;
          });
    }
    return SearchStatus::Running;
  }

  /// The target's cost so far (infinity: not reached).
  double target_cost() const { return target_g_; }
  /// Entries on the open list (stale ones included).
  std::size_t open_size() const { return open_.size(); }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  OpenList open_;
  NodeId target_ = kNoNode;
  double target_g_ = kInf;
};

}  // namespace pathscope

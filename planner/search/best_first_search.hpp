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
//
// Two variants, chosen by the model at compile time, for graphs where a node's h depends
// on the move that reached it (the quadtree's entry points): with kImprovesOnF a node
// reached again is improved when its f, not its g, is lower (the node state keeps its h),
// and with kExpandsTarget the target is pushed like any node and the search ends when it
// is expanded (its h is exact there, so its f is its cost), with no pruning by the
// target's cost. A model may also order the open list by ids of its own (open_id) while
// the loop and the node state use the model's dense ids (TaggedOpenList carries them).

#include <cstdint>
#include <limits>
#include <type_traits>

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
/// Optionally (absent: false, node ids):
///   static constexpr bool kImprovesOnF: improve a reached node when ng + h beats its
///     g + h (`Node` has `double h`, which the loop keeps; Expand events carry it);
///   static constexpr bool kExpandsTarget: end when the target is expanded (above);
///   NodeId open_id(NodeId n) const: the id the open list orders n by (`Open` must be
///     TaggedOpenList; events and the node state still use n);
///   void prefetch(NodeId next) const: called after each pop with the node then on top of
///     the open list (usually the next one expanded), to ask the cache for what expanding
///     it reads while the current node is expanded (not with TaggedOpenList).
template <class Node, class Open = OpenList>
class BestFirstSearch {
  static constexpr bool kTagged = std::is_same_v<Open, TaggedOpenList>;
  template <class Model>
  static constexpr bool improves_on_f() {
    if constexpr (requires { Model::kImprovesOnF; })
      return Model::kImprovesOnF;
    else
      return false;
  }
  template <class Model>
  static constexpr bool expands_target() {
    if constexpr (requires { Model::kExpandsTarget; })
      return Model::kExpandsTarget;
    else
      return false;
  }
  // Pushes n with key f; the model's open id when the list is tagged.
  template <class Model>
  void push(const Model& model, double f, double h, NodeId n) {
    if constexpr (kTagged)
      open_.push(OpenEntry{f, float(h), model.open_id(n)}, n);
    else
      open_.push(OpenEntry{f, float(h), n});
  }

 public:
  /// Begins a query from `root` towards `target`: the open list cleared, the root pushed
  /// (one Push event, when tracing). The model's key() must be set for the query.
  template <class Model>
  void start(Model& model, PagedNodeState<Node>& state, NodeId root, NodeId target, SearchStats& stats) {
    open_.clear();
    target_ = target;
    target_g_ = kInf;
    Node& r = state.add(root);
    r.g[0] = 0.0;
    if (root == target && !expands_target<Model>()) target_g_ = 0.0;  // found before any expansion
    const double h = model.heuristic(root);
    if constexpr (improves_on_f<Model>()) r.h = h;
    push(model, model.key(h), h, root);
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
    [[maybe_unused]] double target_key = model.key(target_g_);
    while (done < max_expansions) {
      // The target's best cost so far is final once no open entry can lead to a cheaper
      // one: f is a lower bound on any path through an entry (consistent heuristic).
      if constexpr (expands_target<Model>()) {
        if (open_.empty()) return SearchStatus::NoPath;
      } else {
        if (open_.empty() || open_.top().f >= target_key)
          return target_g_ < kInf ? SearchStatus::Found : SearchStatus::NoPath;
      }
      NodeId u;
      if constexpr (kTagged) {
        std::uint32_t tag = 0;
        open_.pop(&tag);
        u = tag;
      } else {
        u = open_.pop().node;
        if constexpr (requires { model.prefetch(u); }) {
          if (!open_.empty()) model.prefetch(open_.top().node);
        }
      }
      Node& cur = state.at(u);
      if (cur.closed) continue;  // stale duplicate of an improved entry
      cur.closed = 1;
      ++done;
      ++stats.expansions;
      const double gu = cur.g[0];
      if (model.tracing()) {
        if constexpr (improves_on_f<Model>())
          model.emit(SearchEventKind::Expand, 0, u, model.parent(u, cur), gu, cur.h);
        else
          model.emit(SearchEventKind::Expand, 0, u, model.parent(u, cur), gu, model.heuristic(u));
      }
      if constexpr (expands_target<Model>()) {
        if (u == target) {
          target_g_ = gu;
          return SearchStatus::Found;
        }
      }
      // What both relaxation rules do once an entry got a better g: trace it, then record
      // the target or queue the entry. Inlined by force, as the relaxation below.
      const auto settle = [&](NodeId v, bool fresh, double ng, double h) __attribute__((always_inline)) {
        if (model.tracing())
          model.emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, 0, v, u, ng, h);
        if constexpr (!expands_target<Model>()) {
          if (v == target) {
            target_g_ = ng;  // the target is never expanded: reaching it is enough
            target_key = model.key(ng);
            return;
          }
          // An entry that cannot beat the target's cost so far would never be expanded.
          const double f = model.key(ng + h);
          if (f >= target_key) return;
          push(model, f, h, v);
        } else {
          push(model, model.key(ng + h), h, v);
        }
        ++stats.pushes;
      };
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
            if constexpr (improves_on_f<Model>()) {
              // h depends on the move: the better f wins.
              const double h = heuristic();
              if (!fresh && !(ng + h < sv->g[0] + sv->h)) return;
              sv->g[0] = ng;
              sv->h = h;
              set_parent(*sv);
              if (!fresh) ++stats.relaxations;
              settle(v, fresh, ng, h);
            } else {
              if (!(ng < sv->g[0])) return;
              sv->g[0] = ng;
              set_parent(*sv);
              const double h = heuristic();
              if (!fresh) ++stats.relaxations;
              settle(v, fresh, ng, h);
            }
          });
    }
    return SearchStatus::Running;
  }

  /// The target's cost so far (infinity: not reached); with kExpandsTarget, its g once
  /// expanded.
  double target_cost() const { return target_g_; }
  /// Entries on the open list (stale ones included).
  std::size_t open_size() const { return open_.size(); }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  Open open_;
  NodeId target_ = kNoNode;
  double target_g_ = kInf;
};

}  // namespace pathscope

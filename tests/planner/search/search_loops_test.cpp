// The shared search loops (planner/search) on graphs that are not grids: random geometric
// graphs with Euclidean heuristics, against a brute-force Dijkstra written here.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "planner/search/best_first_search.hpp"
#include "planner/search/bidirectional_search.hpp"
#include "planner/search/paged_node_state.hpp"

using namespace pathscope;

namespace search_loops_test {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Node {
  double g[2];
  NodeId parent[2];
  std::uint32_t generation;
  std::uint8_t closed;
  static Node fresh(std::uint32_t generation) {
    return Node{{kInf, kInf}, {kNoNode, kNoNode}, generation, 0};
  }
};

struct Edge {
  NodeId to;
  double cost;
};

// Points in a 100 m square; each joined to its four nearest, at its length times a
// factor in [1, 3] (so the Euclidean distance is a consistent heuristic); undirected.
struct Graph {
  std::vector<Vec2> at;
  std::vector<std::vector<Edge>> adj;
  explicit Graph(unsigned seed, int n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coord(0, 100), factor(1, 3);
    for (int i = 0; i < n; ++i) at.push_back(Vec2{coord(rng), coord(rng)});
    adj.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      std::vector<int> order;
      for (int j = 0; j < n; ++j)
        if (j != i) order.push_back(j);
      std::sort(order.begin(), order.end(), [&](int a, int b) { return dist(i, a) < dist(i, b); });
      for (int k = 0; k < 4; ++k) {
        const int j = order[std::size_t(k)];
        const double c = dist(i, j) * factor(rng);
        adj[std::size_t(i)].push_back({NodeId(j), c});
        adj[std::size_t(j)].push_back({NodeId(i), c});
      }
    }
  }
  double dist(int a, int b) const {
    const Vec2 d = at[std::size_t(a)] - at[std::size_t(b)];
    return std::sqrt(d.x * d.x + d.y * d.y);
  }
  // Brute force: Bellman-Ford style relaxation until nothing changes.
  double shortest(NodeId s, NodeId t) const {
    std::vector<double> d(at.size(), kInf);
    d[s] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t u = 0; u < at.size(); ++u) {
        for (const Edge& e : adj[u]) {
          if (d[u] + e.cost < d[e.to]) {
            d[e.to] = d[u] + e.cost;
            changed = true;
          }
        }
      }
    }
    return d[t];
  }
  double path_cost(const std::vector<NodeId>& path) const {
    double c = 0;
    for (std::size_t i = 1; i < path.size(); ++i) {
      double best = kInf;
      for (const Edge& e : adj[path[i - 1]])
        if (e.to == path[i]) best = std::min(best, e.cost);
      c += best;
    }
    return c;
  }
};

// Counts the events the loops send.
struct Model {
  const Graph& graph;
  NodeId ends[2];
  bool trace = true;
  mutable std::uint64_t expand_events = 0, push_events = 0;

  bool tracing() const { return trace; }
  void emit(SearchEventKind kind, int, NodeId, NodeId, double, double) const {
    if (kind == SearchEventKind::Expand) ++expand_events;
    if (kind == SearchEventKind::Push || kind == SearchEventKind::Relax) ++push_events;
  }
  double heuristic(int side, NodeId n) const { return graph.dist(int(n), int(ends[1 - side])); }
  double heuristic(NodeId n) const { return heuristic(0, n); }
  NodeId parent(int side, NodeId, const Node& s) const { return s.parent[side]; }
  NodeId parent(NodeId n, const Node& s) const { return parent(0, n, s); }
  double key(double f) const { return f; }
  bool meeting_is_final(double mu, double f0, double f1) const { return mu <= std::max(f0, f1); }

  template <class Relax>
  void successors(int side, NodeId u, const Node&, Relax&& relax) const {
    for (const Edge& e : graph.adj[u]) {
      relax(
          e.to, [side, u](Node& s) { s.parent[side] = u; }, [&] { return e.cost; },
          [&](const Node&) { return heuristic(side, e.to); });
    }
  }
  template <class Relax>
  void successors(NodeId u, const Node&, Relax&& relax) const {
    for (const Edge& e : graph.adj[u]) {
      relax(
          e.to, [u](Node& s) { s.parent[0] = u; }, [&] { return e.cost; },
          [&] { return heuristic(0, e.to); });
    }
  }
};

std::vector<NodeId> chain(const PagedNodeState<Node>& state, NodeId from) {
  std::vector<NodeId> nodes;
  for (NodeId n = from; n != kNoNode; n = state.at(n).parent[0]) nodes.push_back(n);
  std::reverse(nodes.begin(), nodes.end());
  return nodes;
}

// The loop's other variant: h kept per node and a node improved on f, the target pushed
// and expanded, the open list ordered by open_id (the reverse of the node ids). Records
// the nodes expanded, in order, and their g. `unit`: every edge costs 1 and h is 0, so
// ties are everywhere and open_id alone orders them.
struct FNode {
  double g[1];
  double h;
  NodeId parent;
  std::uint32_t generation;
  std::uint8_t closed;
  static FNode fresh(std::uint32_t generation) { return FNode{{kInf}, 0, kNoNode, generation, 0}; }
};

struct FModel {
  static constexpr bool kImprovesOnF = true;
  static constexpr bool kExpandsTarget = true;
  const Graph& graph;
  NodeId target;
  bool unit = false;
  mutable std::vector<NodeId> expanded;
  mutable std::vector<double> expanded_g;

  bool tracing() const { return true; }
  void emit(SearchEventKind kind, int, NodeId n, NodeId, double g, double) const {
    if (kind != SearchEventKind::Expand) return;
    expanded.push_back(n);
    expanded_g.push_back(g);
  }
  double heuristic(NodeId n) const { return unit ? 0.0 : graph.dist(int(n), int(target)); }
  NodeId parent(NodeId, const FNode& s) const { return s.parent; }
  double key(double f) const { return f; }
  NodeId open_id(NodeId n) const { return NodeId(graph.at.size() - 1 - n); }

  template <class Relax>
  void successors(NodeId u, const FNode&, Relax&& relax) const {
    for (const Edge& e : graph.adj[u]) {
      relax(
          e.to, [u](FNode& s) { s.parent = u; }, [&] { return unit ? 1.0 : e.cost; },
          [&] { return heuristic(e.to); });
    }
  }
};

}  // namespace search_loops_test

using namespace search_loops_test;

TEST_SUITE("search") {
  TEST_CASE("the best-first and bidirectional loops find the brute-force optimum on random graphs") {
    int queries = 0;
    for (unsigned seed = 1; seed <= 20; ++seed) {
      const Graph graph(seed, 80);
      PagedNodeState<Node> state(graph.at.size());
      BestFirstSearch<Node> best_first;
      BidirectionalSearch<Node> bidirectional;
      std::mt19937 rng(seed * 7919u);
      for (int q = 0; q < 10; ++q) {
        const NodeId s = NodeId(rng() % graph.at.size()), t = NodeId(rng() % graph.at.size());
        const double optimum = graph.shortest(s, t);
        CAPTURE(seed);
        CAPTURE(q);
        Model model{graph, {s, t}};
        // One side, one expansion per step.
        state.next_search();
        SearchStats stats;
        best_first.start(model, state, s, t, stats);
        SearchStatus status = SearchStatus::Running;
        std::uint64_t steps = 0;
        while (status == SearchStatus::Running) {
          status = best_first.step(model, state, stats, 1);
          ++steps;
        }
        CHECK(model.expand_events == stats.expansions);
        if (optimum == kInf) {
          CHECK(status == SearchStatus::NoPath);
        } else {
          REQUIRE(status == SearchStatus::Found);
          CHECK(best_first.target_cost() == doctest::Approx(optimum).epsilon(1e-12));
          const std::vector<NodeId> path = chain(state, t);
          CHECK(path.front() == s);
          CHECK(graph.path_cost(path) == doctest::Approx(optimum).epsilon(1e-12));
        }
        // The same query at once expands the same nodes.
        const std::uint64_t one_by_one = stats.expansions;
        state.next_search();
        SearchStats at_once;
        best_first.start(model, state, s, t, at_once);
        CHECK(best_first.step(model, state, at_once, 1u << 30) == status);
        CHECK(at_once.expansions == one_by_one);
        CHECK(steps >= one_by_one);

        // Two sides.
        state.next_search();
        SearchStats two;
        const NodeId ends[2] = {s, t};
        model.expand_events = 0;
        bidirectional.start(model, state, ends, two);
        const SearchStatus both = bidirectional.step(model, state, two, 1u << 30);
        CHECK(model.expand_events == two.expansions);
        CHECK(bidirectional.side_expansions(0) + bidirectional.side_expansions(1) == two.expansions);
        CHECK(bidirectional.closed_nodes() <= two.expansions);
        if (optimum == kInf) {
          CHECK(both == SearchStatus::NoPath);
        } else {
          REQUIRE(both == SearchStatus::Found);
          const std::vector<NodeId> path = bidirectional.path(model, state);
          CHECK(path.front() == s);
          CHECK(path.back() == t);
          CHECK(bidirectional.best_cost() == doctest::Approx(optimum).epsilon(1e-12));
          CHECK(graph.path_cost(path) == doctest::Approx(optimum).epsilon(1e-12));
          ++queries;
        }
      }
    }
    CHECK(queries > 100);  // the graphs are mostly connected
  }

  TEST_CASE(
      "the best-first loop improving on f and expanding its target finds the optimum, ties by open_id") {
    int queries = 0;
    for (unsigned seed = 1; seed <= 10; ++seed) {
      const Graph graph(seed, 60);
      PagedNodeState<FNode> state(graph.at.size());
      BestFirstSearch<FNode, TaggedOpenList> search;
      std::mt19937 rng(seed * 104729u);
      for (int q = 0; q < 10; ++q) {
        const NodeId s = NodeId(rng() % graph.at.size()), t = NodeId(rng() % graph.at.size());
        CAPTURE(seed);
        CAPTURE(q);
        for (const bool unit : {false, true}) {
          CAPTURE(unit);
          FModel model{graph, t, unit, {}, {}};
          state.next_search();
          SearchStats stats;
          search.start(model, state, s, t, stats);
          const SearchStatus status = search.step(model, state, stats, 1u << 30);
          CHECK(model.expanded.size() == stats.expansions);
          if (unit) {
            // Dijkstra on unit costs: g never decreases, and at equal g the larger node id
            // (the smaller open_id) comes first.
            for (std::size_t i = 1; i < model.expanded.size(); ++i) {
              CHECK(model.expanded_g[i - 1] <= model.expanded_g[i]);
              if (model.expanded_g[i - 1] == model.expanded_g[i])
                CHECK(model.expanded[i - 1] > model.expanded[i]);
            }
          }
          if (graph.shortest(s, t) == kInf) {
            CHECK(status == SearchStatus::NoPath);
            continue;
          }
          REQUIRE(status == SearchStatus::Found);
          // The target was expanded, last, at its optimal cost.
          REQUIRE(!model.expanded.empty());
          CHECK(model.expanded.back() == t);
          if (!unit) {
            const double optimum = graph.shortest(s, t);
            CHECK(search.target_cost() == doctest::Approx(optimum).epsilon(1e-12));
            std::vector<NodeId> path;
            for (NodeId n = t; n != kNoNode; n = state.at(n).parent) path.push_back(n);
            std::reverse(path.begin(), path.end());
            CHECK(path.front() == s);
            CHECK(graph.path_cost(path) == doctest::Approx(optimum).epsilon(1e-12));
            ++queries;
          }
        }
      }
    }
    CHECK(queries > 50);
  }
}

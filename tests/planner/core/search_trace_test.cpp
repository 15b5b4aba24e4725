// Trace replay: at every step, the replayed open/closed sets, g, h, parents and the
// current node equal the live planner's state after the same number of expansions.

#include <doctest/doctest.h>

#include <map>
#include <random>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

struct LiveNode {
  double g, h;
  NodeId parent;
  bool closed;
};

std::map<std::pair<int, NodeId>, LiveNode> live_state(const Planner& p) {
  std::map<std::pair<int, NodeId>, LiveNode> out;
  p.visit_nodes([&](const NodeView& v) { out[{v.side, v.node}] = LiveNode{v.g, v.h, v.parent, v.closed}; });
  return out;
}

}  // namespace

TEST_SUITE("search_trace") {
  TEST_CASE("replay to any step rebuilds the live planner's sets") {
    std::mt19937_64 rng(1234);
    for (const char* name : {"astar", "bidirectional", "dijkstra", "weighted_astar"}) {
      for (int map = 0; map < 6; ++map) {
        const Scenario s = test::ascii_scenario(test::random_rows(rng, 20, 14, 0.2, true));
        const PlanningWorld world(s);
        const PlannerInfo* info = find_planner(name);
        ParamValues values;
        for (const ParamSpec& p : info->params) values.push_back(p.default_value);
        auto traced = info->create(QueryContext{world, 0, std::nullopt, values});
        auto live = info->create(QueryContext{world, 0, std::nullopt, values});
        SearchTrace trace;
        traced->set_observer(&trace);
        const PathQuery q{test::cell_center(s, int(rng() % 20), int(rng() % 14)),
                          test::cell_center(s, int(rng() % 20), int(rng() % 14))};
        const PathResult full = find_path(*traced, q);
        CAPTURE(name);
        CAPTURE(map);
        CHECK(trace.expansion_count() == full.stats.expansions);

        TraceReplay replay(trace);
        SearchStatus st = live->start(q);
        for (;;) {
          // A step that only proves the path optimal expands nothing: compare at the
          // live planner's expansion count.
          const std::uint64_t k = live->result().stats.expansions;
          replay.seek(k);
          REQUIRE(replay.step() == k);
          const auto expected = live_state(*live);
          const auto nodes = replay.nodes();
          REQUIRE(nodes.size() == expected.size());
          for (const TraceNode& n : nodes) {
            const auto it = expected.find({n.side, n.node});
            REQUIRE(it != expected.end());
            CHECK(n.g == it->second.g);
            CHECK(n.h == it->second.h);
            CHECK(n.parent == it->second.parent);
            CHECK(n.closed() == it->second.closed);
          }
          if (is_finished(st)) break;
          st = live->step(1);
        }
        // The end of the trace holds the final path; the partial path leads to the current node.
        replay.seek(trace.expansion_count());
        if (full.status == SearchStatus::Found) {
          CHECK(replay.path() == full.nodes);
          const auto partial = replay.partial_path();
          REQUIRE(!partial.empty());
          CHECK(partial.back() == replay.current());
        }
      }
    }
  }

  TEST_CASE("seeking backwards equals seeking forwards from scratch") {
    std::mt19937_64 rng(5);
    const Scenario s = test::ascii_scenario(test::random_rows(rng, 30, 20, 0.15, false));
    const PlanningWorld world(s);
    auto p = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    SearchTrace trace;
    p->set_observer(&trace);
    find_path(*p, {test::cell_center(s, 0, 0), test::cell_center(s, 29, 19)});
    REQUIRE(trace.expansion_count() > 10);
    TraceReplay a(trace), b(trace);
    a.seek(trace.expansion_count());
    a.seek(7);
    b.seek(7);
    const auto na = a.nodes(), nb = b.nodes();
    REQUIRE(na.size() == nb.size());
    for (std::size_t i = 0; i < na.size(); ++i) {
      CHECK(na[i].node == nb[i].node);
      CHECK(na[i].g == nb[i].g);
      CHECK(na[i].closed_at == nb[i].closed_at);
    }
    // Open nodes come out in pop order: f ascending.
    const auto open = a.open_nodes();
    for (std::size_t i = 1; i < open.size(); ++i) CHECK(open[i - 1].f() <= open[i].f());
  }

  TEST_CASE("no observer: the search runs the same") {
    const Scenario s = test::ascii_scenario({"..........", "...####...", ".........."});
    const PlanningWorld world(s);
    auto a = find_planner("bidirectional")->create(QueryContext{world, 0, std::nullopt, {}});
    auto b = find_planner("bidirectional")->create(QueryContext{world, 0, std::nullopt, {}});
    SearchTrace trace;
    b->set_observer(&trace);
    const PathQuery q{test::cell_center(s, 0, 1), test::cell_center(s, 9, 1)};
    const PathResult ra = find_path(*a, q);
    const PathResult& rb = find_path(*b, q);
    CHECK(ra.nodes == rb.nodes);
    CHECK(ra.stats.expansions == rb.stats.expansions);
    CHECK(!trace.events().empty());
  }

  TEST_CASE("random seeks back and forth equal a fresh replay at every target") {
    std::mt19937_64 rng(77);
    for (const char* name : {"astar", "bidirectional"}) {
      const Scenario s = test::ascii_scenario(test::random_rows(rng, 40, 30, 0.2, true));
      const PlanningWorld world(s);
      auto p = find_planner(name)->create(QueryContext{world, 0, std::nullopt, {}});
      SearchTrace trace;
      p->set_observer(&trace);
      find_path(*p, {test::cell_center(s, 0, 0), test::cell_center(s, 39, 29)});
      const std::uint64_t total = trace.expansion_count();
      TraceReplay moving(trace);
      for (int i = 0; i < 300; ++i) {
        // Mostly small steps either way, sometimes long jumps, sometimes the ends.
        const std::uint64_t cur = moving.step();
        std::uint64_t target;
        switch (rng() % 4) {
          case 0: target = cur > 0 ? cur - 1 - rng() % std::min<std::uint64_t>(cur, 5) : 0; break;
          case 1: target = cur + rng() % 5; break;
          case 2: target = total == 0 ? 0 : rng() % (total + 1); break;
          default: target = rng() % 2 ? 0 : total; break;
        }
        moving.seek(target);
        TraceReplay fresh(trace);
        fresh.seek(target);
        CAPTURE(std::string(name));
        CAPTURE(target);
        REQUIRE(moving.step() == fresh.step());
        CHECK(moving.current() == fresh.current());
        CHECK(moving.path() == fresh.path());
        CHECK(moving.partial_path() == fresh.partial_path());
        const auto a = moving.nodes(), b = fresh.nodes();
        REQUIRE(a.size() == b.size());
        for (std::size_t k = 0; k < a.size(); ++k) {
          CHECK(a[k].node == b[k].node);
          CHECK(a[k].g == b[k].g);
          CHECK(a[k].h == b[k].h);
          CHECK(a[k].parent == b[k].parent);
          CHECK(a[k].opened_at == b[k].opened_at);
          CHECK(a[k].closed_at == b[k].closed_at);
        }
      }
    }
  }

}  // TEST_SUITE

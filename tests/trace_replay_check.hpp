#pragma once

// The check the family tests share between a search trace and the live search it
// recorded: stepped one expansion at a time, the live planner shows the nodes the
// trace's replay shows at the same moment, with the same g, h, parent and closed flag.

#include <doctest/doctest.h>

#include <map>

#include "planner/core/search.hpp"
#include "planner/core/search_trace.hpp"

namespace pathscope::test {

/// Starts `live` on `query` and steps it one expansion at a time until it finishes.
/// Before each step, a replay of `trace` (recorded by a one-shot run of the same query
/// on the same world) is sought to `position()`, the trace step the live run has reached
/// (its expansions, or the step count of an observer of its own), and must hold exactly
/// the nodes `live.visit_nodes` shows, each with the same g, h, parent and closed flag.
/// Returns the live run's final status.
template <class Position>
SearchStatus check_replay_follows_live(Planner& live, const SearchTrace& trace, const PathQuery& query,
                                       Position position) {
  TraceReplay replay(trace);
  SearchStatus status = live.start(query);
  for (;;) {
    replay.seek(position());
    std::map<NodeId, NodeView> expected;
    live.visit_nodes([&](const NodeView& v) { expected[v.node] = v; });
    const auto nodes = replay.nodes();
    REQUIRE(nodes.size() == expected.size());
    for (const TraceNode& n : nodes) {
      const NodeView& e = expected.at(n.node);
      CHECK(n.g == e.g);
      CHECK(n.h == e.h);
      CHECK(n.parent == e.parent);
      CHECK(n.closed() == e.closed);
    }
    if (is_finished(status)) return status;
    status = live.step(1);
  }
}

}  // namespace pathscope::test

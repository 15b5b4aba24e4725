#pragma once

// Paths for units, through the planner registry (seed 002, Listing 1: "Find a path and
// save it"). Requests wait in a first-in first-out queue and at most a budget of them is
// answered per step, so a thousand units ordered at once never stall one step; a unit
// waits in WaitingForPath until its answer comes. Each movement class plans with its own
// registered planner (MovementClass::planner, with its default parameters).

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/sim/sim_types.hpp"

namespace pathscope {
class PlanningWorld;
}

namespace pathscope::sim {

/// One request: a path for a unit from its position to its order point.
struct PathRequest {
  UnitId unit;
  std::size_t movement_class = 0;
  Vec2 start{0, 0};
  Vec2 goal{0, 0};
};

/// An answered request.
struct PathAnswer {
  UnitId unit;
  SearchStatus status = SearchStatus::Idle;  ///< Found, NoPath or Invalid.
  std::vector<Vec2> points;                  ///< The path (Found).
  std::string message;                       ///< Why not, otherwise.
};

class PathService {
 public:
  explicit PathService(const PlanningWorld& world);
  ~PathService();

  /// Queues a request (a unit's earlier request still queued is replaced). O(1).
  void request(const PathRequest& request);
  /// Drops a unit's queued request, if any. O(1).
  void cancel(UnitId unit);
  /// Answers at most `budget` requests, oldest first.
  std::vector<PathAnswer> answer(int budget);
  /// Requests waiting.
  std::size_t pending() const { return pending_; }
  /// The requests waiting, oldest first (a saved game holds them).
  std::vector<PathRequest> queued() const;
  /// Drops every request (before a saved game's are queued again).
  void clear();
  /// The world changed: planners built on it are made again (after a rebuild) or
  /// restarted (they read the world at each start).
  void world_changed(bool rebuilt);

 private:
  Planner* planner_for(std::size_t movement_class);

  // A queued request counts only while its ticket is its slot's latest: replacing or
  // cancelling one takes a new ticket, and the stale entry is skipped when it comes up.
  struct Queued {
    PathRequest request;
    std::uint32_t ticket = 0;
  };
  const PlanningWorld& world_;
  std::deque<Queued> queue_;
  std::vector<std::uint32_t> ticket_;  // per unit slot: its latest ticket
  std::vector<std::uint8_t> queued_;   // per unit slot: a live request is queued
  std::size_t pending_ = 0;
  std::vector<std::unique_ptr<Planner>> planners_;  // per movement class, made on first use
};

}  // namespace pathscope::sim

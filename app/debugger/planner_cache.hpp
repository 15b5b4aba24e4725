#pragma once

// The debugger's planner objects, kept per (planner, movement class, role) while the
// world stays the same, so that their search memory is allocated once (a planner answers
// many queries, planner/core/search.hpp). They borrow the world: its owner (WorldSync)
// clears the cache before the world is rebuilt or replaced.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {

/// Whom a cached planner serves. The active query's traced search has planners of its
/// own, so that planning the other queries never disturbs the nodes the replay shows.
enum class PlannerRole { Active, Batch };

/// Planner objects per (registry name, movement class, role).
class PlannerCache {
 public:
  PlannerCache() = default;
  PlannerCache(const PlannerCache&) = delete;
  PlannerCache& operator=(const PlannerCache&) = delete;

  /// The cached planner for (info, movement_class, faction, role), made for `world` on
  /// first use; with a faction, it plans with that faction's knowledge (fog of war).
  /// When it is cached with other parameters: made again if `may_replace`, else nullptr.
  /// The pointer stays valid until that entry is made again or clear() (not owned).
  Planner* get(const PlanningWorld& world, const PlannerInfo& info, std::size_t movement_class,
               const ParamValues& params, PlannerRole role, bool may_replace,
               std::optional<std::size_t> faction = std::nullopt);
  /// A planner outside the cache (counted by created()); `world` must outlive it.
  std::unique_ptr<Planner> make(const PlanningWorld& world, const PlannerInfo& info,
                                std::size_t movement_class, const ParamValues& params,
                                std::optional<std::size_t> faction = std::nullopt);
  /// Destroys every cached planner (before the world they borrow changes).
  void clear() { entries_.clear(); }
  /// Planner objects made so far, cached or not (clear() keeps the count).
  std::uint64_t created() const { return created_; }

 private:
  struct Entry {
    std::string name;
    std::size_t movement_class = 0;
    std::optional<std::size_t> faction;
    ParamValues params;
    PlannerRole role = PlannerRole::Batch;
    std::unique_ptr<Planner> planner;
  };
  std::vector<Entry> entries_;
  std::uint64_t created_ = 0;
};

}  // namespace pathscope::app

#pragma once

// Value types of the unit simulation (seed 002): unit ids, movement states, predicted
// positions, collisions, and the figures a run reports. World coordinates in metres,
// times in seconds of simulated time.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::sim {

/// A stable unit id: a slot index and the generation of the unit in it, so an id of a
/// removed unit never names the unit that takes its slot.
struct UnitId {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;
  friend bool operator==(const UnitId&, const UnitId&) = default;
};

/// Seed 002's movement states (Listing 1), plus Idle for a unit with nothing to do.
enum class MoveState : std::uint8_t {
  Idle,               ///< No order, or a stop order: stands, may be pushed aside.
  WaitingForPath,     ///< A path to the current order point is requested.
  Moving,             ///< Following its path towards its current waypoint.
  IncrementWaypoint,  ///< Passed a waypoint; takes the next at its next update.
  ReachedGoal,        ///< Its order is done: at its goal, or off it (SimUnit::Goal::arrived, taken).
  Failed,             ///< No path to the order point: stands.
  InPlatoon,  ///< Drives to its slot of a platoon under way; the platoon moves it (platoon_drive.hpp).
};

/// snake_case name ("waiting_for_path", ...).
const char* to_string(MoveState state);

/// A predicted position: where the unit will be at `time` (seconds of simulated time).
struct PredictedPoint {
  Vec2 position{0, 0};
  double heading = 0;
  double speed = 0;  ///< Metres per second.
  double time = 0;
  std::uint32_t waypoint = 0;  ///< The path point it then heads for (path.size(): done).
};

/// A unit's predicted positions (seed 002, "Predicted Positions"), a rolling list: [0] is
/// the next step's. Taking the first (pop_front, once a step) moves an offset instead of
/// the rest of the list; the storage is compacted only when a push would grow it, and then
/// kept at least half free.
class PredictedList {
 public:
  PredictedList() = default;
  PredictedList(std::initializer_list<PredictedPoint> points) : points_(points) {}
  std::size_t size() const { return points_.size() - first_; }
  bool empty() const { return first_ == points_.size(); }
  PredictedPoint& operator[](std::size_t k) { return points_[first_ + k]; }
  const PredictedPoint& operator[](std::size_t k) const { return points_[first_ + k]; }
  const PredictedPoint& back() const { return points_.back(); }
  PredictedPoint* begin() { return points_.data() + first_; }
  PredictedPoint* end() { return points_.data() + points_.size(); }
  const PredictedPoint* begin() const { return points_.data() + first_; }
  const PredictedPoint* end() const { return points_.data() + points_.size(); }
  void clear() {
    points_.clear();
    first_ = 0;
  }
  /// n points (new ones default), the first ones kept.
  void resize(std::size_t n) {
    compact();
    points_.resize(n);
  }
  void push_back(const PredictedPoint& p) {
    if (first_ > 0 && points_.size() == points_.capacity()) {
      compact();
      // Room for as many pops again before the next compaction.
      if (2 * points_.size() > points_.capacity()) points_.reserve(2 * points_.capacity());
    }
    points_.push_back(p);
  }
  /// Drops the first point (the list must not be empty).
  void pop_front() {
    if (++first_ >= points_.size()) clear();
  }

 private:
  void compact() {
    points_.erase(points_.begin(), points_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
  std::vector<PredictedPoint> points_;
  std::size_t first_ = 0;  // points_[first_] is [0]
};

/// How far a collision between two units has got (seed 002).
enum class CollisionState : std::uint8_t { Unresolved, Resolving, Resolved };

/// Which of seed 002's resolution rules a collision was handled by.
enum class CooperationRule : std::uint8_t {
  None,
  BothStill,      ///< Case 1: the higher priority tells the lower to make the shortest move.
  WeAreStill,     ///< Case 2: nothing.
  MoveAside,      ///< Case 3.1: get-to point; the stopped unit moves aside, then returns.
  Avoid,          ///< Case 3.2: we go round the stopped unit.
  Push,           ///< Case 3.3: we push the lower priority unit along our path.
  Repath,         ///< Case 3.4: stop and re-path.
  LowerPriority,  ///< Case 4.1: the other one decides.
  Pause,          ///< Case 4.2: the lower priority pauses (then case 3).
  SlowDown,       ///< Case 4.3: the lower priority slows down until we pass our get-to point.
  SwapSlots,      ///< Ours, before 3.1: formation-mates swap slots; the settled one walks on to ours.
};

/// snake_case name ("move_aside", ...).
const char* to_string(CollisionState state);
const char* to_string(CooperationRule rule);

/// A collision between two units, as the detector found it and cooperation handled it.
/// `a` is the unit that decides (the higher priority one, or the mover).
struct Collision {
  UnitId a;
  UnitId b;
  bool hard = false;       ///< Hard shapes (true) or only soft radii (false).
  bool immediate = false;  ///< Overlapping now (true) or predicted to (false).
  double time = 0;         ///< When it happens (seconds of simulated time).
  Vec2 point{0, 0};        ///< Where: the midpoint of the two units then.
  CollisionState state = CollisionState::Unresolved;
  CooperationRule rule = CooperationRule::None;
  Vec2 get_to{0, 0};  ///< The decider's get-to point (rules MoveAside, SlowDown).
};

/// Figures of a run so far (seed 002's quality measures, and ours).
struct SimCounters {
  std::uint64_t steps = 0;
  std::uint64_t repaths = 0;           ///< Paths requested again (static collisions, rule Repath).
  std::uint64_t path_requests = 0;     ///< Every path request.
  std::uint64_t collisions_found = 0;  ///< Unit-unit collisions detected (pair-steps).
};

}  // namespace pathscope::sim

#pragma once

// One platoon at a time on a bridge (seed 004, "Bridges": "only one platoon at a time can
// be on them, since there is no room to pass. If a platoon is on a bridge, the bridge is
// marked with that platoon ID and other platoons must wait before crossing").
//
// A small ledger the movement simulation asks before a group drives onto a bridge and
// tells when it has left. It knows bridges and groups by id only (a bridge's
// Bridge::id, a group's id chosen by the caller, e.g. a platoon's), holds no pointers
// into a scenario, and answers the same way for the same calls in the same order: no
// queue, no clock, no fairness rule beyond "the holder keeps it until it releases".

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace pathscope {

/// What reserve() answers.
struct BridgeReservation {
  /// True when the calling group holds the bridge now (newly, or already).
  bool granted = false;
  /// The group holding the bridge (the caller when granted, another group when not).
  std::uint32_t holder = 0;
};

/// Which group holds which bridge; at most one group per bridge.
class BridgeReservations {
 public:
  /// Reserves `bridge` for `group`: granted when the bridge is free or already held by
  /// `group` (idempotent); otherwise not granted, with the group holding it. A group may
  /// hold several bridges.
  BridgeReservation reserve(std::uint32_t bridge, std::uint32_t group);
  /// Frees `bridge` if `group` holds it; false (and nothing changes) otherwise.
  bool release(std::uint32_t bridge, std::uint32_t group);
  /// Frees every bridge `group` holds (a platoon destroyed or re-tasked); how many.
  std::size_t release_all(std::uint32_t group);
  /// Frees `bridge` whoever holds it (the bridge destroyed); true when it was held.
  bool clear(std::uint32_t bridge);
  /// The group holding `bridge`, if any.
  std::optional<std::uint32_t> holder(std::uint32_t bridge) const;
  /// The bridges `group` holds, in increasing id order.
  std::vector<std::uint32_t> held_by(std::uint32_t group) const;
  /// Number of bridges held.
  std::size_t size() const { return holders_.size(); }

 private:
  std::map<std::uint32_t, std::uint32_t> holders_;  // bridge id -> group id (ordered: deterministic)
};

}  // namespace pathscope

// Bridge reservations (seed 004, "Bridges": one platoon at a time on a bridge). An ordered
// map from bridge id to group id; every answer depends only on the calls made so far.

#include "planner/world/bridge_reservations.hpp"

namespace pathscope {

BridgeReservation BridgeReservations::reserve(std::uint32_t bridge, std::uint32_t group) {
  const auto [it, inserted] = holders_.emplace(bridge, group);
  return BridgeReservation{inserted || it->second == group, it->second};
}

bool BridgeReservations::release(std::uint32_t bridge, std::uint32_t group) {
  const auto it = holders_.find(bridge);
  if (it == holders_.end() || it->second != group) return false;
  holders_.erase(it);
  return true;
}

std::size_t BridgeReservations::release_all(std::uint32_t group) {
  return std::erase_if(holders_, [group](const auto& entry) { return entry.second == group; });
}

bool BridgeReservations::clear(std::uint32_t bridge) { return holders_.erase(bridge) > 0; }

std::optional<std::uint32_t> BridgeReservations::holder(std::uint32_t bridge) const {
  const auto it = holders_.find(bridge);
  if (it == holders_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::uint32_t> BridgeReservations::held_by(std::uint32_t group) const {
  std::vector<std::uint32_t> out;
  for (const auto& [bridge, g] : holders_) {
    if (g == group) out.push_back(bridge);
  }
  return out;
}

}  // namespace pathscope

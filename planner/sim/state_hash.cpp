// The state hash: every field of a live unit that a recording's frame keeps (the fields
// sim_fields.hpp marks kFramed, in its order), its path through a digest, and the step.
// A field added to the frame is hashed with no edit here. Recordings store it per step,
// and a run taken up again (a saved game, a snapshot) must reproduce it bit for bit.
//
// The golden hash (tests/cli_tests.cmake, `simulate_golden_hash`: 300 steps of
// maps/sim_bridge.json) changes whenever the step's behaviour or this list changes. After
// a change meant to alter behaviour, run `pathscope simulate maps/sim_bridge.json --steps
// 300 --json`, put its state_hash in the three CLI tests that pin it and in
// docs/benchmarks/sim.md, and say why in the commit.

#include <bit>
#include <tuple>
#include <type_traits>

#include "planner/sim/sim_fields.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

namespace {

// One 64-bit word into a hash: a multiply carries each bit of the word up, a shift brings
// the high bits back down, so every bit of the word reaches every bit of the hash.
void mix(std::uint64_t& h, std::uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ull;
  h ^= h >> 29;
}
void mix(std::uint64_t& h, double v) { mix(h, std::bit_cast<std::uint64_t>(v)); }

// The types a framed field may have.
template <class T>
constexpr bool kMixable = std::is_same_v<T, double> || std::is_same_v<T, Vec2> || std::is_same_v<T, UnitId> ||
                          std::is_enum_v<T> || std::is_integral_v<T>;

// One framed field's value into a hash, by its type.
template <class T>
void mix_value(std::uint64_t& h, const T& v) {
  if constexpr (std::is_same_v<T, double>) {
    mix(h, v);
  } else if constexpr (std::is_same_v<T, Vec2>) {
    mix(h, v.x);
    mix(h, v.y);
  } else if constexpr (std::is_same_v<T, UnitId>) {
    mix(h, std::uint64_t{v.index} << 32 | v.generation);
  } else if constexpr (kMixable<T>) {  // enums, whole numbers, flags
    mix(h, static_cast<std::uint64_t>(v));
  }
}

template <class F>
struct FieldValue;
template <class Part, class T>
struct FieldValue<fields::Field<Part, T>> {
  using type = T;
};
template <class List>
constexpr bool framed_mixable(const List& list) {
  return std::apply(
      [](const auto&... f) {
        return ((!(f.use & fields::kFramed) ||
                 kMixable<typename FieldValue<std::remove_cvref_t<decltype(f)>>::type>)&&...);
      },
      list);
}
// Every field a frame keeps can be hashed: one of another type needs its case above.
static_assert(framed_mixable(fields::kIdentity) &&
              std::apply([](const auto&... part) { return (framed_mixable(part.fields) && ...); },
                         fields::kParts));

}  // namespace

std::uint64_t path_digest(std::span<const Vec2> path) {
  std::uint64_t h = 0x6a09e667f3bcc909ull;
  mix(h, std::uint64_t{path.size()});
  for (const Vec2& p : path) {
    mix(h, p.x);
    mix(h, p.y);
  }
  return h;
}

std::uint64_t state_hash(std::uint64_t steps, std::span<const SimUnit> units,
                         std::span<const std::uint64_t> path_digests) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  mix(h, steps);
  for (const SimUnit& u : units) {
    if (!u.alive) continue;
    fields::each_unit_field([&](const char*, auto part_of, const auto& field) {
      if (field.use & fields::kFramed) mix_value(h, part_of(u).*field.member);
    });
    mix(h, u.id.index < path_digests.size() ? path_digests[u.id.index] : path_digest(u.route.path));
  }
  return h;
}

std::uint64_t state_hash(std::uint64_t steps, std::span<const SimUnit> units) {
  return state_hash(steps, units, {});
}

std::uint64_t state_hash_v1(std::uint64_t steps, std::span<const SimUnit> units,
                            std::span<const std::uint64_t> path_digests) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  mix(h, steps);
  for (const SimUnit& u : units) {
    if (!u.alive) continue;
    mix(h, std::uint64_t{u.id.index} << 32 | u.id.generation);
    mix(h, u.body.position.x);
    mix(h, u.body.position.y);
    mix(h, u.body.heading);
    mix(h, u.body.speed);
    mix(h, std::uint64_t{static_cast<std::uint8_t>(u.route.state)} << 8 |
               static_cast<std::uint8_t>(u.coop.yield));
    mix(h, std::uint64_t{u.route.order_point});
    mix(h, std::uint64_t{u.route.waypoint});
    mix(h, u.id.index < path_digests.size() ? path_digests[u.id.index] : path_digest(u.route.path));
  }
  return h;
}

}  // namespace pathscope::sim

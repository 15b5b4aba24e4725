// The field lists' walks that are not the saved game's (sim_fields.hpp).

#include "planner/sim/sim_fields.hpp"

#include <bit>
#include <cmath>
#include <string>
#include <type_traits>

namespace pathscope::sim::fields {

namespace {

// Equal values; doubles by their bits (a saved game and a replay are exact).
bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
bool same(Vec2 a, Vec2 b) { return same(a.x, b.x) && same(a.y, b.y); }
bool same(UnitId a, UnitId b) { return a.index == b.index && a.generation == b.generation; }
template <class T>
requires std::is_integral_v<T> || std::is_enum_v<T>
bool same(T a, T b) { return a == b; }
bool same(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!same(a[k], b[k])) return false;
  }
  return true;
}
bool same(const Order& a, const Order& b) {
  return a.kind == b.kind && a.patrol == b.patrol && same(a.points, b.points);
}
bool same(const PredictedPoint& a, const PredictedPoint& b) {
  return same(a.position, b.position) && same(a.heading, b.heading) && same(a.speed, b.speed) &&
         same(a.time, b.time) && a.waypoint == b.waypoint;
}
bool same(const PredictedList& a, const PredictedList& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!same(a[k], b[k])) return false;
  }
  return true;
}

// The first part of a value no simulation makes (a number that is not finite): "" when
// none, "[1]" for a list's second point.
std::string not_finite(double v) { return std::isfinite(v) ? "" : "."; }
std::string not_finite(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y) ? "" : "."; }
std::string not_finite(const std::vector<Vec2>& ps) {
  for (std::size_t k = 0; k < ps.size(); ++k) {
    if (!not_finite(ps[k]).empty()) return "[" + std::to_string(k) + "]";
  }
  return "";
}
std::string not_finite(const UnitPath& ps) { return not_finite(ps.points()); }
template <class T>
std::string not_finite(const T&) {
  return "";
}

}  // namespace

std::string first_difference(const SimUnit& a, const SimUnit& b, std::uint8_t use) {
  std::string out;
  each_unit_field([&](const char* part, auto part_of, const auto& f) {
    if (!out.empty() || (use != kSaved && !(f.use & use))) return;
    if (!same(part_of(a).*f.member, part_of(b).*f.member))
      out = *part ? std::string(part) + "." + f.name : f.name;
  });
  return out;
}

void copy_framed(const SimUnit& from, SimUnit& to) {
  each_unit_field([&](const char*, auto part_of, const auto& f) {
    if (f.use & kFramed) part_of(to).*f.member = part_of(from).*f.member;
  });
}

std::string first_not_finite(const SimUnit& u) {
  std::string out;
  each_unit_field([&](const char* part, auto part_of, const auto& f) {
    if (!out.empty() || !(f.use & kFramed)) return;
    if (const std::string at = not_finite(part_of(u).*f.member); !at.empty())
      out = (*part ? std::string(part) + "." + f.name : std::string(f.name)) + (at == "." ? "" : at);
  });
  if (out.empty()) {
    if (const std::string at = not_finite(u.route.path); !at.empty()) out = "route.path" + at;
  }
  return out;
}

}  // namespace pathscope::sim::fields

#pragma once

// Small colour helpers shared by the painters.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "planner/scenario/scenario.hpp"

namespace pathscope::render {

/// Linear blend of a and b; t is clamped to [0, 1] (NaN counts as 0).
inline Color mix(Color a, Color b, double t) {
  t = t > 0 ? std::min(t, 1.0) : 0.0;
  auto ch = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(x + (double(y) - double(x)) * t));
  };
  return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b), ch(a.a, b.a)};
}

/// The same colour with another alpha.
inline Color with_alpha(Color c, std::uint8_t alpha) {
  c.a = alpha;
  return c;
}

/// A well-spread colour for a small integer label (regions, factions without colour).
inline Color label_color(std::uint32_t label, std::uint8_t alpha = 255) {
  // Golden-ratio hue steps keep neighbouring labels apart.
  const double hue = std::fmod(label * 0.618033988749895, 1.0) * 6.0;
  const double f = hue - std::floor(hue);
  const int sector = static_cast<int>(hue);
  const double v = 0.9, s = 0.65;
  const double p = v * (1 - s), q = v * (1 - s * f), u = v * (1 - s * (1 - f));
  // HSV to RGB: which of (v, p, q, u) each channel takes in each hue sector.
  const double vals[4] = {v, p, q, u};
  static constexpr int kPick[6][3] = {{0, 3, 1}, {2, 0, 1}, {1, 0, 3}, {1, 2, 0}, {3, 1, 0}, {0, 1, 2}};
  const int* pick = kPick[sector < 6 ? sector : 5];
  const double r = vals[pick[0]], g = vals[pick[1]], b = vals[pick[2]];
  auto to8 = [](double x) { return static_cast<std::uint8_t>(std::lround(x * 255)); };
  return {to8(r), to8(g), to8(b), alpha};
}

}  // namespace pathscope::render

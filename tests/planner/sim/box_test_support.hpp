#pragma once

// The tests' own segment-box test (slab clipping), for worlds of axis-aligned boxes that
// a component sees only through a callback: it shares nothing with the library's checks.

#include <algorithm>
#include <utility>

#include "planner/core/types.hpp"

namespace pathscope::sim::test_support {

/// True when the segment a-b meets `box`: its interior only (`closed` false: touching the
/// boundary does not count) or its boundary too (`closed` true).
inline bool segment_meets_box(Vec2 a, Vec2 b, const Box2& box, bool closed) {
  double t0 = 0;
  double t1 = 1;
  const Vec2 d = b - a;
  for (int axis = 0; axis < 2; ++axis) {
    const double lo = axis == 0 ? box.lo.x : box.lo.y;
    const double hi = axis == 0 ? box.hi.x : box.hi.y;
    const double p = axis == 0 ? a.x : a.y;
    const double v = axis == 0 ? d.x : d.y;
    if (v == 0) {
      if (closed ? (p < lo || p > hi) : (p <= lo || p >= hi)) return false;
      continue;
    }
    double ta = (lo - p) / v;
    double tb = (hi - p) / v;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (closed ? t0 > t1 : t0 >= t1) return false;
  }
  return true;
}

}  // namespace pathscope::sim::test_support

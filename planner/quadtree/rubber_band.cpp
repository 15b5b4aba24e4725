// Rubber-banding (seed 000, "Rubber Banding, Step 1" and "Rubber Banding, Step 2").
//
// Step 1. The seed builds a secondary A* graph of the start, the goal and both corners
// of every shared edge along the cell path, each node linked only to the nodes of the
// next edge. The graph is layered and links only go forwards, so the search settles it
// layer by layer: each node's best cost is final once the previous layer is, and the
// whole search is linear in the path's length (what the seed's A* does on this graph,
// without a heap). Edge costs are lengths times the multiplier of the cell the edge
// crosses. One more node per portal is added: where the cell-centre path crossed it, so
// that step 1 is never worse than the path it refines (with corners only, a straight
// run through large cells can come out longer than the centre path).
//
// Step 2. Walking the portals from the start, the visibility region from the last
// visible point (LVP) is the wedge between the rays to the portal ends seen so far; each
// portal can only narrow it. When a portal's end lies outside the wedge on the other
// side, the wedge's ray on that side is blocked by its corner: that corner becomes the
// new LVP and the walk resumes from the portal after it. The seed takes the path point
// before the point that left the region; taking the wedge's corner instead gives the
// same point whenever step 1 went round that corner, and the shortest path inside the
// corridor always (the "funnel" form of the same walk). Every segment then lies inside
// the corridor: it runs inside the wedge, which lies inside the portals it crossed.
// Degenerate wedges (a ray along a portal, the LVP at a portal's end) are decided with
// exact comparisons: corridor corners are multiples of the cell size.

#include "planner/quadtree/rubber_band.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace pathscope {
namespace {

double distance(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return std::sqrt(d.x * d.x + d.y * d.y);
}

// Twice the signed area of (a, b, c).
double tri(Vec2 a, Vec2 b, Vec2 c) {
  const Vec2 u = b - a, v = c - a;
  return u.x * v.y - u.y * v.x;
}

// Where the segment p -> q meets the line of portal k (p before it, q after it).
Vec2 cross_portal(const Corridor& c, std::size_t k, Vec2 p, Vec2 q) {
  const Vec2 a = c.portals[k][0], b = c.portals[k][1];
  double t = 0;
  if (a.x == b.x) {
    if (q.x != p.x) t = (a.x - p.x) / (q.x - p.x);
  } else {
    if (q.y != p.y) t = (a.y - p.y) / (q.y - p.y);
  }
  t = std::clamp(t, 0.0, 1.0);
  Vec2 r = p + (q - p) * t;
  // Exactly on the portal's line, whatever the rounding.
  if (a.x == b.x)
    r.x = a.x;
  else
    r.y = a.y;
  return r;
}

// Calls piece(cell, from, to) for every stretch of `path` inside one cell, and
// crossed(portal, point) where it crosses each portal.
template <class Piece, class Crossed>
void walk(const Corridor& c, const CorridorPath& path, Piece&& piece, Crossed&& crossed) {
  for (std::size_t i = 1; i < path.points.size(); ++i) {
    const int sa = path.slots[i - 1], sb = path.slots[i];
    assert(sa <= sb);
    Vec2 cur = path.points[i - 1];
    const Vec2 a = path.points[i - 1], b = path.points[i];
    for (int slot = sa + 1; slot < sb; ++slot) {
      if (slot % 2 == 0) continue;
      const std::size_t k = std::size_t(slot / 2);
      const Vec2 q = cross_portal(c, k, a, b);
      piece(k, cur, q);
      crossed(k, q);
      cur = q;
    }
    const std::size_t last = std::size_t(sb % 2 == 0 ? sb / 2 : (sb - 1) / 2);
    piece(last, cur, b);
  }
}

}  // namespace

CorridorPath centre_path(const Corridor& c) {
  CorridorPath path;
  const int n = int(c.cells.size());
  path.add(c.start, 0);
  // The start's and the goal's cells' centres too: a line from the start straight to
  // the next cell's centre may miss the portal.
  for (int i = 0; i < n; ++i) {
    const Vec2 centre = c.cells[std::size_t(i)].center();
    if (centre != path.points.back()) path.add(centre, 2 * i);
  }
  if (c.goal != path.points.back() || path.points.size() == 1) path.add(c.goal, 2 * (n - 1));
  return path;
}

std::vector<Vec2> portal_crossings(const Corridor& c, const CorridorPath& path) {
  std::vector<Vec2> out(c.portals.size(), Vec2{0, 0});
  // A point of the path sitting on a portal is its crossing too.
  for (std::size_t i = 0; i < path.points.size(); ++i) {
    if (path.slots[i] % 2 == 1) out[std::size_t(path.slots[i] / 2)] = path.points[i];
  }
  walk(
      c, path, [](std::size_t, Vec2, Vec2) {}, [&](std::size_t k, Vec2 q) { out[k] = q; });
  return out;
}

double corridor_cost(const Corridor& c, const CorridorPath& path) {
  double total = 0;
  walk(
      c, path, [&](std::size_t cell, Vec2 a, Vec2 b) { total += distance(a, b) * c.multipliers[cell]; },
      [](std::size_t, Vec2) {});
  return total;
}

CorridorPath portal_path(const Corridor& c, const std::vector<Vec2>& through) {
  const std::size_t m = c.portals.size();
  assert(through.size() == m);
  constexpr std::size_t kPer = 3;  // nodes per portal: its two ends, then `through`
  const auto node = [&](std::size_t k, std::size_t j) { return j == 2 ? through[k] : c.portals[k][j]; };
  std::vector<double> g(m * kPer, std::numeric_limits<double>::infinity());
  std::vector<std::uint8_t> from(m * kPer, 0);  // best node of the previous layer
  for (std::size_t k = 0; k < m; ++k) {
    for (std::size_t j = 0; j < kPer; ++j) {
      const Vec2 p = node(k, j);
      double& best = g[k * kPer + j];
      if (k == 0) {
        best = distance(c.start, p) * c.multipliers[0];
        continue;
      }
      for (std::size_t i = 0; i < kPer; ++i) {
        const double cand = g[(k - 1) * kPer + i] + distance(node(k - 1, i), p) * c.multipliers[k];
        if (cand < best) {
          best = cand;
          from[k * kPer + j] = std::uint8_t(i);
        }
      }
    }
  }
  CorridorPath path;
  path.add(c.start, 0);
  if (m > 0) {
    std::size_t j = 0;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < kPer; ++i) {
      const double cand = g[(m - 1) * kPer + i] + distance(node(m - 1, i), c.goal) * c.multipliers[m];
      if (cand < best) {
        best = cand;
        j = i;
      }
    }
    std::vector<std::size_t> pick(m);
    for (std::size_t k = m; k-- > 0;) {
      pick[k] = j;
      j = from[k * kPer + j];
    }
    for (std::size_t k = 0; k < m; ++k) path.add(node(k, pick[k]), int(2 * k + 1));
  }
  path.add(c.goal, int(2 * m));
  return path;
}

PortalGraph portal_graph(const Corridor& c, const std::vector<Vec2>& through) {
  const std::size_t m = c.portals.size();
  assert(through.size() == m);
  PortalGraph g;
  g.corners.push_back(c.start);
  for (const auto& portal : c.portals) g.corners.insert(g.corners.end(), portal.begin(), portal.end());
  g.corners.push_back(c.goal);
  g.crossings = through;
  // The nodes of layer k: the start, portal k's ends and crossing, the goal.
  const auto layer = [&](std::size_t k) -> std::vector<Vec2> {
    if (k == 0) return {c.start};
    if (k == m + 1) return {c.goal};
    return {c.portals[k - 1][0], c.portals[k - 1][1], through[k - 1]};
  };
  for (std::size_t k = 0; k <= m; ++k) {
    for (const Vec2 a : layer(k)) {
      for (const Vec2 b : layer(k + 1)) {
        g.links.push_back(a);
        g.links.push_back(b);
      }
    }
  }
  return g;
}

CorridorPath pulled_path(const Corridor& c, std::vector<std::vector<Vec2>>* corners,
                         std::vector<PullStep>* steps) {
  const std::size_t m = c.portals.size();
  // Each portal's ends as seen travelling through it: "left" then "right", so that from
  // any point before the portal, tri(point, left, right) >= 0. The goal closes the list.
  std::vector<std::array<Vec2, 2>> ends(m + 1);
  for (std::size_t k = 0; k < m; ++k) {
    const Vec2 dir = c.cells[k + 1].center() - c.cells[k].center();
    const Vec2 a = c.portals[k][0], b = c.portals[k][1];
    const Vec2 mid = (a + b) * 0.5;
    const bool a_left = dir.x * (a - mid).y - dir.y * (a - mid).x < 0;
    ends[k] = a_left ? std::array<Vec2, 2>{a, b} : std::array<Vec2, 2>{b, a};
  }
  ends[m] = {c.goal, c.goal};

  CorridorPath path;
  path.add(c.start, 0);
  Vec2 apex = c.start, left = c.start, right = c.start;
  long apex_i = -1, left_i = -1, right_i = -1;
  const auto slot_of = [&](long i) { return i < 0 ? 0 : int(2 * i + 1); };
  const auto new_corner = [&](Vec2 p, long i) {
    path.add(p, slot_of(i));
    apex = left = right = p;
    apex_i = left_i = right_i = i;
    if (corners && i < long(m)) {
      std::vector<Vec2> shown = path.points;
      shown.push_back(c.goal);
      corners->push_back(std::move(shown));
    }
  };
  // A step for drawing: the region as it stands after portal i, or (corner) as it was
  // when portal i left it, with the path already taken to the new corner.
  const auto record = [&](long i, Vec2 from, Vec2 l, Vec2 r, bool corner) {
    if (!steps) return;
    const auto& tested = ends[std::size_t(i)];
    steps->push_back(PullStep{std::size_t(i), from, l, r, {tested[0], tested[1]}, corner, path.points});
  };
  for (long i = 0; i <= long(m); ++i) {
    const Vec2 l = ends[std::size_t(i)][0], r = ends[std::size_t(i)][1];
    // The right side narrows (or stays) ...
    if (tri(apex, right, r) <= 0) {
      // ... unless it swings past the left side: then the left corner is visible last.
      if (apex == right || apex == left || tri(apex, left, r) > 0) {
        right = r;
        right_i = i;
      } else {
        const Vec2 from = apex, was_left = left, was_right = right;
        new_corner(left, left_i);
        record(i, from, was_left, was_right, apex_i < long(m));  // the goal ends the walk
        i = apex_i;
        continue;
      }
    }
    if (tri(apex, left, l) >= 0) {
      if (apex == left || apex == right || tri(apex, right, l) < 0) {
        left = l;
        left_i = i;
      } else {
        const Vec2 from = apex, was_left = left, was_right = right;
        new_corner(right, right_i);
        record(i, from, was_left, was_right, apex_i < long(m));  // the goal ends the walk
        i = apex_i;
        continue;
      }
    }
    record(i, apex, left, right, false);
  }
  if (path.points.back() != c.goal || path.points.size() == 1)
    path.add(c.goal, int(2 * m));
  else
    path.slots.back() = int(2 * m);
  return path;
}

}  // namespace pathscope

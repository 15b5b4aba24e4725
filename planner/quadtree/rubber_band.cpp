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
//
// Step 2 on ground of several costs. The walk above minimises length, which is cost only
// while the multiplier stays the same: across slow cells it would trade the cost step 1
// saved for length. So a corridor whose multiplier changes is cut at those portals into
// runs of one cost, and a pull may only shorten the path inside a run: each run is
// walked between the points where the path crosses its two cuts (pins), which is the
// cheapest path inside the run between them. A pin moves along its portal only where that
// lowers the cost of the two runs it joins, by a golden-section search (along a portal,
// that cost is a sum of two geodesic distances inside runs times constants, convex), pin
// after pin, sweep after sweep until the total stops falling. The pins start where the
// cheaper of step 1 and the shortest path crosses the cuts, and every move lowers the
// cost, so the result is never dearer than either. Where the straight line through a cut
// is cheapest, the pin settles on it and the cut leaves no corner.

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
  const bool vertical = a.x == b.x;
  const double pw = vertical ? p.x : p.y, qw = vertical ? q.x : q.y, line = vertical ? a.x : a.y;
  if (qw != pw) {
    t = (line - pw) / (qw - pw);
  } else {
    // Along the portal's line: the segment leaves cell k past the portal's farther end.
    const double pu = vertical ? p.y : p.x, qu = vertical ? q.y : q.x;
    const double au = vertical ? a.y : a.x, bu = vertical ? b.y : b.x;
    if (qu != pu) t = std::max((au - pu) / (qu - pu), (bu - pu) / (qu - pu));
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

namespace {

// The funnel walk of step 2 over cells first..last (portals first..last - 1) from `from`
// to `to`, whose slots in the whole corridor are `from_slot` and `to_slot`, into `path`
// (cleared first; a buffer kept across calls allocates nothing once large enough).
void funnel(const Corridor& c, std::size_t first, std::size_t last, Vec2 from, int from_slot, Vec2 to,
            int to_slot, CorridorPath& path, std::vector<std::vector<Vec2>>* corners,
            std::vector<PullStep>* steps) {
  // Each portal's ends as seen travelling through it: "left" then "right", so that from
  // any point before the portal, tri(point, left, right) >= 0. `to` closes the list.
  const auto ends = [&](long i) -> std::array<Vec2, 2> {
    if (i == long(last)) return {to, to};
    const std::size_t k = std::size_t(i);
    const Vec2 dir = c.cells[k + 1].center() - c.cells[k].center();
    const Vec2 a = c.portals[k][0], b = c.portals[k][1];
    const Vec2 mid = (a + b) * 0.5;
    const bool a_left = dir.x * (a - mid).y - dir.y * (a - mid).x < 0;
    return a_left ? std::array<Vec2, 2>{a, b} : std::array<Vec2, 2>{b, a};
  };

  // Portal indices are the whole corridor's; `first - 1` stands for `from`, `last` for `to`.
  const long begin = long(first) - 1, end = long(last);
  path.points.clear();
  path.slots.clear();
  path.add(from, from_slot);
  Vec2 apex = from, left = from, right = from;
  long apex_i = begin, left_i = begin, right_i = begin;
  const auto slot_of = [&](long i) { return i == begin ? from_slot : int(2 * i + 1); };
  const auto new_corner = [&](Vec2 p, long i) {
    path.add(p, slot_of(i));
    apex = left = right = p;
    apex_i = left_i = right_i = i;
    if (corners && i < end) {
      std::vector<Vec2> shown = path.points;
      shown.push_back(to);
      corners->push_back(std::move(shown));
    }
  };
  // A step for drawing: the region as it stands after portal i, or (corner) as it was
  // when portal i left it, with the path already taken to the new corner.
  const auto record = [&](long i, Vec2 at, Vec2 l, Vec2 r, bool corner) {
    if (!steps) return;
    const std::array<Vec2, 2> tested = ends(i);
    steps->push_back(PullStep{std::size_t(i), at, l, r, {tested[0], tested[1]}, corner, path.points});
  };
  for (long i = long(first); i <= end; ++i) {
    const std::array<Vec2, 2> lr = ends(i);
    const Vec2 l = lr[0], r = lr[1];
    // The right side narrows (or stays) ...
    if (tri(apex, right, r) <= 0) {
      // ... unless it swings past the left side: then the left corner is visible last.
      if (apex == right || apex == left || tri(apex, left, r) > 0) {
        right = r;
        right_i = i;
      } else {
        const Vec2 at = apex, was_left = left, was_right = right;
        new_corner(left, left_i);
        record(i, at, was_left, was_right, apex_i < end);  // `to` ends the walk
        i = apex_i;
        continue;
      }
    }
    if (tri(apex, left, l) >= 0) {
      if (apex == left || apex == right || tri(apex, right, l) < 0) {
        left = l;
        left_i = i;
      } else {
        const Vec2 at = apex, was_left = left, was_right = right;
        new_corner(right, right_i);
        record(i, at, was_left, was_right, apex_i < end);  // `to` ends the walk
        i = apex_i;
        continue;
      }
    }
    record(i, apex, left, right, false);
  }
  if (path.points.back() != to || path.points.size() == 1)
    path.add(to, to_slot);
  else
    path.slots.back() = to_slot;
}

double path_length(const std::vector<Vec2>& points) {
  double total = 0;
  for (std::size_t i = 1; i < points.size(); ++i) total += distance(points[i - 1], points[i]);
  return total;
}

}  // namespace

CorridorPath pulled_path(const Corridor& c, std::vector<std::vector<Vec2>>* corners,
                         std::vector<PullStep>* steps) {
  const std::size_t m = c.portals.size();
  CorridorPath path;
  funnel(c, 0, m, c.start, 0, c.goal, int(2 * m), path, corners, steps);
  return path;
}

CorridorPath weighted_pulled_path(const Corridor& c, const CorridorPath& step1,
                                  std::vector<PullStep>* steps) {
  const std::size_t m = c.portals.size();
  // The portals where the multiplier changes cut the corridor into runs of one cost.
  std::vector<std::size_t> cuts;
  for (std::size_t k = 0; k < m; ++k) {
    if (c.multipliers[k] != c.multipliers[k + 1]) cuts.push_back(k);
  }
  if (cuts.empty()) return pulled_path(c, nullptr, steps);

  // Run r: cells first(r)..last(r), from `start` or pin r - 1 to pin r or `goal`; pin j
  // lies on portal cuts[j] (on_portal: at parameter t from its end 0 to its end 1).
  const std::size_t runs = cuts.size() + 1;
  const auto first = [&](std::size_t r) { return r == 0 ? std::size_t(0) : cuts[r - 1] + 1; };
  const auto last = [&](std::size_t r) { return r + 1 == runs ? m : cuts[r]; };
  const auto on_portal = [&](std::size_t j, double t) {
    const Vec2 a = c.portals[cuts[j]][0], b = c.portals[cuts[j]][1];
    Vec2 p = a + (b - a) * t;
    // Exactly on the portal's line, whatever the rounding.
    if (a.x == b.x)
      p.x = a.x;
    else
      p.y = a.y;
    return p;
  };
  CorridorPath buffer;
  const auto run_path = [&](std::size_t r, Vec2 from, Vec2 to, CorridorPath& out, std::vector<PullStep>* st) {
    const int from_slot = r == 0 ? 0 : int(2 * cuts[r - 1] + 1);
    const int to_slot = r + 1 == runs ? int(2 * m) : int(2 * cuts[r] + 1);
    funnel(c, first(r), last(r), from, from_slot, to, to_slot, out, nullptr, st);
  };
  const auto run_cost = [&](std::size_t r, Vec2 from, Vec2 to) {
    run_path(r, from, to, buffer, nullptr);
    return path_length(buffer.points) * c.multipliers[first(r)];
  };

  // The pins start where the cheaper of step 1 and the shortest path crosses the cut
  // portals: each run pulled between them costs no more than that path inside it.
  const CorridorPath shortest = pulled_path(c);
  const bool from_step1 = corridor_cost(c, step1) <= corridor_cost(c, shortest);
  const std::vector<Vec2> crossings = portal_crossings(c, from_step1 ? step1 : shortest);
  std::vector<Vec2> pins(cuts.size());
  for (std::size_t j = 0; j < cuts.size(); ++j) {
    // On the portal itself, not only on its line.
    const Vec2 a = c.portals[cuts[j]][0], b = c.portals[cuts[j]][1];
    const Vec2 x = crossings[cuts[j]];
    pins[j] = Vec2{std::clamp(x.x, std::min(a.x, b.x), std::max(a.x, b.x)),
                   std::clamp(x.y, std::min(a.y, b.y), std::max(a.y, b.y))};
  }
  const auto pin_from = [&](std::size_t r) { return r == 0 ? c.start : pins[r - 1]; };
  const auto pin_to = [&](std::size_t r) { return r + 1 == runs ? c.goal : pins[r]; };

  // Each pin in turn slides along its portal to the cheapest point for the two runs it
  // joins (a golden-section search; the pin's place and the portal's ends are candidates
  // too, and a move must lower the cost, so no move makes the path dearer). A pin is
  // searched again only after a neighbour moved; the sweeps end when none did.
  constexpr int kSweeps = 16, kIterations = 24;
  const double golden = (std::sqrt(5.0) - 1) / 2;
  std::vector<std::uint8_t> stale(cuts.size(), 1);
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    bool moved = false;
    for (std::size_t j = 0; j < cuts.size(); ++j) {
      if (!stale[j]) continue;
      stale[j] = 0;
      const Vec2 from = pin_from(j), to = pin_to(j + 1);
      const auto f = [&](Vec2 p) { return run_cost(j, from, p) + run_cost(j + 1, p, to); };
      const double now = f(pins[j]);
      // The cost is convex along the portal: if it is no lower a hair's breadth to either
      // side, the pin is already (all but) at the portal's cheapest point.
      const Vec2 a = c.portals[cuts[j]][0], b = c.portals[cuts[j]][1];
      const double at = a.x == b.x ? (pins[j].y - a.y) / (b.y - a.y) : (pins[j].x - a.x) / (b.x - a.x);
      constexpr double kHair = 1e-6;
      if ((at - kHair < 0 || f(on_portal(j, at - kHair)) >= now) &&
          (at + kHair > 1 || f(on_portal(j, at + kHair)) >= now))
        continue;
      Vec2 best = pins[j];
      double best_cost = now;
      const auto consider = [&](Vec2 p, double cost) {
        if (cost < best_cost) best = p, best_cost = cost;
      };
      consider(a, f(a));
      consider(b, f(b));
      double lo = 0, hi = 1;
      double x1 = hi - golden * (hi - lo), x2 = lo + golden * (hi - lo);
      double f1 = f(on_portal(j, x1)), f2 = f(on_portal(j, x2));
      for (int it = 0; it < kIterations; ++it) {
        if (f1 <= f2) {
          hi = x2, x2 = x1, f2 = f1;
          x1 = hi - golden * (hi - lo);
          f1 = f(on_portal(j, x1));
        } else {
          lo = x1, x1 = x2, f1 = f2;
          x2 = lo + golden * (hi - lo);
          f2 = f(on_portal(j, x2));
        }
      }
      consider(on_portal(j, x1), f1);
      consider(on_portal(j, x2), f2);
      // Moves that gain less than rounding would only shuffle the pins.
      if (!(best_cost < now - 1e-12 * now)) continue;
      pins[j] = best;
      moved = true;
      if (j > 0) stale[j - 1] = 1;
      if (j + 1 < cuts.size()) stale[j + 1] = 1;
    }
    if (!moved) break;
  }

  // The runs joined at their pins; a point reached twice (a pin on a run's corner) is kept
  // once, with the later slot.
  CorridorPath path;
  for (std::size_t r = 0; r < runs; ++r) {
    std::vector<PullStep> run_steps;
    CorridorPath part;
    run_path(r, pin_from(r), pin_to(r), part, steps ? &run_steps : nullptr);
    for (PullStep& st : run_steps) {
      // Drawn with the path found before this run.
      st.path.insert(st.path.begin(), path.points.begin(), path.points.end() - (path.points.empty() ? 0 : 1));
      steps->push_back(std::move(st));
    }
    for (std::size_t i = r == 0 ? 0 : 1; i < part.points.size(); ++i) {
      if (!path.points.empty() && part.points[i] == path.points.back()) {
        path.slots.back() = part.slots[i];
        continue;
      }
      path.add(part.points[i], part.slots[i]);
    }
  }
  if (path.points.size() == 1) path.add(c.goal, int(2 * m));
  return path;
}

}  // namespace pathscope

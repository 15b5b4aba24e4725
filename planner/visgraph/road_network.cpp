// Roads planned exactly in the visibility graph (seed 004, "Roads": "roads ... have a
// lower cost"): road vertices, entry and exit points live in the same graph as the corners).
//
// Pieces: every road segment is cut where it meets another road (both get the same
// point) and where it meets an obstacle's boundary; the stretches outside the obstacles
// (midpoint outside, the stretch in sight end to end) are the pieces, consecutive stretches
// merged unless a road crossing or a road vertex lies between them.
//
// Why these points suffice. Off the roads, a shortest path turns only at corners (it is
// taut). Take a stretch of an optimal path that leaves a node q (a corner, the start, a
// piece's end) and joins a piece at x, then runs along it towards one end. With uniform
// ground, its cost is convex in x and least at the angle-rule point (joining_points), or
// at an end of the piece when that point lies beyond it; when obstacles hide that point,
// the least cost over the part q sees lies where q's sight line grazes a corner, and the
// path then turns at that corner instead. A leg from the inside of one piece to the
// inside of another is convex in its two ends and linear beyond the norm, so its least
// cost is reached with one end at a piece's end (a road vertex or crossing). Hence links
// from every node to the piece ends in sight and to its angle-rule points, and from every
// piece end to the other pieces' angle-rule points, hold an optimal path. With weighted
// regions the legs are priced exactly (leg / factor along the road, as the grid divides
// a cell's multiplier by the road's factor) but the angle rule assumes the same ground on
// both sides of the joining point, so the joining point may be off where a region's edge
// lies between.

#include "planner/visgraph/road_network.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace pathscope::visgraph {
namespace {

double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
double length(Vec2 d) { return std::sqrt(d.x * d.x + d.y * d.y); }

// A road segment with its split points (metres from a, position, must stay a point).
struct Cut {
  double s = 0;
  Vec2 p;
  bool node = false;
};
struct Segment {
  Vec2 a, b;
  std::uint32_t road = 0;
  double factor = 1;
  std::vector<Cut> cuts;
};

// Parameter along [p0, p1] where it meets [q0, q1], or -1 (parallel lines: none).
double meet(Vec2 p0, Vec2 p1, Vec2 q0, Vec2 q1, double* u_out) {
  const Vec2 r = p1 - p0, s = q1 - q0;
  const double den = cross(r, s);
  if (std::abs(den) <= 1e-12 * length(r) * length(s)) return -1;
  const double t = cross(q0 - p0, s) / den;
  const double u = cross(q0 - p0, r) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return -1;
  if (u_out) *u_out = u;
  return t;
}

}  // namespace

int joining_points(const RoadPiece& piece, Vec2 q, double out[2]) {
  if (!(piece.factor > 1)) return 0;
  const Vec2 rel = q - piece.a;
  const double s = rel.x * piece.dir.x + rel.y * piece.dir.y;
  const double d = std::abs(cross(piece.dir, rel));
  const double off = d / std::sqrt(piece.factor * piece.factor - 1);
  const double eps = 1e-9 * (1 + piece.length);
  int n = 0;
  for (const double x : {s - off, s + off}) {
    if (x <= eps || x >= piece.length - eps) continue;
    if (n == 1 && std::abs(out[0] - x) <= eps) continue;
    out[n++] = x;
  }
  return n;
}

RoadNetwork::RoadNetwork(const std::vector<Road>& roads, const VisibilityGraph& graph,
                         std::span<const Vec2> region_corners, const std::function<double(Vec2, Vec2)>& leg) {
  const SegmentIndex& index = graph.index();
  std::vector<Segment> segs;
  for (std::size_t r = 0; r < roads.size(); ++r) {
    if (!(roads[r].speed_factor > 1)) continue;
    for (std::size_t i = 1; i < roads[r].points.size(); ++i) {
      const Vec2 a = roads[r].points[i - 1], b = roads[r].points[i];
      if (a == b) continue;
      segs.push_back(
          Segment{a, b, std::uint32_t(r), roads[r].speed_factor, {{0, a, true}, {length(b - a), b, true}}});
    }
  }
  // Road crossings: one position, shared by both segments.
  for (std::size_t i = 0; i < segs.size(); ++i) {
    for (std::size_t j = i + 1; j < segs.size(); ++j) {
      Segment& si = segs[i];
      Segment& sj = segs[j];
      double u = 0;
      const double t = meet(si.a, si.b, sj.a, sj.b, &u);
      if (t < 0) continue;
      Vec2 p = si.a + (si.b - si.a) * t;
      if (t == 0) p = si.a;
      if (t == 1) p = si.b;
      if (u == 0) p = sj.a;
      if (u == 1) p = sj.b;
      si.cuts.push_back(Cut{length(p - si.a), p, true});
      sj.cuts.push_back(Cut{length(p - sj.a), p, true});
    }
  }
  // Obstacle boundaries (every ring edge; roads are few).
  for (Segment& sg : segs) {
    const Box2 box = Box2::spanning(sg.a, sg.b);
    for (std::uint32_t v = 0; v < index.vertex_count(); ++v) {
      const Vec2 q0 = index.position(v), q1 = index.position(index.next(v));
      if (std::max(q0.x, q1.x) < box.lo.x || std::min(q0.x, q1.x) > box.hi.x ||
          std::max(q0.y, q1.y) < box.lo.y || std::min(q0.y, q1.y) > box.hi.y) {
        continue;
      }
      const double t = meet(sg.a, sg.b, q0, q1, nullptr);
      if (t < 0) continue;
      const Vec2 p = sg.a + (sg.b - sg.a) * t;
      sg.cuts.push_back(Cut{length(p - sg.a), p, false});
    }
  }
  // Pieces, with their ends as road points (one id per position).
  std::map<std::pair<double, double>, std::uint32_t> id_of;
  const auto point_id = [&](Vec2 p) {
    const auto [it, fresh] = id_of.try_emplace({p.x, p.y}, std::uint32_t(points_.size()));
    if (fresh) points_.push_back(p);
    return it->second;
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> piece_ends;
  for (const Segment& sg : segs) {
    std::vector<Cut> cuts = sg.cuts;
    std::sort(cuts.begin(), cuts.end(),
              [](const Cut& x, const Cut& y) { return x.s < y.s || (x.s == y.s && x.node > y.node); });
    std::vector<Cut> uniq;
    for (const Cut& c : cuts) {
      if (!uniq.empty() && c.s - uniq.back().s <= 1e-9) {
        continue;  // a node cut sorts first at equal s and wins
      }
      uniq.push_back(c);
    }
    if (uniq.back().s != length(sg.b - sg.a)) uniq.back() = Cut{length(sg.b - sg.a), sg.b, true};
    const double total = length(sg.b - sg.a);
    const Vec2 dir = (sg.b - sg.a) / total;
    // A stretch between cuts is usable when outside the obstacles; an end computed on a
    // boundary may lie a rounding step inside, so a blocked stretch is tried again with
    // its non-node ends moved 1 um inwards.
    const auto usable = [&](Cut& c0, Cut& c1) {
      const Vec2 mid = (c0.p + c1.p) * 0.5;
      if (index.inside(mid)) return false;
      if (index.visible(c0.p, c1.p)) return true;
      const double e = std::min(1e-6, (c1.s - c0.s) / 4);
      const Cut n0 = c0.node ? c0 : Cut{c0.s + e, c0.p + dir * e, false};
      const Cut n1 = c1.node ? c1 : Cut{c1.s - e, c1.p - dir * e, false};
      if (!index.visible(n0.p, n1.p)) return false;
      c0 = n0;
      c1 = n1;
      return true;
    };
    std::size_t i = 0;
    while (i + 1 < uniq.size()) {
      Cut c0 = uniq[i], c1 = uniq[i + 1];
      if (!usable(c0, c1)) {
        ++i;
        continue;
      }
      // Extend over obstacle cuts (the road grazing a boundary) while usable.
      std::size_t j = i + 1;
      while (!uniq[j].node && j + 1 < uniq.size() && c1.p == uniq[j].p) {
        Cut d0 = uniq[j], d1 = uniq[j + 1];
        if (!usable(d0, d1) || !(d0.p == uniq[j].p)) break;
        c1 = d1;
        ++j;
      }
      if (c1.s - c0.s > 1e-9) {
        RoadPiece piece;
        piece.a = c0.p;
        piece.b = c1.p;
        piece.road = sg.road;
        piece.factor = sg.factor;
        piece.length = length(c1.p - c0.p);
        piece.dir = dir;
        pieces_.push_back(piece);
        piece_ends.push_back({point_id(c0.p), point_id(c1.p)});
        max_factor_ = std::max(max_factor_, sg.factor);
      }
      i = j;
    }
  }
  ends_ = points_.size();

  // Links, gathered as (from kind, from index, link) then laid out per owner.
  struct Raw {
    RoadEnd from_kind;
    std::uint32_t from;
    RoadNetLink link;  // link.to is a road point
  };
  std::vector<Raw> raw;
  // Points of each piece (metres from a), ends first.
  std::vector<std::vector<std::pair<double, std::uint32_t>>> on(pieces_.size());
  for (std::uint32_t p = 0; p < pieces_.size(); ++p) {
    on[p].push_back({0.0, piece_ends[p].first});
    on[p].push_back({pieces_[p].length, piece_ends[p].second});
  }
  // One anchor: its links to the piece ends it sees and to its joining points.
  const auto anchor = [&](RoadEnd kind, std::uint32_t id, Vec2 q, const std::function<bool(Vec2)>& sees) {
    for (std::uint32_t e = 0; e < ends_; ++e) {
      if (kind == RoadEnd::RoadPoint && e <= id) continue;  // each pair of ends once
      if (points_[e] == q || !sees(points_[e])) continue;
      raw.push_back(Raw{kind, id, RoadNetLink{e, RoadEnd::RoadPoint, leg(q, points_[e]), false}});
    }
    for (std::uint32_t p = 0; p < pieces_.size(); ++p) {
      double xs[2];
      const int n = joining_points(pieces_[p], q, xs);
      for (int k = 0; k < n; ++k) {
        const Vec2 x = pieces_[p].a + pieces_[p].dir * xs[k];
        if (x == q || !sees(x)) continue;
        const std::uint32_t pt = std::uint32_t(points_.size());
        points_.push_back(x);
        on[p].push_back({xs[k], pt});
        raw.push_back(Raw{kind, id, RoadNetLink{pt, RoadEnd::RoadPoint, leg(q, x), false}});
      }
    }
  };
  for (std::uint32_t c = 0; c < graph.node_count(); ++c) {
    anchor(RoadEnd::Corner, c, graph.position(c), [&](Vec2 x) { return graph.links_to(c, x); });
  }
  for (std::uint32_t k = 0; k < region_corners.size(); ++k) {
    const Vec2 q = region_corners[k];
    anchor(RoadEnd::RegionCorner, k, q, [&](Vec2 x) { return index.visible(q, x); });
  }
  for (std::uint32_t e = 0; e < ends_; ++e) {
    const Vec2 q = points_[e];
    anchor(RoadEnd::RoadPoint, e, q, [&](Vec2 x) { return index.visible(q, x); });
  }
  entries_ = raw.size();
  // Along each piece, consecutive points.
  piece_start_.push_back(0);
  for (std::uint32_t p = 0; p < pieces_.size(); ++p) {
    std::sort(on[p].begin(), on[p].end());
    for (std::size_t k = 0; k < on[p].size(); ++k) {
      piece_point_.push_back(on[p][k].second);
      piece_offset_.push_back(on[p][k].first);
      if (k == 0) continue;
      const std::uint32_t u = on[p][k - 1].second, v = on[p][k].second;
      if (points_[u] == points_[v]) continue;
      raw.push_back(
          Raw{RoadEnd::RoadPoint, u,
              RoadNetLink{v, RoadEnd::RoadPoint, leg(points_[u], points_[v]) / pieces_[p].factor, true}});
      ++along_;
    }
    piece_start_.push_back(std::uint32_t(piece_point_.size()));
  }
  // The pieces each point lies on.
  std::vector<std::vector<std::uint32_t>> pieces_of(points_.size());
  for (std::uint32_t p = 0; p < pieces_.size(); ++p) {
    for (const auto& [s, pt] : on[p]) pieces_of[pt].push_back(p);
  }
  on_start_.push_back(0);
  for (const std::vector<std::uint32_t>& ps : pieces_of) {
    on_piece_.insert(on_piece_.end(), ps.begin(), ps.end());
    on_start_.push_back(std::uint32_t(on_piece_.size()));
  }
  // Lay out: per road point (both directions), per corner, per region corner.
  std::vector<std::vector<RoadNetLink>> by_point(points_.size()), by_corner(graph.node_count()),
      by_region(region_corners.size());
  for (const Raw& r : raw) {
    by_point[r.link.to].push_back(RoadNetLink{r.from, r.from_kind, r.link.cost, r.link.along});
    if (r.from_kind == RoadEnd::Corner) by_corner[r.from].push_back(r.link);
    if (r.from_kind == RoadEnd::RegionCorner) by_region[r.from].push_back(r.link);
    if (r.from_kind == RoadEnd::RoadPoint) by_point[r.from].push_back(r.link);
  }
  const auto lay = [](const std::vector<std::vector<RoadNetLink>>& by, std::vector<std::uint32_t>& start,
                      std::vector<RoadNetLink>& out) {
    start.assign(1, 0);
    for (const std::vector<RoadNetLink>& v : by) {
      out.insert(out.end(), v.begin(), v.end());
      start.push_back(std::uint32_t(out.size()));
    }
  };
  lay(by_point, point_start_, point_links_);
  lay(by_corner, corner_start_, corner_links_);
  lay(by_region, region_start_, region_links_);
}

}  // namespace pathscope::visgraph

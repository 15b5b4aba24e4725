// The path referee (see path_referee.hpp and planner/referee/README.md).
//
// Exact integration: a leg a + t (b - a), t in [0, 1], meets the vertical cell lines
// x = k s at t = (k s - a.x) / (b.x - a.x) and the horizontal ones likewise (parametric
// clipping, as in Liang and Barsky's line clipping, against every cell line the leg's
// box spans). Between two consecutive crossings the leg lies inside one cell (its
// midpoint says which), or runs along a cell line when the leg is axis-parallel and lies
// on one: then it touches the two cells of either side. A crossing that is a cell corner
// for a diagonal leg is where the leg may squeeze between two blocked cells.
//
// Clearance: the exact distance from each leg to every blocked cell (a closed box) in the
// leg's box grown by the clearance, and to the world's edge.

#include "planner/referee/path_referee.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "planner/world/cost_grid.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::referee {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// What the referee reads of the world: multipliers and movement keys per cell.
struct Cells {
  const CostGrid& grid;
  double s;
  int w;
  int h;
  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < w && y < h; }
  // 0 outside the grid or blocked.
  double multiplier(int x, int y) const {
    return inside(x, y) ? grid.multiplier(std::uint32_t(y) * std::uint32_t(w) + std::uint32_t(x)) : 0.0;
  }
  std::uint16_t key(int x, int y) const {
    return inside(x, y) ? grid.move_key(std::uint32_t(y) * std::uint32_t(w) + std::uint32_t(x)) : 0;
  }
};

std::string cell_text(int x, int y) { return "cell (" + std::to_string(x) + ", " + std::to_string(y) + ")"; }

std::string point_text(Vec2 p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.6g, %.6g)", p.x, p.y);
  return buf;
}

class Collector {
 public:
  Collector(Verdict& v, std::size_t max) : v_(v), max_(max) {}
  void add(ViolationKind kind, std::size_t leg, Vec2 where, std::string message) {
    v_.legal = false;
    ++v_.violation_count;
    if (v_.violations.size() < max_) v_.violations.push_back(Violation{kind, leg, where, std::move(message)});
  }

 private:
  Verdict& v_;
  std::size_t max_;
};

// The crossings of leg a-b with the cell lines x = k s (axis 0) or y = k s (axis 1),
// strictly inside (0, 1).
void crossings(Vec2 a, Vec2 b, double s, int axis, std::vector<double>& out) {
  const double pa = axis == 0 ? a.x : a.y, pb = axis == 0 ? b.x : b.y;
  if (pa == pb) return;
  const double lo = std::min(pa, pb), hi = std::max(pa, pb);
  for (double k = std::ceil(lo / s); k * s <= hi; k += 1) {
    const double t = (k * s - pa) / (pb - pa);
    if (t > 0 && t < 1) out.push_back(t);
  }
}

// The cell index holding coordinate c (floor(c / s)), for a point strictly inside a cell.
int cell_of(double c, double s) { return int(std::floor(c / s)); }

// Whether coordinate c lies on a cell line.
bool on_line(double c, double s) { return std::floor(c / s) * s == c; }

// One leg's pieces: calls piece(length, cell choices) for each stretch between
// crossings, in order. A stretch along a cell line offers the two cells of its sides.
struct Piece {
  double length = 0;
  Vec2 mid{0, 0};
  int n = 1;             // cells it touches: 1 inside a cell, 2 along a cell line
  glm::ivec2 cell[2]{};  // the cells
};

template <typename Fn>
void walk(Vec2 a, Vec2 b, double s, std::vector<double>& ts, Fn&& piece) {
  ts.clear();
  ts.push_back(0);
  crossings(a, b, s, 0, ts);
  crossings(a, b, s, 1, ts);
  ts.push_back(1);
  std::sort(ts.begin(), ts.end());
  const Vec2 d = b - a;
  const double len = std::sqrt(d.x * d.x + d.y * d.y);
  const bool along_x = d.y == 0 && on_line(a.y, s);  // on a horizontal cell line
  const bool along_y = d.x == 0 && on_line(a.x, s);  // on a vertical cell line
  for (std::size_t i = 0; i + 1 < ts.size(); ++i) {
    const double t0 = ts[i], t1 = ts[i + 1];
    if (!(t1 > t0)) continue;
    Piece p;
    p.length = (t1 - t0) * len;
    p.mid = a + d * (0.5 * (t0 + t1));
    const int cx = cell_of(p.mid.x, s), cy = cell_of(p.mid.y, s);
    if (along_x) {
      const int k = int(std::lround(a.y / s));
      p.n = 2;
      p.cell[0] = {cx, k - 1};
      p.cell[1] = {cx, k};
    } else if (along_y) {
      const int k = int(std::lround(a.x / s));
      p.n = 2;
      p.cell[0] = {k - 1, cy};
      p.cell[1] = {k, cy};
    } else {
      p.cell[0] = {cx, cy};
    }
    piece(p, i, t0);
  }
}

// Exact distance from segment a-b to the closed box [lo, hi] (0 when they meet).
double segment_box_distance(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
  // Liang-Barsky: does the segment meet the box?
  const Vec2 d = b - a;
  double t0 = 0, t1 = 1;
  const double p[4] = {-d.x, d.x, -d.y, d.y};
  const double q[4] = {a.x - lo.x, hi.x - a.x, a.y - lo.y, hi.y - a.y};
  bool meets = true;
  for (int i = 0; i < 4 && meets; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) meets = false;
    } else {
      const double r = q[i] / p[i];
      if (p[i] < 0) {
        t0 = std::max(t0, r);
      } else {
        t1 = std::min(t1, r);
      }
      if (t0 > t1) meets = false;
    }
  }
  if (meets) return 0;
  // Otherwise the nearest pair has an end of the segment or a corner of the box.
  const auto point_box = [&](Vec2 x) {
    const double dx = std::max({lo.x - x.x, 0.0, x.x - hi.x});
    const double dy = std::max({lo.y - x.y, 0.0, x.y - hi.y});
    return std::sqrt(dx * dx + dy * dy);
  };
  const double dd = d.x * d.x + d.y * d.y;
  const auto point_segment = [&](Vec2 x) {
    double t = dd > 0 ? ((x.x - a.x) * d.x + (x.y - a.y) * d.y) / dd : 0;
    t = std::clamp(t, 0.0, 1.0);
    const Vec2 e = a + d * t - x;
    return std::sqrt(e.x * e.x + e.y * e.y);
  };
  double best = std::min(point_box(a), point_box(b));
  const Vec2 corners[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
  for (const Vec2& c : corners) best = std::min(best, point_segment(c));
  return best;
}

}  // namespace

const char* to_string(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::OutsideWorld: return "outside_world";
    case ViolationKind::Blocked: return "blocked";
    case ViolationKind::GroupChange: return "group_change";
    case ViolationKind::CornerSqueeze: return "corner_squeeze";
    case ViolationKind::Clearance: return "clearance";
  }
  return "?";
}

bool costs_agree(double reported, double referee) {
  return std::abs(reported - referee) <= kCostTolerance * std::max(1.0, std::abs(referee));
}

Result<Verdict> referee_path(const PlanningWorld& world, std::size_t movement_class,
                             std::span<const Vec2> points, const RefereeParams& params) {
  if (movement_class >= world.scenario().classes.size())
    return make_error(ErrorCode::Query, "movement_class",
                      "no movement class " + std::to_string(movement_class) + " (the world has " +
                          std::to_string(world.scenario().classes.size()) + ")");
  if (points.empty()) return make_error(ErrorCode::Value, "points", "a path needs at least one point");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!std::isfinite(points[i].x) || !std::isfinite(points[i].y))
      return make_error(ErrorCode::Value, "points[" + std::to_string(i) + "]", "not a finite point");
  }
  if (!(params.clearance >= 0) || !std::isfinite(params.clearance))
    return make_error(ErrorCode::Value, "clearance", "expected a finite number >= 0");

  const CostGrid& grid = world.grid(movement_class);
  const Cells cells{grid, grid.cell_size(), grid.width(), grid.height()};
  const double s = cells.s;
  Verdict v;
  Collector out(v, params.max_violations);
  std::vector<double> ts;

  // Legality, on the polyline as given.
  std::uint16_t last_key = 0;  // the movement key of the last passable piece
  for (std::size_t leg = 0; leg + 1 < points.size() || (leg == 0 && points.size() == 1); ++leg) {
    const Vec2 a = points[leg], b = points.size() == 1 ? points[0] : points[leg + 1];
    if (points.size() == 1) {
      const int x = cell_of(a.x, s), y = cell_of(a.y, s);
      if (!cells.inside(x, y))
        out.add(ViolationKind::OutsideWorld, 0, a, "point " + point_text(a) + " is outside the world");
      else if (cells.multiplier(x, y) <= 0)
        out.add(ViolationKind::Blocked, 0, a, "point " + point_text(a) + " is in blocked " + cell_text(x, y));
      break;
    }
    v.length += std::hypot(b.x - a.x, b.y - a.y);
    walk(a, b, s, ts, [&](const Piece& p, std::size_t, double t0) {
      // A diagonal leg through a cell corner: the two cells it passes between.
      if (t0 > 0 && b.x != a.x && b.y != a.y) {
        const Vec2 at = a + (b - a) * t0;
        const double ix = std::round(at.x / s), iy = std::round(at.y / s);
        // A corner up to rounding: the two crossings computed apart may differ by an ulp.
        if (std::abs(ix * s - at.x) <= 1e-9 * s && std::abs(iy * s - at.y) <= 1e-9 * s) {
          const int i = int(ix), j = int(iy);
          const bool se = (b.x - a.x) * (b.y - a.y) > 0;
          const glm::ivec2 c0 = se ? glm::ivec2{i, j - 1} : glm::ivec2{i - 1, j - 1};
          const glm::ivec2 c1 = se ? glm::ivec2{i - 1, j} : glm::ivec2{i, j};
          if (cells.multiplier(c0.x, c0.y) <= 0 && cells.multiplier(c1.x, c1.y) <= 0)
            out.add(ViolationKind::CornerSqueeze, leg, at,
                    "leg " + std::to_string(leg) + " passes between blocked " + cell_text(c0.x, c0.y) +
                        " and " + cell_text(c1.x, c1.y) + " at their common corner " + point_text(at));
        }
      }
      // A sliver between two crossings that meet at a corner up to rounding: the leg only
      // touches that cell at the corner (checked above).
      if (p.length <= 1e-9 * s) return;
      bool any_inside = false;
      int best = -1;
      for (int k = 0; k < p.n; ++k) {
        const glm::ivec2 c = p.cell[k];
        any_inside |= cells.inside(c.x, c.y);
        if (cells.multiplier(c.x, c.y) <= 0) continue;
        // Along a cell line: keep the group of the way so far if a side has it.
        if (best < 0 ||
            (cells.key(c.x, c.y) == last_key && cells.key(p.cell[best].x, p.cell[best].y) != last_key))
          best = k;
      }
      if (!any_inside) {
        out.add(ViolationKind::OutsideWorld, leg, p.mid,
                "leg " + std::to_string(leg) + " leaves the world at " + point_text(p.mid));
        return;
      }
      if (best < 0) {
        out.add(ViolationKind::Blocked, leg, p.mid,
                "leg " + std::to_string(leg) + " runs through blocked " +
                    cell_text(p.cell[0].x, p.cell[0].y) +
                    (p.n == 2 ? " and " + cell_text(p.cell[1].x, p.cell[1].y) : std::string()) + " at " +
                    point_text(p.mid));
        return;
      }
      const glm::ivec2 c = p.cell[best];
      const std::uint16_t key = cells.key(c.x, c.y);
      if (last_key != 0 && key != last_key)
        out.add(ViolationKind::GroupChange, leg, p.mid,
                "leg " + std::to_string(leg) + " enters " + cell_text(c.x, c.y) +
                    " of another terrain group at " + point_text(p.mid));
      last_key = key;
    });
  }

  // Clearance from blocked cells and the world's edge.
  if (params.clearance > 0) {
    const double r = params.clearance;
    const double ww = world.scenario().world.width, wh = world.scenario().world.height;
    const std::size_t legs = points.size() == 1 ? 1 : points.size() - 1;
    for (std::size_t leg = 0; leg < legs; ++leg) {
      const Vec2 a = points[leg], b = points.size() == 1 ? a : points[leg + 1];
      double nearest = std::min({a.x, b.x, a.y, b.y, ww - a.x, ww - b.x, wh - a.y, wh - b.y});
      Vec2 where = a;
      const Box2 box = Box2::spanning(a, b).expanded(r);
      const int x0 = std::max(0, cell_of(box.lo.x, s)), x1 = std::min(cells.w - 1, cell_of(box.hi.x, s));
      const int y0 = std::max(0, cell_of(box.lo.y, s)), y1 = std::min(cells.h - 1, cell_of(box.hi.y, s));
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
          if (cells.multiplier(x, y) > 0) continue;
          const Vec2 lo{x * s, y * s}, hi{(x + 1) * s, (y + 1) * s};
          const double dist = segment_box_distance(a, b, lo, hi);
          if (dist < nearest) {
            nearest = dist;
            where = (lo + hi) * 0.5;
          }
        }
      }
      v.min_clearance = std::min(v.min_clearance, nearest);
      // The planners' geometry is rounded to 1/1024 m (Clipper's grid): a hair less is kept.
      if (nearest < r - 1.0 / 512) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "leg %zu comes within %.4f m of an obstacle near %s (clearance %.4f m)", leg, nearest,
                      point_text(where).c_str(), r);
        out.add(ViolationKind::Clearance, leg, where, buf);
      }
    }
  }

  // Cost, on the polyline the planner declares it counts.
  std::vector<Vec2> snapped;
  std::span<const Vec2> costed = points;
  if (params.cell_centres) {
    for (const Vec2& p : points) {
      const Vec2 c{(std::floor(p.x / s) + 0.5) * s, (std::floor(p.y / s) + 0.5) * s};
      if (snapped.empty() || snapped.back() != c) snapped.push_back(c);
    }
    costed = snapped;
  }
  double cost = 0;
  for (std::size_t leg = 0; leg + 1 < costed.size(); ++leg) {
    walk(costed[leg], costed[leg + 1], s, ts, [&](const Piece& p, std::size_t, double) {
      double m = kInf;
      for (int k = 0; k < p.n; ++k) {
        const double mk = cells.multiplier(p.cell[k].x, p.cell[k].y);
        if (mk > 0) m = std::min(m, mk);
      }
      // A piece no class may use costs infinity: legality already said why.
      cost += p.length * m;
    });
  }
  v.cost = cost;
  return v;
}

RefereeParams params_for(const PlannerInfo& info, const ParamValues& values, const PlanningWorld& world,
                         std::size_t movement_class) {
  RefereeParams p;
  p.cell_centres = info.referee.cell_centres;
  p.clearance = declared_clearance(info, QueryContext{world, movement_class, std::nullopt, values});
  return p;
}

}  // namespace pathscope::referee

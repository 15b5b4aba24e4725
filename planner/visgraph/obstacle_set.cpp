// Obstacles as merged, inflated polygons (seed 004, "Buildings and forests": the union
// of overlapping forests and buildings, a building inside a forest vanishing in it;
// seed 003, "Cutting corners": obstacles made larger so waypoints lie outside them).
//
// Everything goes through Clipper in integer coordinates, kScale per metre:
//  1. Rectangles (rounded outwards), polygons (rounded to the nearest unit) and a tile
//     grid's blocked runs become positively oriented paths.
//  2. With a radius r > 0 they are inflated together: the Minkowski sum with a regular
//     polygon circumscribing the disc of radius r - 1/kScale, four of its edges
//     axis-aligned (so a cell's side moves out by exactly r less one unit) and its
//     vertices within max_error of the circle: every point nearer than r - 1/kScale is
//     covered, nothing farther than r + max_error. The sum unites what it inflates, so
//     overlapping obstacles merge here.
//  3. Circles go in as circumscribed polygons of radius R + r (edges within max_error of
//     the circle), with a frame: the outside of the world's box shrunk by r less one unit
//     (as a cell's side moves). One union of all (non-zero winding) gives the rings; the
//     frame's outer ring is marked as such.
//  With openings (passable shapes painted over obstacles, intact bridge decks) the
//  inputs apply in order instead: obstacles united, openings (rounded inwards) cut out,
//  circles at their own radius; the result is then inflated as in 2. A circle's polygon
//  and the round joins may then each overstate by max_error.
//  Containers (seed 004: "an outer boundary with holes") stand together for the world
//  outside all of them: the world box minus their union (rectangles and circles rounded
//  inwards, polygons to the nearest unit),
//  one obstacle with a hole per container, inflated with the rest, so each hole (the
//  walkable inside) shrinks by the radius; obstacles inside are ordinary obstacles.
//  4. A closing (grow by one unit, shrink by one, square joins) merges what the union
//     leaves touching along an edge (two rows of blocked cells); rings may still touch
//     at single points, which the sight test handles (segment_index.cpp).

#include "planner/visgraph/obstacle_set.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include <polyclipping/clipper.hpp>

#include "planner/core/geometry.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::visgraph {
namespace {

using ClipperLib::cInt;
using ClipperLib::IntPoint;
using ClipperLib::Path;
using ClipperLib::Paths;

constexpr double kPi = 3.14159265358979323846;

cInt to_unit(double metres) { return cInt(std::llround(metres * kScale)); }

Path oriented(Path p) {
  if (!ClipperLib::Orientation(p)) ClipperLib::ReversePath(p);
  return p;
}

Path box_path(cInt x0, cInt y0, cInt x1, cInt y1) {
  return oriented(Path{IntPoint(x0, y0), IntPoint(x1, y0), IntPoint(x1, y1), IntPoint(x0, y1)});
}

std::string fmt_point(Vec2 p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.6g, %.6g)", p.x, p.y);
  return buf;
}

// A polygon input checked and converted; an Error names the item.
Result<Path> polygon_path(const ObstacleInput& in, std::vector<std::string>& repairs) {
  std::vector<Vec2> pts;
  std::size_t dropped = 0;
  for (const Vec2& p : in.shape.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
      return make_error(ErrorCode::Value, in.name, "polygon has a point that is not finite");
    }
    if (!pts.empty() && pts.back() == p) {
      ++dropped;
      continue;
    }
    pts.push_back(p);
  }
  while (pts.size() > 1 && pts.front() == pts.back()) {
    pts.pop_back();
    ++dropped;
  }
  if (dropped > 0) {
    repairs.push_back(in.name + ": " + std::to_string(dropped) + " repeated point" +
                      (dropped > 1 ? "s" : "") + " dropped");
  }
  if (pts.size() < 3) {
    return make_error(ErrorCode::Value, in.name, "polygon has fewer than 3 distinct points");
  }
  bool collinear = true;
  for (const Vec2& p : pts) collinear = collinear && cross(pts[0], pts[1], p) == 0;
  if (collinear) return make_error(ErrorCode::Value, in.name, "polygon has zero area");
  if (const auto hit = find_self_intersection(pts)) {
    const std::size_t n = pts.size();
    const auto edge = [&](std::size_t i) {
      return "edge " + std::to_string(i) + " " + fmt_point(pts[i]) + "-" + fmt_point(pts[(i + 1) % n]);
    };
    return make_error(
        ErrorCode::Value, in.name,
        "self-intersecting polygon: " + edge(hit->first) + " and " + edge(hit->second) + " meet");
  }
  if (!(polygon_area(pts) > 0)) return make_error(ErrorCode::Value, in.name, "polygon has zero area");
  Path path;
  for (const Vec2& p : pts) {
    const IntPoint q(to_unit(p.x), to_unit(p.y));
    if (path.empty() || path.back() != q) path.push_back(q);
  }
  if (path.size() > 1 && path.front() == path.back()) path.pop_back();
  if (path.size() < 3 || ClipperLib::Area(path) == 0) {
    return make_error(ErrorCode::Value, in.name, "polygon has zero area at 1/1024 m");
  }
  return oriented(std::move(path));
}

// A circle of radius r circumscribed by a polygon whose edges stay within max_error.
Path circle_path(Vec2 c, double r, double max_error) {
  // Circumscribed n-gon: its vertices lie r / cos(pi / n) from the centre.
  int n = 8;
  while (n < 4096 && r * (1.0 / std::cos(kPi / n) - 1.0) > max_error) n *= 2;
  const double vr = r / std::cos(kPi / n) + 1.0 / kScale;  // + one unit for rounding
  Path p;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * kPi * i / n;
    p.push_back(IntPoint(to_unit(c.x + vr * std::cos(a)), to_unit(c.y + vr * std::sin(a))));
  }
  return oriented(std::move(p));
}

// The pattern a radius inflates by: a regular polygon circumscribing the disc of radius r
// (every vertex r / cos(pi / n) from the centre, within max_error with a unit of rounding
// to spare), n a multiple of 4 turned so that four of its edges are axis-aligned at
// exactly r (when r is a whole number of units), vertices rounded away from the centre.
Path disc_pattern(double r, double max_error) {
  int n = 8;
  while (n < 4096 && r * (1.0 / std::cos(kPi / n) - 1.0) > max_error - 1.0 / kScale) n *= 2;
  const double vr = r / std::cos(kPi / n);
  const auto away = [](double v) {
    return v >= 0 ? cInt(std::ceil(v * kScale - 1e-9)) : -cInt(std::ceil(-v * kScale - 1e-9));
  };
  Path p;
  for (int i = 0; i < n; ++i) {
    const double a = kPi * (2 * i + 1) / n;
    const IntPoint q(away(vr * std::cos(a)), away(vr * std::sin(a)));
    if (p.empty() || p.back() != q) p.push_back(q);
  }
  return oriented(std::move(p));
}

// A circle of radius r inscribing a polygon: every vertex within the circle, edges within
// max_error inside it (an opening is never overstated).
Path inscribed_circle_path(Vec2 c, double r, double max_error) {
  int n = 8;
  while (n < 4096 && r * (1.0 - std::cos(kPi / n)) > max_error) n *= 2;
  const double vr = std::max(0.0, r - 1.0 / kScale);  // - one unit for rounding
  Path p;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * kPi * i / n;
    p.push_back(IntPoint(to_unit(c.x + vr * std::cos(a)), to_unit(c.y + vr * std::sin(a))));
  }
  return oriented(std::move(p));
}

// Grown by one unit (square joins).
Paths grown_by_one(const Paths& paths) {
  Paths grown;
  ClipperLib::ClipperOffset grow(4.0);
  grow.AddPaths(paths, ClipperLib::jtMiter, ClipperLib::etClosedPolygon);
  grow.Execute(grown, 1.0);
  return grown;
}

// A union can leave two polygons (or two parts of one) touching along an edge, e.g. two
// rows of blocked cells: a sight line along that edge would pass between them. A closing
// (grow by one unit, shrink by one, square joins) merges them and restores every other
// vertex.
Paths closing(const Paths& paths) {
  Paths out;
  ClipperLib::ClipperOffset shrink(4.0);
  shrink.AddPaths(grown_by_one(paths), ClipperLib::jtMiter, ClipperLib::etClosedPolygon);
  shrink.Execute(out, -1.0);
  return out;
}

void collect_rings(const ClipperLib::PolyNode& node, const Box2& keep, std::vector<Ring>& out) {
  for (const ClipperLib::PolyNode* child : node.Childs) {
    Path p = child->Contour;
    ClipperLib::CleanPolygon(p, 1.0);  // collinear and repeated points only
    if (p.size() >= 3) {
      // Inside on the left: outer rings positive, holes negative (y as given).
      if (ClipperLib::Orientation(p) == child->IsHole()) ClipperLib::ReversePath(p);
      Ring ring;
      ring.hole = child->IsHole();
      Box2 box;
      for (const IntPoint& q : p) {
        const Vec2 v{double(q.X) / kScale, double(q.Y) / kScale};
        ring.points.push_back(v);
        box = box.united(Box2::of(v));
      }
      ring.frame = !(keep.contains(box.lo) && keep.contains(box.hi));
      out.push_back(std::move(ring));
    }
    collect_rings(*child, keep, out);
  }
}

}  // namespace

Result<ObstacleSet> build_obstacle_set(const std::vector<ObstacleInput>& inputs, Box2 world,
                                       const ObstacleParams& params) {
  ObstacleSet set;
  set.world = world;
  set.input_count = inputs.size();
  const double r = params.radius;
  if (!(r >= 0) || !std::isfinite(r))
    return make_error(ErrorCode::Value, "radius", "radius must be finite and >= 0");
  if (!(params.max_error >= 1.0 / kScale)) {
    return make_error(ErrorCode::Value, "max_error", "max_error must be at least 1/1024 m");
  }
  // The world's edge moves in as a cell's side moves out (step 2): by r less one unit, so
  // that a point at exactly r from the edge (a cell centre beside it, for a unit as wide
  // as the cell) stays free.
  const double edge = r > 0 ? std::max(0.0, r - 1.0 / kScale) : 0.0;
  set.free_box = Box2{world.lo + Vec2{edge, edge}, world.hi - Vec2{edge, edge}};
  if (set.free_box.empty()) {
    return make_error(ErrorCode::Value, "radius", "the radius leaves no room in the world");
  }
  // With openings, shapes apply in order (later over earlier, as the raster paints them):
  // the blocked area is kept as one union, openings are cut out of it, and circles go in
  // at their own radius, to be inflated with the rest.
  const bool ordered =
      std::any_of(inputs.begin(), inputs.end(), [](const ObstacleInput& in) { return in.opening; });
  set.ordered = ordered;
  Paths base, circles, batch;
  const auto flush = [&] {
    if (batch.empty()) return;
    ClipperLib::Clipper c;
    c.AddPaths(base, ClipperLib::ptSubject, true);
    c.AddPaths(batch, ClipperLib::ptClip, true);
    c.Execute(ClipperLib::ctUnion, base, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
    batch.clear();
  };
  // One input's path; `inward` rounds it inwards (an opening's rule), else outwards.
  const auto input_path = [&](const ObstacleInput& in, bool inward, bool& circle) -> Result<Path> {
    const Shape& s = in.shape;
    circle = false;
    switch (s.kind) {
      case ShapeKind::Rect: {
        if (!(s.max.x > s.min.x && s.max.y > s.min.y)) {
          return make_error(ErrorCode::Value, in.name, "rectangle has zero area");
        }
        return inward ? box_path(cInt(std::ceil(s.min.x * kScale)), cInt(std::ceil(s.min.y * kScale)),
                                 cInt(std::floor(s.max.x * kScale)), cInt(std::floor(s.max.y * kScale)))
                      : box_path(cInt(std::floor(s.min.x * kScale)), cInt(std::floor(s.min.y * kScale)),
                                 cInt(std::ceil(s.max.x * kScale)), cInt(std::ceil(s.max.y * kScale)));
      }
      case ShapeKind::Circle: {
        if (!(s.radius > 0) || !std::isfinite(s.radius)) {
          return make_error(ErrorCode::Value, in.name, "circle radius must be positive");
        }
        circle = true;
        return inward
                   ? inscribed_circle_path(s.center, s.radius, params.max_error)
                   : circle_path(s.center, s.radius + (ordered || in.container ? 0.0 : r), params.max_error);
      }
      case ShapeKind::Polygon: return polygon_path(in, set.repairs);
    }
    return make_error(ErrorCode::Value, in.name, "unknown shape");
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ObstacleInput& in = inputs[i];
    Paths paths;
    bool circle = false;
    if (in.container) {
      // The containers together (seed 004): the world outside all of them. Rounded
      // inwards when that outside is an obstacle, so it is never understated.
      Paths inner;
      for (; i < inputs.size() && inputs[i].container; ++i) {
        bool unused = false;
        Result<Path> p = input_path(inputs[i], !inputs[i].opening, unused);
        if (!p) return p.error();
        inner.push_back(std::move(p.value()));
      }
      --i;
      const Box2 outer = world.expanded(1.0);
      ClipperLib::Clipper c;
      c.AddPath(box_path(to_unit(outer.lo.x), to_unit(outer.lo.y), to_unit(outer.hi.x), to_unit(outer.hi.y)),
                ClipperLib::ptSubject, true);
      c.AddPaths(inner, ClipperLib::ptClip, true);
      c.Execute(ClipperLib::ctDifference, paths, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
    } else {
      Result<Path> p = input_path(in, in.opening, circle);
      if (!p) return p.error();
      paths.push_back(std::move(p.value()));
    }
    if (!ordered) {
      Paths& to = circle ? circles : base;
      to.insert(to.end(), paths.begin(), paths.end());
    } else if (!in.opening) {
      batch.insert(batch.end(), paths.begin(), paths.end());
    } else {
      flush();
      ClipperLib::Clipper c;
      c.AddPaths(base, ClipperLib::ptSubject, true);
      c.AddPaths(paths, ClipperLib::ptClip, true);
      c.Execute(ClipperLib::ctDifference, base, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
    }
  }
  flush();
  Paths inflated;
  const bool summed = r > 1.0 / kScale && !base.empty();
  if (summed) {
    // Closed first (two rows of blocked cells merge along their seam): the sum of what
    // touched then overlaps, and a gap as wide as the unit (2 units in the sum) is not
    // closed by a closing afterwards.
    base = closing(base);
    // The Minkowski sum with a polygon circumscribing the disc of radius r less one unit:
    // everything nearer than r - 1/kScale is covered (the referee allows 1/512 m for
    // rounding), nothing beyond r + max_error. Four of its edges are axis-aligned, so the
    // sides of blocked cells move out by r less one unit: a cell centre beside a wall (r =
    // half a cell) lies outside, and a gap as wide as the unit stays open, as on the grid.
    ClipperLib::MinkowskiSum(disc_pattern(std::max(0.0, r - 1.0 / kScale), params.max_error), base, inflated,
                             true);
  } else {
    inflated = std::move(base);
  }
  // The frame: everything outside free_box, out to a margin.
  const Box2 outer = world.expanded(r + 16.0);
  Path frame_out =
      box_path(to_unit(outer.lo.x), to_unit(outer.lo.y), to_unit(outer.hi.x), to_unit(outer.hi.y));
  Path frame_in = box_path(to_unit(set.free_box.lo.x), to_unit(set.free_box.lo.y), to_unit(set.free_box.hi.x),
                           to_unit(set.free_box.hi.y));
  ClipperLib::ReversePath(frame_in);
  ClipperLib::Clipper clip;
  clip.AddPaths(inflated, ClipperLib::ptSubject, true);
  clip.AddPaths(circles, ClipperLib::ptSubject, true);
  clip.AddPath(frame_out, ClipperLib::ptSubject, true);
  clip.AddPath(frame_in, ClipperLib::ptSubject, true);
  Paths merged;
  clip.Execute(ClipperLib::ctUnion, merged, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  ClipperLib::PolyTree tree;
  if (summed) {
    ClipperLib::Clipper c;
    c.AddPaths(merged, ClipperLib::ptSubject, true);
    c.Execute(ClipperLib::ctUnion, tree, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  } else {
    ClipperLib::ClipperOffset shrink(4.0);
    shrink.AddPaths(grown_by_one(merged), ClipperLib::jtMiter, ClipperLib::etClosedPolygon);
    shrink.Execute(tree, -1.0);
  }
  // The frame's outer ring lies beyond the world: marked, kept for inside tests.
  collect_rings(tree, world.expanded(r + 1.0), set.rings);
  return set;
}

std::vector<ObstacleInput> grid_obstacles(const std::vector<std::uint8_t>& blocked, int width, int height,
                                          double cell_size) {
  std::vector<ObstacleInput> out;
  const auto at = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < width && y < height &&
           blocked[std::size_t(y) * std::size_t(width) + std::size_t(x)];
  };
  const auto rect = [&](std::string name, Vec2 lo, Vec2 hi) {
    ObstacleInput in;
    in.name = std::move(name);
    in.shape.kind = ShapeKind::Rect;
    in.shape.min = lo;
    in.shape.max = hi;
    out.push_back(std::move(in));
  };
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width;) {
      if (!at(x, y)) {
        ++x;
        continue;
      }
      int e = x;
      while (e < width && at(e, y)) ++e;
      rect("cells row " + std::to_string(y) + " cells " + std::to_string(x) + ".." + std::to_string(e - 1),
           Vec2{x * cell_size, y * cell_size}, Vec2{e * cell_size, (y + 1) * cell_size});
      x = e;
    }
  }
  // Diagonal contacts: cells (x, y) and (x+1, y+1) (or (x+1, y) and (x, y+1)) blocked,
  // the other two free. A diamond of four units around the shared corner joins them
  // (large enough to survive the closing in build_obstacle_set, with its rounding).
  const double h = 4.0 / kScale;
  for (int y = 0; y + 1 < height; ++y) {
    for (int x = 0; x + 1 < width; ++x) {
      const bool a = at(x, y), b = at(x + 1, y), c = at(x, y + 1), d = at(x + 1, y + 1);
      if ((a && d && !b && !c) || (b && c && !a && !d)) {
        // A diamond, not a square: its vertices lie on the two cells' edges and make
        // no convex corner, so the join adds no graph node.
        const Vec2 c0{(x + 1) * cell_size, (y + 1) * cell_size};
        ObstacleInput in;
        in.name = "cells corner " + fmt_point(c0);
        in.shape.kind = ShapeKind::Polygon;
        in.shape.points = {c0 + Vec2{0, -h}, c0 + Vec2{h, 0}, c0 + Vec2{0, h}, c0 + Vec2{-h, 0}};
        out.push_back(std::move(in));
      }
    }
  }
  return out;
}

bool blocks_class(const Scenario& s, std::size_t terrain, std::size_t movement_class) {
  const TerrainType& t = s.terrains[terrain];
  const std::string& ground_group = s.terrains[0].group;
  return !terrain_cost(s, terrain, movement_class).has_value() ||
         (!crosses_groups(s.classes[movement_class]) && t.group != ground_group);
}

namespace {

// The cells `movement_class` cannot enter in the world's raster (row-major, 1 blocked),
// read from the class's cost grid, the model the grid planners and the path referee
// share: a cell is blocked when the grid gives it no move key, or the key of a terrain
// group other than the ground's (terrain 0, where units stand: moves never cross between
// groups). An intact bridge deck is ground.
std::vector<std::uint8_t> blocked_cells(const PlanningWorld& world, std::size_t movement_class) {
  const TerrainRaster& raster = world.raster();
  const CostGrid& grid = world.grid(movement_class);
  const std::uint16_t ground = grid.cost_of(Surface{}).second;
  std::vector<std::uint8_t> blocks_surface(raster.surface_count());
  for (std::size_t id = 0; id < blocks_surface.size(); ++id) {
    const std::uint16_t key = grid.cost_of(raster.surface(SurfaceId(id))).second;
    blocks_surface[id] = key == 0 || (ground != 0 && key != ground) ? 1 : 0;
  }
  std::vector<std::uint8_t> blocked(raster.cell_count());
  const std::span<const SurfaceId> ids = raster.surface_ids();
  for (std::size_t i = 0; i < blocked.size(); ++i) blocked[i] = blocks_surface[ids[i]];
  return blocked;
}

}  // namespace

std::vector<ObstacleInput> world_obstacles(const PlanningWorld& world, std::size_t movement_class) {
  const TerrainRaster& raster = world.raster();
  return grid_obstacles(blocked_cells(world, movement_class), raster.width, raster.height, raster.cell_size);
}

std::uint64_t world_obstacle_vertices(const PlanningWorld& world, std::size_t movement_class) {
  // The same inputs as world_obstacles, counted: keep the two in step.
  const TerrainRaster& raster = world.raster();
  const std::vector<std::uint8_t> blocked = blocked_cells(world, movement_class);
  const int width = raster.width, height = raster.height;
  const auto at = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < width && y < height &&
           blocked[std::size_t(y) * std::size_t(width) + std::size_t(x)] != 0;
  };
  std::uint64_t vertices = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const bool a = at(x, y);
      if (a && !at(x - 1, y)) vertices += 4;  // a run starts
      if (y + 1 < height && x + 1 < width) {
        const bool b = at(x + 1, y), c = at(x, y + 1), d = at(x + 1, y + 1);
        if ((a && d && !b && !c) || (b && c && !a && !d)) vertices += 4;  // a diamond
      }
    }
  }
  return vertices;
}

}  // namespace pathscope::visgraph

// Ear clipping (Meisters' two-ears theorem: every simple polygon with more than three
// vertices has two non-overlapping ears). A vertex is an ear when it is convex and no
// other remaining vertex lies in the triangle it forms with its neighbours; cutting an
// ear leaves a simple polygon, so repeating n - 3 times yields n - 2 triangles.

#include "render/core/triangulate.hpp"

#include "planner/core/geometry.hpp"

namespace pathscope::render {
namespace {

// Twice the signed area, > 0 for counter-clockwise in a y-up frame.
double signed_area2(std::span<const Vec2> p) {
  double sum = 0;
  for (std::size_t i = 1; i + 1 < p.size(); ++i) sum += cross(p[0], p[i], p[i + 1]);
  return sum;
}

bool is_convex(std::span<const Vec2> p, double orient) {
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (orient * cross(p[(i + n - 1) % n], p[i], p[(i + 1) % n]) < 0) return false;
  }
  return true;
}

// Inclusive: a vertex on the triangle's boundary blocks the ear too, which keeps
// polygons that touch themselves at a vertex from producing overlapping triangles.
bool in_triangle(Vec2 q, Vec2 a, Vec2 b, Vec2 c, double orient) {
  return orient * cross(a, b, q) >= 0 && orient * cross(b, c, q) >= 0 && orient * cross(c, a, q) >= 0;
}

}  // namespace

std::vector<std::uint32_t> triangulate_polygon(std::span<const Vec2> points) {
  std::vector<std::uint32_t> out;
  const std::size_t n = points.size();
  if (n < 3) return out;
  const double area = signed_area2(points);
  if (area == 0) return out;
  const double orient = area > 0 ? 1.0 : -1.0;

  if (is_convex(points, orient)) {
    out.reserve((n - 2) * 3);
    for (std::uint32_t i = 1; i + 1 < n; ++i) out.insert(out.end(), {0u, i, i + 1});
    return out;
  }
  if (n > kMaxEarClippingPoints) return out;

  std::vector<std::uint32_t> prev(n), next(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    prev[i] = static_cast<std::uint32_t>((i + n - 1) % n);
    next[i] = static_cast<std::uint32_t>((i + 1) % n);
  }
  auto unlink = [&](std::uint32_t i) {
    next[prev[i]] = next[i];
    prev[next[i]] = prev[i];
  };

  std::size_t remaining = n;
  std::size_t misses = 0;
  std::uint32_t i = 0;
  out.reserve((n - 2) * 3);
  while (remaining > 3) {
    const std::uint32_t a = prev[i], c = next[i];
    const Vec2 pa = points[a], pb = points[i], pc = points[c];
    const double turn = orient * cross(pa, pb, pc);
    bool cut = false;
    if (turn == 0) {
      // Collinear or repeated: dropping the vertex removes no area.
      cut = true;
    } else if (turn > 0) {
      cut = true;
      for (std::uint32_t v = next[c]; v != a; v = next[v]) {
        const Vec2 q = points[v];
        if (q == pa || q == pb || q == pc) continue;
        if (in_triangle(q, pa, pb, pc, orient)) {
          cut = false;
          break;
        }
      }
      if (cut) out.insert(out.end(), {a, i, c});
    }
    if (cut) {
      unlink(i);
      --remaining;
      misses = 0;
      i = c;
    } else {
      i = c;
      if (++misses > remaining) return {};  // No ear: not simple.
    }
  }
  const std::uint32_t a = prev[i], c = next[i];
  if (cross(points[a], points[i], points[c]) != 0) out.insert(out.end(), {a, i, c});
  return out;
}

}  // namespace pathscope::render

// The visibility graph (seed 003, "Howdy neighbour!": links are the nodes in line of
// sight; seed 004, "Visibility graphs").
//
// Nodes are the convex corners of the merged, inflated obstacles that lie in the box a
// unit's centre may use; concave corners and straight vertices are never on a shortest
// path. A pair of corners is linked when the line through them is tangent to the
// obstacle at both ends (both ring neighbours of each end on one closed side of it) and
// the segment between them enters no obstacle. The tangency test costs a few products
// and rejects about three pairs in four before the sight test walks the bucket grid
// (segment_index.hpp); the sight test stops at the first blocking edge, so in cluttered
// maps it reads a handful of buckets. The build is still quadratic in corners (pairs
// are enumerated, not swept): its time is measured in the README.

#include "planner/visgraph/visibility_graph.hpp"

#include <cstdio>
#include <limits>
#include <utility>

namespace pathscope::visgraph {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

int sgn(double v) { return (v > 0) - (v < 0); }

}  // namespace

VisibilityGraph::VisibilityGraph(ObstacleSet obstacles)
    : obstacles_(std::move(obstacles)), index_(obstacles_.rings) {
  const std::size_t nv = index_.vertex_count();
  node_of_vertex_.assign(nv, kNone);
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (index_.convex(v) && obstacles_.free_box.contains(index_.position(v))) {
      node_of_vertex_[v] = std::uint32_t(corner_.size());
      corner_.push_back(v);
    }
  }
  const std::size_t n = corner_.size();
  // Plain arrays for the quadratic loop: position, and the two ring neighbours relative to it.
  std::vector<Vec2> p(n), a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t v = corner_[i];
    p[i] = index_.position(v);
    a[i] = index_.position(index_.prev(v)) - p[i];
    b[i] = index_.position(index_.next(v)) - p[i];
  }
  const auto tangent = [&](std::size_t i, Vec2 d) {
    return sgn(d.x * a[i].y - d.y * a[i].x) * sgn(d.x * b[i].y - d.y * b[i].x) >= 0;
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  const std::uint64_t tests_before = index_.edge_tests();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const Vec2 d = p[j] - p[i];
      if (!tangent(i, d) || !tangent(j, d)) continue;
      ++stats_.tangent_pairs;
      if (index_.visible(p[i], p[j])) pairs.emplace_back(std::uint32_t(i), std::uint32_t(j));
    }
  }
  stats_.pairs = std::uint64_t(n) * (n > 0 ? n - 1 : 0) / 2;
  stats_.edge_tests = index_.edge_tests() - tests_before;
  link_start_.assign(n + 1, 0);
  for (const auto& [i, j] : pairs) {
    ++link_start_[i + 1];
    ++link_start_[j + 1];
  }
  for (std::size_t i = 1; i <= n; ++i) link_start_[i] += link_start_[i - 1];
  link_.resize(link_start_[n]);
  std::vector<std::uint32_t> fill(link_start_.begin(), link_start_.end() - 1);
  // Pairs come in (i, j) order with i < j, so each node's list ends up sorted: first the
  // smaller ids (as j, in increasing i) and then the larger ones (as i, in increasing j).
  for (const auto& [i, j] : pairs) link_[fill[j]++] = i;
  for (const auto& [i, j] : pairs) link_[fill[i]++] = j;
}

bool VisibilityGraph::links_to(std::uint32_t node, Vec2 q) const {
  const std::uint32_t v = corner_[node];
  const Vec2 o = index_.position(v);
  return index_.tangent(v, q - o) && index_.visible(o, q);
}

std::size_t VisibilityGraph::memory_bytes() const {
  std::size_t bytes = (corner_.size() + node_of_vertex_.size() + link_start_.size() + link_.size()) * 4;
  bytes += index_.vertex_count() * (sizeof(Vec2) + 12) + std::size_t(index_.buckets_x()) * std::size_t(index_.buckets_y()) * 4;
  for (const Ring& r : obstacles_.rings) bytes += r.points.size() * sizeof(Vec2);
  return bytes;
}

VisGraphMap::VisGraphMap(const PlanningWorld& world, std::size_t movement_class, const ObstacleParams& params) {
  const Scenario& s = world.scenario();
  const Box2 box{{0, 0}, {s.world.width, s.world.height}};
  Result<ObstacleSet> set = build_obstacle_set(world_obstacles(world, movement_class), box, params);
  if (!set) {
    error_ = set.error();
    return;
  }
  graph_ = std::make_unique<VisibilityGraph>(std::move(set.value()));
}

const VisGraphMap& VisGraphMap::of(const PlanningWorld& world, std::size_t movement_class,
                                   const ObstacleParams& params) {
  char key[96];
  std::snprintf(key, sizeof key, "visgraph r=%.17g e=%.17g", params.radius, params.max_error);
  return world.derived<VisGraphMap>(key, movement_class, [&](const PlanningWorld& w, std::size_t c) {
    return std::make_unique<VisGraphMap>(w, c, params);
  });
}

bool VisGraphMap::update(const PlanningWorld& world, const WorldChange& change) {
  (void)world;
  // Any re-rasterised cell may come from an obstacle (feature ids need not be unique
  // in a scenario being edited, so the item list alone is not trusted).
  return change.cells.empty() && !change.touches(ItemKind::Tiles) && !change.touches(ItemKind::Feature);
}

}  // namespace pathscope::visgraph

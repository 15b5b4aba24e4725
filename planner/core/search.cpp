#include "planner/core/search.hpp"

#include <cmath>

#include "planner/core/geometry.hpp"

namespace pathscope {

const char* to_string(SearchStatus status) {
  switch (status) {
    case SearchStatus::Idle: return "idle";
    case SearchStatus::Running: return "running";
    case SearchStatus::Found: return "found";
    case SearchStatus::NoPath: return "no_path";
    case SearchStatus::Invalid: return "invalid";
  }
  return "unknown";
}

const PathResult& find_path(Planner& planner, const PathQuery& query) {
  SearchStatus status = planner.start(query);
  while (!is_finished(status)) status = planner.step(std::uint64_t(1) << 20);
  return planner.result();
}

NodeId Planner::node_at(Vec2 point, double tolerance) const {
  if (const std::optional<NodeLattice> lattice = node_lattice()) {
    const double fx = std::floor(point.x / lattice->cell_size);
    const double fy = std::floor(point.y / lattice->cell_size);
    if (!(fx >= 0 && fy >= 0 && fx < lattice->width && fy < lattice->height)) return kNoNode;
    return NodeId(std::uint64_t(fy) * std::uint64_t(lattice->width) + std::uint64_t(fx));
  }
  // Areas first (the smallest holding the point wins: nested cells), then points.
  NodeId best_area = kNoNode;
  double best_area_size = std::numeric_limits<double>::infinity();
  NodeId best_point = kNoNode;
  double best_distance = tolerance * tolerance;
  for (NodeId n = 0; n < node_count(); ++n) {
    const NodeGeometry g = node_geometry(n);
    if (g.shape == NodeShape::Point) {
      const Vec2 d = g.position - point;
      const double dd = d.x * d.x + d.y * d.y;
      if (dd <= best_distance) {
        best_distance = dd;
        best_point = n;
      }
      continue;
    }
    if (!g.bounds.contains(point)) continue;
    if (g.shape == NodeShape::Polygon && !point_in_polygon(point, g.polygon)) continue;
    const Vec2 size = g.bounds.size();
    if (size.x * size.y < best_area_size) {
      best_area_size = size.x * size.y;
      best_area = n;
    }
  }
  return best_area != kNoNode ? best_area : best_point;
}

double polyline_length(const std::vector<Vec2>& points) {
  double total = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Vec2 d = points[i] - points[i - 1];
    total += std::sqrt(d.x * d.x + d.y * d.y);
  }
  return total;
}

}  // namespace pathscope

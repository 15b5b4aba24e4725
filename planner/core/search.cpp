#include "planner/core/search.hpp"

#include <cmath>

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

double polyline_length(const std::vector<Vec2>& points) {
  double total = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Vec2 d = points[i] - points[i - 1];
    total += std::sqrt(d.x * d.x + d.y * d.y);
  }
  return total;
}

}  // namespace pathscope

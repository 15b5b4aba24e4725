// paint_compared_paths: the planner comparison's paths, one colour each, one highlighted.

#include "render/search/comparison_painter.hpp"

#include <vector>

namespace pathscope::render {

void paint_compared_paths(std::span<const ComparedPath> paths, std::optional<std::size_t> highlighted,
                          const LayerSet& layers, DrawList& out) {
  if (!layers.contains(Layer::ComparedPaths)) return;
  const bool one = highlighted && *highlighted < paths.size() && paths[*highlighted].points.size() >= 2;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const ComparedPath& path = paths[i];
    if (path.points.size() < 2 || (one && i == *highlighted)) continue;
    Color color = path.color;
    if (one) color.a = kDimmedAlpha;
    out.polyline(Layer::ComparedPaths, color, {path.points.begin(), path.points.end()}, false,
                 kComparedPathWidth);
  }
  if (!one) return;
  const ComparedPath& chosen = paths[*highlighted];
  Color color = chosen.color;
  color.a = 255;
  out.polyline(Layer::ComparedPaths, color, {chosen.points.begin(), chosen.points.end()}, false,
               kHighlightedPathWidth);
  if (layers.contains(Layer::Labels) && !chosen.label.empty()) {
    out.text(Layer::Labels, color, chosen.points[chosen.points.size() / 2], chosen.label);
  }
}

}  // namespace pathscope::render

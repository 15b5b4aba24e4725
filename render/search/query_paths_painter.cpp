// paint_query_paths: the answers of every query as thin polylines on one layer.

#include "render/search/query_paths_painter.hpp"

namespace pathscope::render {

void paint_query_paths(std::span<const QueryPath> paths, const LayerSet& layers, DrawList& out) {
  if (!layers.contains(Layer::AllPaths)) return;
  const bool labels = layers.contains(Layer::Labels);
  for (const QueryPath& path : paths) {
    if (path.points.size() < 2) continue;
    out.polyline(Layer::AllPaths, query_paths_palette::kPath, {path.points.begin(), path.points.end()}, false,
                 2);
    if (labels && !path.label.empty()) {
      out.text(Layer::Labels, query_paths_palette::kLabel, path.points.back(), path.label);
    }
  }
}

}  // namespace pathscope::render

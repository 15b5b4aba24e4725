#include "app/editor/editor_state.hpp"

namespace pathscope::app {

void EditorState::open_document(std::unique_ptr<Document> next) {
  doc = std::move(next);
  ++doc_serial;
  selection = {};
  active_query = 0;
  const Scenario& s = doc->scenario();
  // Painting defaults that exist in this scenario: the first impassable terrain for
  // obstacles, the first passable non-ground terrain for regions.
  paint.obstacle_terrain = 0;
  paint.region_terrain = s.terrains.size() > 1 ? 1 : 0;
  bool have_obstacle = false, have_region = false;
  for (std::size_t t = 0; t < s.terrains.size(); ++t) {
    bool blocked = true;
    for (const auto& c : s.terrains[t].cost) blocked &= !c.has_value();
    if (blocked && !have_obstacle) {
      paint.obstacle_terrain = t;
      have_obstacle = true;
    }
    if (!blocked && t > 0 && !have_region) {
      paint.region_terrain = t;
      have_region = true;
    }
  }
  paint.brush_terrain = paint.obstacle_terrain;
  paint.query_class = 0;
  if (!s.viewer.layers.empty()) {
    if (auto hinted = render::LayerSet::parse(s.viewer.layers)) layers = *hinted;
  }
}

}  // namespace pathscope::app

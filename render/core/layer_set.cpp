#include "render/core/layer_set.hpp"

namespace pathscope::render {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

LayerSet LayerSet::all() {
  LayerSet set;
  set.bits_.set();
  return set;
}

LayerSet LayerSet::defaults() {
  LayerSet set = all();
  set.set(Layer::CostHeat, false);
  set.set(Layer::Regions, false);
  // A grid planner's structure is every cell and move: shown on request only.
  set.set(Layer::PlannerCells, false);
  set.set(Layer::PlannerDetail, false);
  set.set(Layer::PlannerEdges, false);
  // Every query's path at once crowds the map of an imported benchmark: on request only.
  set.set(Layer::AllPaths, false);
  // The collision heat map covers the map it explains: on request only.
  set.set(Layer::SimDensity, false);
  return set;
}

Result<LayerSet> LayerSet::parse(std::string_view text) {
  LayerSet set;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view name = trim(text.substr(0, comma));
    if (name == "all") {
      set = all();
    } else if (name == "default") {
      set.bits_ |= defaults().bits_;
    } else if (name == "none" || name.empty()) {
      // "none" adds nothing; empty entries ("a,,b") are tolerated.
    } else if (const auto layer = layer_from_string(name)) {
      set.set(*layer);
    } else {
      return make_error(ErrorCode::Value, "layers",
                        "unknown layer '" + std::string(name) + "'; known layers: all, default, none, " +
                            known_layer_names());
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return set;
}

Result<LayerSet> LayerSet::parse(std::span<const std::string> entries) {
  if (entries.empty()) return defaults();
  LayerSet set;
  for (const std::string& entry : entries) {
    Result<LayerSet> part = parse(std::string_view(entry));
    if (!part) return part.error();
    set.bits_ |= part->bits_;
  }
  return set;
}

std::string LayerSet::to_string() const {
  std::string out;
  for (const Layer layer : all_layers()) {
    if (!contains(layer)) continue;
    if (!out.empty()) out += ',';
    out += render::to_string(layer);
  }
  return out;
}

std::string known_layer_names() {
  std::string out;
  for (const Layer layer : all_layers()) {
    if (!out.empty()) out += ", ";
    out += to_string(layer);
  }
  return out;
}

LayerSet map_layers(const LayerSet& layers, bool above_search) {
  LayerSet out;
  for (const Layer layer : all_layers()) {
    const bool above = layer > Layer::Path;
    // The planner's structure and its search are painted by the debugger, not the map.
    const bool search = layer >= Layer::PlannerCells && layer <= Layer::Path;
    // The simulation's layers are painted by the simulation painter.
    const bool sim = layer >= Layer::SimDensity && layer <= Layer::SimPlatoons;
    if (layers.contains(layer) && !search && !sim && above == above_search) out.set(layer);
  }
  return out;
}

}  // namespace pathscope::render

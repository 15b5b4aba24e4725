#include "render/core/draw_list.hpp"

#include "render/core/triangulate.hpp"

#include <glm/common.hpp>

#include <algorithm>
#include <utility>

namespace pathscope::render {
namespace {

constexpr std::array<const char*, kLayerCount> kLayerNames = {
    "tiles",
    "cost_heat",
    "regions",
    "features",
    "roads",
    "bridges",
    "influences",
    "knowledge",
    "planner_cells",
    "planner_detail",
    "planner_edges",
    "planner_aux",
    "closed",
    "open",
    "current",
    "partial_path",
    "planner_corridor",
    "planner_portals",
    "refinement_graph",
    "refinement_region",
    "refinement",
    "all_paths",
    "path",
    "compared_paths",
    "sim_density",
    "sim_passages",
    "sim_paths",
    "sim_predicted",
    "sim_collisions",
    "sim_targets",
    "sim_formation",
    "sim_platoons",
    "units",
    "markers",
    "labels",
};

constexpr std::array<const char*, kPrimitiveKindCount> kKindNames = {
    "line", "polyline", "polygon", "circle", "rect", "text", "image",
};

}  // namespace

std::array<Layer, kLayerCount> all_layers() {
  std::array<Layer, kLayerCount> out{};
  for (std::size_t i = 0; i < kLayerCount; ++i) out[i] = static_cast<Layer>(i);
  return out;
}

const char* to_string(Layer layer) { return kLayerNames[static_cast<std::size_t>(layer)]; }

std::optional<Layer> layer_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kLayerCount; ++i) {
    if (name == kLayerNames[i]) return static_cast<Layer>(i);
  }
  return std::nullopt;
}

const char* to_string(PrimitiveKind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }

std::uint64_t content_hash(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const std::uint8_t b : bytes) {
    h ^= b;
    h *= 1099511628211ull;
  }
  return h;
}

void DrawList::clear() {
  for (auto& l : layers_) l.clear();
}

void DrawList::append(const DrawList& other) {
  for (std::size_t i = 0; i < kLayerCount; ++i) {
    layers_[i].insert(layers_[i].end(), other.layers_[i].begin(), other.layers_[i].end());
  }
}

void DrawList::line(Layer layer, Color color, Vec2 a, Vec2 b, float thickness_px, double world_width) {
  add({layer, color, LinePrim{a, b, thickness_px, world_width}});
}

void DrawList::polyline(Layer layer, Color color, std::vector<Vec2> points, bool closed, float thickness_px,
                        double world_width) {
  if (points.size() < 2) return;
  add({layer, color, PolylinePrim{std::move(points), closed, thickness_px, world_width}});
}

void DrawList::polygon(Layer layer, Color color, std::vector<Vec2> points) {
  if (points.size() < 3) return;
  std::vector<std::uint32_t> triangles = triangulate_polygon(points);
  add({layer, color, PolygonPrim{std::move(points), std::move(triangles)}});
}

void DrawList::circle(Layer layer, Color color, Vec2 center, double radius, bool filled, float thickness_px,
                      float min_radius_px) {
  add({layer, color, CirclePrim{center, radius, min_radius_px, filled, thickness_px}});
}

void DrawList::rect(Layer layer, Color color, Vec2 a, Vec2 b, bool filled, float thickness_px) {
  add({layer, color, RectPrim{glm::min(a, b), glm::max(a, b), filled, thickness_px}});
}

void DrawList::text(Layer layer, Color color, Vec2 anchor, std::string text, TextAlign align) {
  add({layer, color, TextPrim{anchor, std::move(text), align}});
}

void DrawList::image(Layer layer, Color tint, ImagePrim image) {
  if (image.version == 0) image.version = content_hash(image.rgba);
  add({layer, tint, std::move(image)});
}

void DrawList::add(Primitive primitive) {
  layers_[static_cast<std::size_t>(primitive.layer)].push_back(std::move(primitive));
}

std::size_t DrawList::size() const {
  std::size_t n = 0;
  for (const auto& l : layers_) n += l.size();
  return n;
}

std::size_t DrawList::count(Layer layer, PrimitiveKind kind) const {
  const auto& l = this->layer(layer);
  return static_cast<std::size_t>(
      std::count_if(l.begin(), l.end(), [kind](const Primitive& p) { return p.kind() == kind; }));
}

std::size_t DrawList::count(PrimitiveKind kind) const {
  std::size_t n = 0;
  for (const Layer layer : all_layers()) n += count(layer, kind);
  return n;
}

std::vector<const Primitive*> DrawList::find(Layer layer, PrimitiveKind kind) const {
  std::vector<const Primitive*> out;
  for (const Primitive& p : this->layer(layer)) {
    if (p.kind() == kind) out.push_back(&p);
  }
  return out;
}

std::string DrawList::summary() const {
  std::string out;
  for (const Layer layer : all_layers()) {
    if (count(layer) == 0) continue;
    out += to_string(layer);
    out += ':';
    bool first = true;
    for (std::size_t k = 0; k < kPrimitiveKindCount; ++k) {
      const auto kind = static_cast<PrimitiveKind>(k);
      const std::size_t n = count(layer, kind);
      if (n == 0) continue;
      out += first ? " " : ", ";
      out += std::to_string(n) + ' ' + to_string(kind);
      first = false;
    }
    out += '\n';
  }
  return out;
}

}  // namespace pathscope::render

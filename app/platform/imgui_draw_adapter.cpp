// Replays a DrawList through ImDrawList calls. Widths given in metres are converted
// with the camera's zoom; pixel widths are used as is. Concave polygons use the
// triangles computed when they were added, emitted as raw ImGui vertices.

#include "app/platform/imgui_draw_adapter.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdlrenderer.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <variant>

namespace pathscope::app {
namespace {

using render::Camera;

// Screen coordinates far outside any viewport are clamped so floats stay exact enough.
constexpr double kMaxScreen = 1.0e7;

ImVec2 to_im(Vec2 p) {
  return {static_cast<float>(std::clamp(p.x, -kMaxScreen, kMaxScreen)),
          static_cast<float>(std::clamp(p.y, -kMaxScreen, kMaxScreen))};
}

ImU32 to_im(Color c) { return IM_COL32(c.r, c.g, c.b, c.a); }

// Screen-space bounds of a primitive, to skip what is off screen.
struct Box {
  Vec2 lo{1e300, 1e300};
  Vec2 hi{-1e300, -1e300};
  void add(Vec2 p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  void grow(double d) {
    lo -= Vec2(d, d);
    hi += Vec2(d, d);
  }
  bool overlaps(Vec2 a, Vec2 b) const { return lo.x <= b.x && hi.x >= a.x && lo.y <= b.y && hi.y >= a.y; }
};

float stroke_px(float thickness, double world_width, const Camera& cam) {
  return std::max(thickness, static_cast<float>(world_width * cam.zoom()));
}

void fill_triangles(const render::PolygonPrim& poly, ImU32 col, const Camera& cam, ImDrawList& out) {
  const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
  const auto& tri = poly.triangles;
  if (poly.points.size() < 60000) {
    // Shared vertices: one reservation (16-bit indices address < 64k vertices).
    out.PrimReserve(static_cast<int>(tri.size()), static_cast<int>(poly.points.size()));
    const auto base = static_cast<ImDrawIdx>(out._VtxCurrentIdx);
    for (const Vec2& p : poly.points) out.PrimWriteVtx(to_im(cam.to_screen(p)), uv, col);
    for (const std::uint32_t i : tri) out.PrimWriteIdx(static_cast<ImDrawIdx>(base + i));
    return;
  }
  for (std::size_t k = 0; k + 2 < tri.size(); k += 3) {
    out.PrimReserve(3, 3);
    const auto base = static_cast<ImDrawIdx>(out._VtxCurrentIdx);
    for (int j = 0; j < 3; ++j) {
      out.PrimWriteVtx(to_im(cam.to_screen(poly.points[tri[k + j]])), uv, col);
      out.PrimWriteIdx(static_cast<ImDrawIdx>(base + j));
    }
  }
}

// True if b lies on the segment from a to c, strictly inside (exact for cell centres).
bool passes_straight(Vec2 a, Vec2 b, Vec2 c) {
  return (b.x - a.x) * (c.y - a.y) == (b.y - a.y) * (c.x - a.x) && glm::dot(b - a, c - b) > 0;
}

// Whole pixels, so cells that share an edge share it on screen too: no seams, no overlap.
Vec2 snap(Vec2 p) { return glm::floor(p + 0.5); }

}  // namespace

void prepare_imgui_style_for_sdl_renderer() { ImGui::GetStyle().AntiAliasedLinesUseTex = false; }

ImGuiDrawAdapter::ImGuiDrawAdapter(SDL_Renderer* renderer) : renderer_(renderer) {
  SDL_RendererInfo info{};
  if (renderer_ && SDL_GetRendererInfo(renderer_, &info) == 0) {
    // 0 means "no limit" (the software renderer).
    if (info.max_texture_width > 0) max_side_ = std::min(max_side_, info.max_texture_width);
    if (info.max_texture_height > 0) max_side_ = std::min(max_side_, info.max_texture_height);
  }
}

ImGuiDrawAdapter::~ImGuiDrawAdapter() { release(); }

void ImGuiDrawAdapter::release() {
  for (auto& [key, cached] : cache_) destroy(cached);
  cache_.clear();
  kept_.clear();
}

void ImGuiDrawAdapter::destroy(CachedImage& cached) {
  for (Tile& t : cached.tiles) {
    if (t.texture) SDL_DestroyTexture(t.texture);
  }
  cached.tiles.clear();
}

namespace {

bool opaque_pixels(CellRect rect, const std::uint8_t* first, int pitch) {
  for (int y = 0; y < rect.height(); ++y) {
    const std::uint8_t* row = first + std::size_t(y) * std::size_t(pitch);
    for (int x = 0; x < rect.width(); ++x) {
      if (row[4 * x + 3] != 255) return false;
    }
  }
  return true;
}

}  // namespace

void ImGuiDrawAdapter::update_pixels(CachedImage& cached, CellRect rect, const std::uint8_t* first,
                                     int pitch) {
  if (cached.opaque && !opaque_pixels(rect, first, pitch)) {
    cached.opaque = false;
    for (Tile& t : cached.tiles) SDL_SetTextureBlendMode(t.texture, SDL_BLENDMODE_BLEND);
  }
  for (Tile& t : cached.tiles) {
    const CellRect part = rect.intersected(CellRect{t.x, t.y, t.x + t.width, t.y + t.height});
    if (part.empty()) continue;
    const SDL_Rect dst{part.x0 - t.x, part.y0 - t.y, part.width(), part.height()};
    const std::uint8_t* src =
        first + std::size_t(part.y0 - rect.y0) * std::size_t(pitch) + std::size_t(part.x0 - rect.x0) * 4;
    SDL_UpdateTexture(t.texture, &dst, src, pitch);
  }
  pixels_uploaded_ += std::uint64_t(rect.width()) * std::uint64_t(rect.height());
}

ImGuiDrawAdapter::CachedImage& ImGuiDrawAdapter::upload(const render::ImagePrim& image) {
  CachedImage& cached = cache_[image.key];
  const int pitch = image.width * 4;
  if (!cached.tiles.empty() && cached.width == image.width && cached.height == image.height) {
    if (cached.version == image.version) return cached;
    // The textures hold the version this one was changed from: upload the change only.
    const CellRect whole{0, 0, image.width, image.height};
    if (image.base_version != 0 && cached.version == image.base_version &&
        image.changed.intersected(whole) == image.changed) {
      if (!image.changed.empty()) {
        const std::uint8_t* first = image.rgba.data() + std::size_t(image.changed.y0) * std::size_t(pitch) +
                                    std::size_t(image.changed.x0) * 4;
        update_pixels(cached, image.changed, first, pitch);
      }
      cached.version = image.version;
      ++uploads_;
      ++partial_uploads_;
      return cached;
    }
  }
  destroy(cached);
  cached.version = image.version;
  cached.width = image.width;
  cached.height = image.height;
  cached.opaque = opaque_pixels(CellRect{0, 0, image.width, image.height}, image.rgba.data(), pitch);
  for (int y = 0; y < image.height; y += max_side_) {
    for (int x = 0; x < image.width; x += max_side_) {
      Tile t{nullptr, x, y, std::min(max_side_, image.width - x), std::min(max_side_, image.height - y)};
      t.texture =
          SDL_CreateTexture(renderer_, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, t.width, t.height);
      if (!t.texture) continue;  // Out of texture memory: that tile is not drawn.
      // Opaque images (the terrain) skip blending, which the software renderer pays
      // for per pixel.
      SDL_SetTextureBlendMode(t.texture, cached.opaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
      SDL_SetTextureScaleMode(t.texture, SDL_ScaleModeNearest);
      const std::uint8_t* first =
          image.rgba.data() + static_cast<std::size_t>(y) * pitch + std::size_t(x) * 4;
      SDL_UpdateTexture(t.texture, nullptr, first, pitch);
      cached.tiles.push_back(t);
    }
  }
  pixels_uploaded_ += std::uint64_t(image.width) * std::uint64_t(image.height);
  ++uploads_;
  return cached;
}

void ImGuiDrawAdapter::draw_image(const render::ImagePrim& image, std::uint32_t tint, const Camera& cam,
                                  ImDrawList& out) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() < static_cast<std::size_t>(image.width) * image.height * 4) {
    return;
  }
  blit_cached(upload(image), image.min, image.max, tint, cam, out);
}

void ImGuiDrawAdapter::blit_cached(const CachedImage& cached, Vec2 min, Vec2 max, std::uint32_t tint,
                                   const Camera& cam, ImDrawList& out) {
  const Vec2 px_size = (max - min) / Vec2(cached.width, cached.height);
  const Vec2 origin = min;
  for (const Tile& t : cached.tiles) {
    const Vec2 a = cam.to_screen(origin + px_size * Vec2(t.x, t.y));
    const Vec2 b = cam.to_screen(origin + px_size * Vec2(t.x + t.width, t.y + t.height));
    queue_blit(t.texture, float(a.x), float(a.y), float(b.x - a.x), float(b.y - a.y), tint, out);
  }
}

void ImGuiDrawAdapter::queue_blit(SDL_Texture* texture, float x, float y, float w, float h,
                                  std::uint32_t tint, ImDrawList& out) {
  if (blits_frame_ != ImGui::GetFrameCount()) {  // last frame's draw data has been rendered
    blits_.clear();
    blits_frame_ = ImGui::GetFrameCount();
  }
  // An axis-aligned image is a plain scaled copy: SDL_RenderCopy's blitter is much
  // faster than the triangle rasteriser AddImage would go through in the software
  // renderer. A draw-list callback keeps it in order with the other primitives.
  blits_.push_back(Blit{renderer_, texture, x, y, w, h, tint});
  out.AddCallback(&ImGuiDrawAdapter::blit_callback, &blits_.back());
}

void ImGuiDrawAdapter::draw_kept(const std::string& key, const render::DrawList& list, std::uint64_t version,
                                 const Box2& region, const Camera& cam, ImDrawList& out) {
  if (list.empty()) return;
  KeptRaster& kept = kept_[key];
  const double previous_zoom = std::exchange(kept.last_zoom, cam.zoom());
  const std::string image_key = "kept:" + key;
  const Vec2 view_lo = glm::floor(cam.viewport_origin());
  const Vec2 view_hi = glm::ceil(cam.viewport_origin() + cam.viewport_size());
  // The texture serves while it holds this version at this zoom and the camera moved by
  // whole pixels (its picture is then the direct one, moved), with the viewport inside it.
  const auto usable = [&](Vec2& moved) {
    if (!kept.valid || kept.version != version || kept.zoom != cam.zoom()) return false;
    const Vec2 d = cam.to_screen({0, 0}) - kept.offset;
    moved = glm::round(d);
    if (std::abs(d.x - moved.x) > 1e-6 || std::abs(d.y - moved.y) > 1e-6) return false;
    return kept.x0 + moved.x <= view_lo.x && kept.y0 + moved.y <= view_lo.y &&
           kept.x0 + kept.width + moved.x >= view_hi.x && kept.y0 + kept.height + moved.y >= view_hi.y;
  };
  Vec2 moved{0, 0};
  if (!usable(moved)) {
    // While zooming, a texture per frame would cost more than it saves.
    const bool zooming = previous_zoom != 0 && previous_zoom != cam.zoom();
    if (zooming || !rasterise(kept, image_key, list, version, region, cam)) {
      draw(list, cam, out);
      return;
    }
    moved = {0, 0};
  }
  const auto it = cache_.find(image_key);
  if (it == cache_.end()) return;
  out.PushClipRect(to_im(cam.viewport_origin()), to_im(cam.viewport_origin() + cam.viewport_size()), true);
  for (const Tile& t : it->second.tiles) {
    queue_blit(t.texture, float(kept.x0 + moved.x + t.x), float(kept.y0 + moved.y + t.y), float(t.width),
               float(t.height), IM_COL32_WHITE, out);
  }
  out.PopClipRect();
}

bool ImGuiDrawAdapter::rasterise(KeptRaster& kept, const std::string& image_key, const render::DrawList& list,
                                 std::uint64_t version, const Box2& region, const Camera& cam) {
  // The region's pixels, at most the viewport grown by its size on every side (and no
  // larger than a texture may be), at least the viewport.
  const Vec2 view_lo = glm::floor(cam.viewport_origin());
  const Vec2 view_hi = glm::ceil(cam.viewport_origin() + cam.viewport_size());
  const Vec2 view_size = view_hi - view_lo;
  Vec2 lo = view_lo, hi = view_hi;
  if (!region.empty()) {
    lo = glm::min(view_lo, glm::max(glm::floor(cam.to_screen(region.lo)), view_lo - view_size));
    hi = glm::max(view_hi, glm::min(glm::ceil(cam.to_screen(region.hi)), view_hi + view_size));
  }
  if (hi.x - lo.x > max_side_ || hi.y - lo.y > max_side_) {
    lo = view_lo;
    hi = view_hi;
  }
  const int width = int(hi.x - lo.x), height = int(hi.y - lo.y);
  if (width <= 0 || height <= 0 || width > max_side_ || height > max_side_) return false;
  SDL_Texture* target =
      SDL_CreateTexture(renderer_, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, width, height);
  if (!target) return false;
  SDL_Texture* before = SDL_GetRenderTarget(renderer_);
  render::ImagePrim image;
  image.key = image_key;
  image.version = ++rasters_;
  image.width = width;
  image.height = height;
  image.rgba.resize(std::size_t(width) * std::size_t(height) * 4);
  bool drawn = SDL_SetRenderTarget(renderer_, target) == 0;
  if (drawn) {
    // Drawn over transparent black, the texture holds the list's colours multiplied by
    // their alpha, and the alpha of all of them over each other.
    SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(renderer_, 0, 0, 0, 0);
    SDL_RenderClear(renderer_);
    // The same camera with the texture's top-left pixel at the screen's origin.
    Camera shifted = cam;
    shifted.set_viewport(cam.viewport_origin() - lo, cam.viewport_size());
    ImDrawList canvas(ImGui::GetDrawListSharedData());
    canvas._ResetForNewFrame();
    canvas.PushTextureID(ImGui::GetIO().Fonts->TexID);
    canvas.PushClipRect(ImVec2(0, 0), ImVec2(float(width), float(height)));
    draw_clipped(list, shifted, {0, 0}, {width, height}, canvas);
    canvas.PopClipRect();
    canvas.PopTextureID();
    ImDrawList* lists[] = {&canvas};
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = canvas.VtxBuffer.Size;
    data.TotalIdxCount = canvas.IdxBuffer.Size;
    data.DisplayPos = ImVec2(0, 0);
    data.DisplaySize = ImVec2(float(width), float(height));
    data.FramebufferScale = ImVec2(1, 1);
    ImGui_ImplSDLRenderer_RenderDrawData(&data);
    drawn =
        SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_RGBA32, image.rgba.data(), width * 4) == 0;
  }
  SDL_SetRenderTarget(renderer_, before);
  SDL_DestroyTexture(target);
  if (!drawn) return false;
  // Back to straight alpha, which the copy blends over the frame as the primitives would.
  for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
    const unsigned a = image.rgba[i + 3];
    for (std::size_t c = 0; c < 3; ++c) {
      image.rgba[i + c] =
          a == 0 ? 0 : std::uint8_t(std::min(255u, (unsigned(image.rgba[i + c]) * 255u + a / 2) / a));
    }
  }
  upload(image);
  kept.valid = true;
  kept.version = version;
  kept.zoom = cam.zoom();
  kept.offset = cam.to_screen({0, 0});
  kept.x0 = int(lo.x);
  kept.y0 = int(lo.y);
  kept.width = width;
  kept.height = height;
  return true;
}

void ImGuiDrawAdapter::blit_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const Blit& b = *static_cast<const Blit*>(cmd->UserCallbackData);
  const SDL_Rect clip{int(cmd->ClipRect.x), int(cmd->ClipRect.y), int(cmd->ClipRect.z - cmd->ClipRect.x),
                      int(cmd->ClipRect.w - cmd->ClipRect.y)};
  if (clip.w <= 0 || clip.h <= 0) return;
  SDL_RenderSetClipRect(b.renderer, &clip);
  const std::uint8_t r = b.tint & 0xFF, g = (b.tint >> 8) & 0xFF, bl = (b.tint >> 16) & 0xFF,
                     a = b.tint >> 24;
  SDL_SetTextureColorMod(b.texture, r, g, bl);
  SDL_SetTextureAlphaMod(b.texture, a);
  const SDL_FRect dst{b.x, b.y, b.w, b.h};
  SDL_RenderCopyF(b.renderer, b.texture, nullptr, &dst);
}

namespace {

// Straight-alpha "over" of every image of the run in drawing order, tints applied, for
// the pixels of `rect`; RGBA8, rect-sized rows.
std::vector<std::uint8_t> composite(std::span<const render::Primitive* const> run, CellRect rect, int width) {
  const std::size_t n = std::size_t(rect.width()) * std::size_t(rect.height());
  std::vector<float> acc(n * 4, 0.0f);
  for (const render::Primitive* p : run) {
    const auto& img = std::get<render::ImagePrim>(p->shape);
    const float tr = p->color.r / 255.0f, tg = p->color.g / 255.0f, tb = p->color.b / 255.0f,
                ta = p->color.a / 255.0f;
    std::size_t k = 0;
    for (int y = rect.y0; y < rect.y1; ++y) {
      for (int x = rect.x0; x < rect.x1; ++x, ++k) {
        const std::uint8_t* src = &img.rgba[4 * (std::size_t(y) * std::size_t(width) + std::size_t(x))];
        const float sa = src[3] / 255.0f * ta;
        if (sa <= 0) continue;
        float* d = &acc[4 * k];
        const float da = d[3] * (1 - sa);
        const float oa = sa + da;
        d[0] = (src[0] / 255.0f * tr * sa + d[0] * da) / oa;
        d[1] = (src[1] / 255.0f * tg * sa + d[1] * da) / oa;
        d[2] = (src[2] / 255.0f * tb * sa + d[2] * da) / oa;
        d[3] = oa;
      }
    }
  }
  std::vector<std::uint8_t> out(n * 4);
  for (std::size_t i = 0; i < n * 4; ++i) out[i] = std::uint8_t(std::lround(acc[i] * 255.0f));
  return out;
}

}  // namespace

void ImGuiDrawAdapter::draw_composite(std::span<const render::Primitive* const> run, const Camera& cam,
                                      ImDrawList& out) {
  const auto& first = std::get<render::ImagePrim>(run.front()->shape);
  const std::size_t n = std::size_t(first.width) * std::size_t(first.height);
  std::string key = "composite";
  std::vector<std::uint64_t> parts;
  for (const render::Primitive* p : run) {
    const auto& img = std::get<render::ImagePrim>(p->shape);
    if (img.rgba.size() < n * 4) return;
    key += ":" + img.key;
    parts.push_back(img.version);
    parts.push_back(to_im(p->color));
  }
  std::uint64_t version = 1469598103934665603ull;  // FNV-1a over what the pixels depend on
  for (const std::uint64_t v : parts) {
    for (int i = 0; i < 8; ++i) version = (version ^ ((v >> (8 * i)) & 0xFF)) * 1099511628211ull;
  }
  auto it = cache_.find(key);
  const bool same_grid = it != cache_.end() && !it->second.tiles.empty() && it->second.width == first.width &&
                         it->second.height == first.height;
  if (same_grid && it->second.version == version) {
    blit_cached(it->second, first.min, first.max, IM_COL32_WHITE, cam, out);
    return;
  }

  // When every image is the one the texture was composited from or a known change of
  // it, composite and upload the changed pixels only.
  CellRect changed;
  bool partial = same_grid && it->second.parts.size() == parts.size();
  const CellRect whole{0, 0, first.width, first.height};
  for (std::size_t k = 0; partial && k < run.size(); ++k) {
    const auto& img = std::get<render::ImagePrim>(run[k]->shape);
    const std::uint64_t held = it->second.parts[2 * k];
    if (it->second.parts[2 * k + 1] != parts[2 * k + 1]) {
      partial = false;
    } else if (held != img.version) {
      partial =
          img.base_version != 0 && held == img.base_version && img.changed.intersected(whole) == img.changed;
      changed = changed.united(img.changed);
    }
  }
  if (partial) {
    CachedImage& cached = it->second;
    if (!changed.empty()) {
      const std::vector<std::uint8_t> pixels = composite(run, changed, first.width);
      update_pixels(cached, changed, pixels.data(), changed.width() * 4);
    }
    cached.version = version;
    cached.parts = std::move(parts);
    ++uploads_;
    ++partial_uploads_;
    blit_cached(cached, first.min, first.max, IM_COL32_WHITE, cam, out);
    return;
  }

  render::ImagePrim merged;
  merged.key = key;
  merged.version = version;
  merged.width = first.width;
  merged.height = first.height;
  merged.min = first.min;
  merged.max = first.max;
  merged.rgba = composite(run, whole, first.width);
  CachedImage& cached = upload(merged);
  cached.parts = std::move(parts);
  blit_cached(cached, first.min, first.max, IM_COL32_WHITE, cam, out);
}

void ImGuiDrawAdapter::draw(const render::DrawList& list, const Camera& cam, ImDrawList& out) {
  draw_clipped(list, cam, cam.viewport_origin(), cam.viewport_origin() + cam.viewport_size(), out);
}

void ImGuiDrawAdapter::draw_clipped(const render::DrawList& list, const Camera& cam, Vec2 view_lo,
                                    Vec2 view_hi, ImDrawList& out) {
  // Image primitives that follow each other in drawing order and cover the same grid
  // (terrain, cost heat map, regions; closed and open search nodes) are composited into
  // one texture, cached until one of them changes: one blended copy instead of several.
  std::vector<const render::Primitive*> order;
  for (const render::Layer layer : render::all_layers()) {
    for (const render::Primitive& prim : list.layer(layer)) {
      if (prim.color.a != 0) order.push_back(&prim);
    }
  }
  std::map<const render::Primitive*, std::size_t> run_length;  // first of a run -> its length
  std::map<const render::Primitive*, bool> in_run;             // later members of a run
  for (std::size_t i = 0; i < order.size();) {
    const auto* a = std::get_if<render::ImagePrim>(&order[i]->shape);
    std::size_t j = i + 1;
    while (a && j < order.size()) {
      const auto* b = std::get_if<render::ImagePrim>(&order[j]->shape);
      if (!b || b->width != a->width || b->height != a->height || b->min != a->min || b->max != a->max) break;
      in_run[order[j]] = true;
      ++j;
    }
    if (j - i > 1) run_length[order[i]] = j - i;
    i = j;
  }

  out.PushClipRect(to_im(view_lo), to_im(view_hi), true);

  for (const render::Layer layer : render::all_layers()) {
    for (const render::Primitive& prim : list.layer(layer)) {
      if (prim.color.a == 0) continue;
      const ImU32 col = to_im(prim.color);
      std::visit(
          [&](const auto& s) {
            using T = std::decay_t<decltype(s)>;
            Box box;
            if constexpr (std::is_same_v<T, render::LinePrim>) {
              const float w = stroke_px(s.thickness, s.world_width, cam);
              box.add(cam.to_screen(s.a));
              box.add(cam.to_screen(s.b));
              box.grow(w);
              if (box.overlaps(view_lo, view_hi)) {
                out.AddLine(to_im(cam.to_screen(s.a)), to_im(cam.to_screen(s.b)), col, w);
              }
            } else if constexpr (std::is_same_v<T, render::PolylinePrim>) {
              const float w = stroke_px(s.thickness, s.world_width, cam);
              std::vector<ImVec2> pts;
              pts.reserve(s.points.size());
              const std::size_t n = s.points.size();
              for (std::size_t i = 0; i < n; ++i) {
                // Grid paths are long straight runs of cell centres: keep only the corners.
                // Fewer joints means fewer vertices and no seams along the runs.
                if (i > 0 && i + 1 < n && passes_straight(s.points[i - 1], s.points[i], s.points[i + 1]))
                  continue;
                const Vec2 q = cam.to_screen(s.points[i]);
                box.add(q);
                pts.push_back(to_im(q));
              }
              box.grow(w);
              if (box.overlaps(view_lo, view_hi)) {
                out.AddPolyline(pts.data(), static_cast<int>(pts.size()), col,
                                s.closed ? ImDrawFlags_Closed : 0, w);
              }
            } else if constexpr (std::is_same_v<T, render::PolygonPrim>) {
              for (const Vec2& p : s.points) box.add(cam.to_screen(p));
              if (!s.triangles.empty() && box.overlaps(view_lo, view_hi)) fill_triangles(s, col, cam, out);
            } else if constexpr (std::is_same_v<T, render::CirclePrim>) {
              const Vec2 c = cam.to_screen(s.center);
              const float r = std::max(s.min_radius_px, static_cast<float>(s.radius * cam.zoom()));
              box.add(c);
              box.grow(r + s.thickness);
              if (!box.overlaps(view_lo, view_hi)) return;
              if (s.filled) {
                out.AddCircleFilled(to_im(c), r, col);
              } else {
                out.AddCircle(to_im(c), r, col, 0, s.thickness);
              }
            } else if constexpr (std::is_same_v<T, render::RectPrim>) {
              box.add(cam.to_screen(s.min));
              box.add(cam.to_screen(s.max));
              box.grow(s.filled ? 0 : s.thickness);
              if (!box.overlaps(view_lo, view_hi)) return;
              if (s.filled) {
                const Vec2 lo = snap(box.lo);
                const Vec2 hi = glm::max(snap(box.hi), lo + 1.0);  // Never thinner than a pixel.
                out.AddRectFilled(to_im(lo), to_im(hi), col);
              } else {
                // Outline centred on the rectangle's edge.
                out.AddRect(to_im(cam.to_screen(s.min)), to_im(cam.to_screen(s.max)), col, 0, 0, s.thickness);
              }
            } else if constexpr (std::is_same_v<T, render::TextPrim>) {
              Vec2 p = cam.to_screen(s.anchor);
              const ImVec2 size = ImGui::CalcTextSize(s.text.c_str());
              if (s.align == render::TextAlign::Center) p -= Vec2(size.x, size.y) * 0.5;
              box.add(p);
              box.add(p + Vec2(size.x, size.y));
              if (!box.overlaps(view_lo, view_hi)) return;
              // A dark shadow keeps light text readable on light terrain.
              out.AddText(to_im(p + Vec2(1, 1)), IM_COL32(0, 0, 0, prim.color.a * 3 / 4), s.text.c_str());
              out.AddText(to_im(p), col, s.text.c_str());
            } else if constexpr (std::is_same_v<T, render::ImagePrim>) {
              box.add(cam.to_screen(s.min));
              box.add(cam.to_screen(s.max));
              if (!box.overlaps(view_lo, view_hi) || in_run.count(&prim)) return;
              if (auto run = run_length.find(&prim); run != run_length.end()) {
                const auto start = std::find(order.begin(), order.end(), &prim);
                draw_composite(std::span<const render::Primitive* const>(&*start, run->second), cam, out);
              } else {
                draw_image(s, col, cam, out);
              }
            }
          },
          prim.shape);
    }
  }
  out.PopClipRect();
}

}  // namespace pathscope::app

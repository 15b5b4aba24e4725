#pragma once

// The one place where a render::DrawList becomes Dear ImGui drawing: primitives are
// mapped through a render::Camera into an ImDrawList; image primitives become SDL
// textures of the given SDL_Renderer, cached by key and re-uploaded when their version
// changes. Works the same for the window and for headless rendering.

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"

struct ImDrawList;
struct ImDrawCmd;
struct SDL_Renderer;
struct SDL_Texture;

namespace pathscope::app {

/// Sets the ImGui style options the SDL_Renderer backend needs; call once after
/// ImGui::CreateContext(). (Texture-based anti-aliased lines assume bilinear sampling;
/// SDL_Renderer samples nearest, which stripes thick lines.)
void prepare_imgui_style_for_sdl_renderer();

/// Replays draw lists into ImGui draw lists. Owns the textures it creates.
class ImGuiDrawAdapter {
 public:
  /// `renderer` must outlive the adapter (or release() must be called first).
  explicit ImGuiDrawAdapter(SDL_Renderer* renderer);
  ~ImGuiDrawAdapter();
  ImGuiDrawAdapter(const ImGuiDrawAdapter&) = delete;
  ImGuiDrawAdapter& operator=(const ImGuiDrawAdapter&) = delete;

  /// Appends `list`, layer by layer, to `out` in screen coordinates (ImGui points),
  /// clipped to the camera's viewport. Primitives wholly outside it are skipped.
  void draw(const render::DrawList& list, const render::Camera& camera, ImDrawList& out);

  /// Destroys every cached texture.
  void release();

  /// Number of texture uploads so far (for tests of the cache).
  std::uint64_t upload_count() const { return uploads_; }
  /// Number of uploads of part of an image (only the pixels that changed) among them.
  std::uint64_t partial_upload_count() const { return partial_uploads_; }
  /// Pixels uploaded so far.
  std::uint64_t pixels_uploaded() const { return pixels_uploaded_; }

 private:
  // One texture per tile of at most max_side_ x max_side_ pixels of an image.
  struct Tile {
    SDL_Texture* texture = nullptr;
    int x = 0, y = 0, width = 0, height = 0;  // Pixels within the image.
  };
  struct CachedImage {
    std::uint64_t version = 0;
    int width = 0, height = 0;
    bool opaque = true;
    std::vector<std::uint64_t> parts;  // composites: version and tint of each image
    std::vector<Tile> tiles;
  };

  CachedImage& upload(const render::ImagePrim& image);
  // Uploads the pixels of `rect` (image pixels) into the cached textures; `first` is the
  // rect's top-left pixel in a buffer of `pitch` bytes per row.
  void update_pixels(CachedImage& cached, CellRect rect, const std::uint8_t* first, int pitch);
  void destroy(CachedImage& cached);
  void draw_image(const render::ImagePrim& image, std::uint32_t tint, const render::Camera& camera,
                  ImDrawList& out);
  void draw_composite(std::span<const render::Primitive* const> run, const render::Camera& camera,
                      ImDrawList& out);
  void blit_cached(const CachedImage& cached, Vec2 min, Vec2 max, std::uint32_t tint,
                   const render::Camera& camera, ImDrawList& out);

  // An image copy queued into an ImGui draw list, run when the draw data is rendered.
  struct Blit {
    SDL_Renderer* renderer;
    SDL_Texture* texture;
    float x, y, w, h;  // screen rectangle
    std::uint32_t tint;
  };
  static void blit_callback(const ImDrawList* list, const ImDrawCmd* cmd);

  SDL_Renderer* renderer_ = nullptr;
  std::deque<Blit> blits_;  // stable addresses for this frame's callbacks
  int blits_frame_ = -1;
  int max_side_ = 4096;
  std::map<std::string, CachedImage> cache_;
  std::uint64_t uploads_ = 0;
  std::uint64_t partial_uploads_ = 0;
  std::uint64_t pixels_uploaded_ = 0;
};

}  // namespace pathscope::app

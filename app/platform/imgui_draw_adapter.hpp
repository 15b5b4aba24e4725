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

  /// Draws `list` as draw() does, through a texture: for a list kept between frames (the
  /// planner's structure), whose thousands of primitives cost the same to draw in every
  /// frame. The list is rasterised once into a texture covering `region` (world; empty:
  /// the viewport) at the camera's zoom, and later frames copy the texture, while
  /// `version` stays (the caller changes it whenever the list changes) and the camera
  /// keeps its zoom and moves by whole pixels with the viewport inside the texture. While
  /// the zoom changes from one frame to the next the list is drawn directly. `key` names
  /// the texture.
  void draw_kept(const std::string& key, const render::DrawList& list, std::uint64_t version,
                 const Box2& region, const render::Camera& camera, ImDrawList& out);

  /// Destroys every cached texture.
  void release();

  /// Number of texture uploads so far (for tests of the cache).
  std::uint64_t upload_count() const { return uploads_; }
  /// Number of uploads of part of an image (only the pixels that changed) among them.
  std::uint64_t partial_upload_count() const { return partial_uploads_; }
  /// Pixels uploaded so far.
  std::uint64_t pixels_uploaded() const { return pixels_uploaded_; }
  /// Number of times draw_kept() rasterised a list into its texture (for tests of the cache).
  std::uint64_t raster_count() const { return rasters_; }

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

  // A kept list's texture: what it was rasterised from and where it was on the screen.
  struct KeptRaster {
    bool valid = false;
    std::uint64_t version = 0;
    double zoom = 0;     // the camera's zoom then
    Vec2 offset{0, 0};   // the screen position of world (0, 0) then
    int x0 = 0, y0 = 0;  // the texture's top-left pixel on the screen then
    int width = 0, height = 0;
    double last_zoom = 0;  // the zoom of the previous draw_kept() (0: none yet)
  };

  void draw_clipped(const render::DrawList& list, const render::Camera& camera, Vec2 view_lo, Vec2 view_hi,
                    ImDrawList& out);
  // Rasterises `list` into the texture of `kept` (the cache entry `image_key`); false when
  // the renderer cannot (no target textures).
  bool rasterise(KeptRaster& kept, const std::string& image_key, const render::DrawList& list,
                 std::uint64_t version, const Box2& region, const render::Camera& camera);
  void queue_blit(SDL_Texture* texture, float x, float y, float w, float h, std::uint32_t tint,
                  ImDrawList& out);
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
  std::map<std::string, KeptRaster> kept_;
  std::uint64_t rasters_ = 0;
  std::uint64_t uploads_ = 0;
  std::uint64_t partial_uploads_ = 0;
  std::uint64_t pixels_uploaded_ = 0;
};

}  // namespace pathscope::app

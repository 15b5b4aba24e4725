#pragma once

// Drawing without a display: an offscreen canvas (SDL's software renderer on a surface,
// its own Dear ImGui context and draw adapter) that replays a draw list exactly as the
// window does, and writes the pixels as PNG. Used by Export PNG, `pathscope render` and
// the golden-image tests.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "planner/core/result.hpp"
#include "render/core/camera.hpp"
#include "render/core/draw_list.hpp"

struct ImGuiContext;
struct SDL_Renderer;
struct SDL_Surface;

namespace pathscope::app {

class ImGuiDrawAdapter;

/// A draw list kept between frames (the planner's structure), drawn through a texture
/// rasterised once per version (ImGuiDrawAdapter::draw_kept).
struct KeptList {
  const render::DrawList* list = nullptr;  ///< One of the frame's lists.
  std::uint64_t version = 0;               ///< Changes whenever the list does.
  Box2 region;                             ///< The world box it was painted for (empty: the view).
};

/// Largest image side accepted by the canvas and export_png, pixels.
inline constexpr int kMaxExportSide = 16384;

/// An RGBA8 image read back from a canvas: row-major, row 0 at the top.
struct RgbaImage {
  int width = 0;                     ///< Pixels.
  int height = 0;                    ///< Pixels.
  std::vector<std::uint8_t> pixels;  ///< width * height * 4 bytes.
};

/// A width x height pixel canvas with its own ImGui context. It never touches the
/// window's renderer or ImGui context: the caller's current ImGui context is restored
/// after every call, so it may be used in the middle of a window frame.
class OffscreenCanvas {
 public:
  /// A canvas of width x height pixels (1..kMaxExportSide each). Errors (code Io or
  /// Limit, where "export") say why the renderer could not be made.
  static Result<std::unique_ptr<OffscreenCanvas>> create(int width, int height);

  /// Only create() can make the key; the constructor is public for std::make_unique.
  class Key {
    friend class OffscreenCanvas;
    Key() = default;
  };
  explicit OffscreenCanvas(Key);
  ~OffscreenCanvas();
  OffscreenCanvas(const OffscreenCanvas&) = delete;
  OffscreenCanvas& operator=(const OffscreenCanvas&) = delete;

  int width() const { return width_; }    ///< Pixels.
  int height() const { return height_; }  ///< Pixels.

  /// Draws one frame: clears to the window's background colour, replays `list` through
  /// `camera` behind everything (the camera's viewport is set to the whole canvas; its
  /// centre and zoom are kept), then runs `overlay` (ImGui calls such as windows; may be
  /// empty) and renders. Auto-sized ImGui windows need one frame before they fit.
  void draw_frame(const render::DrawList& list, const render::Camera& camera,
                  const std::function<void()>& overlay = {});
  /// As above with several lists, replayed in order (each one layer by layer); the one
  /// that is `kept.list` through its texture.
  void draw_frame(std::span<const render::DrawList* const> lists, const render::Camera& camera,
                  const std::function<void()>& overlay = {}, const KeptList& kept = {});

  /// The pixels of the last frame.
  Result<RgbaImage> read_pixels() const;

  /// The adapter that replays draw lists here (its texture cache lives as long as the
  /// canvas, as in the window).
  const ImGuiDrawAdapter& adapter() const;

  /// Writes the last frame as PNG, atomically (a temporary next to `out`, then renamed).
  /// Errors (code Io) name the file.
  Status write_png(const std::filesystem::path& out) const;

 private:
  int width_ = 0;
  int height_ = 0;
  SDL_Surface* surface_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  ImGuiContext* context_ = nullptr;
  bool backend_ = false;
  std::unique_ptr<ImGuiDrawAdapter> adapter_;
};

/// Draws `list` through `camera` (viewport moved to the image, centre and zoom kept) into
/// a width x height image with no display and writes it to `out` as PNG. Errors name
/// the file or say what failed.
Status export_png(const render::DrawList& list, const render::Camera& camera, int width, int height,
                  const std::filesystem::path& out);

/// The camera for an image of width x height taken from the view `view`: same centre,
/// zoom scaled so that everything visible in the view fits in the image.
render::Camera export_camera(const render::Camera& view, int width, int height);

/// Writes an RGBA8 image as PNG, atomically. Errors (code Io) name the file.
Status write_png_file(const RgbaImage& image, const std::filesystem::path& out);

}  // namespace pathscope::app

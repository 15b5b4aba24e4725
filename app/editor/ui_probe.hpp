#pragma once

// Where named widgets were drawn this frame, for the window test: it reads them from the
// UI state file ($PATHSCOPE_UI_STATE) to put the pointer on a widget as a user would.
// Off (and free) unless the editor enables it.

#include <string>
#include <vector>

namespace pathscope::app {

/// Named screen rectangles of this frame's widgets.
class UiProbe {
 public:
  struct Item {
    std::string name;
    float x0, y0, x1, y1;  ///< window coordinates
  };

  void enable() { enabled_ = true; }
  bool enabled() const { return enabled_; }
  /// Forgets the previous frame's items.
  void begin_frame() { items_.clear(); }
  /// Records ImGui's last item (call right after the widget) under `name`.
  void last_item(const char* name);
  /// Records a rectangle drawn by hand (window coordinates) under `name`.
  void rect(const char* name, float x0, float y0, float x1, float y1) {
    if (enabled_) items_.push_back({name, x0, y0, x1, y1});
  }
  const std::vector<Item>& items() const { return items_; }

 private:
  bool enabled_ = false;
  std::vector<Item> items_;
};

}  // namespace pathscope::app

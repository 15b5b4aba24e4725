#include "app/editor/tools/drag_tool.hpp"

#include "app/editor/tools/tool_support.hpp"

namespace pathscope::app::tools {

void DragTool::on_press(ToolContext& ctx, const PointerEvent& e) {
  if (e.button == 0) drag_.begin(clamp_to_world(ctx.doc.scenario().world, e.world));
}

void DragTool::on_drag(ToolContext& ctx, const PointerEvent& e) {
  if (!drag_.active) return;
  drag_.to = end_ == End::Clamped ? clamp_to_world(ctx.doc.scenario().world, e.world) : e.world;
}

void DragTool::on_release(ToolContext& ctx, const PointerEvent& e) {
  if (!drag_.active) return;
  on_drag(ctx, e);
  drag_.active = false;
  commit(ctx, drag_.from, drag_.to);
}

bool DragTool::on_key(ToolContext&, ToolKey key) {
  if (key != ToolKey::Escape || !drag_.active) return false;
  drag_.active = false;
  return true;
}

void DragTool::on_deactivate(ToolContext&) { drag_.active = false; }

void DragTool::draw_preview(const ToolContext& ctx, render::DrawList& out) const {
  if (drag_.active) preview(ctx, drag_.from, drag_.to, out);
}

}  // namespace pathscope::app::tools

#include "render/sim/crowd_painter.hpp"

namespace pathscope::render {

void paint_crowd(std::span<const CrowdAgent> agents, double dt, CrowdStyle style, const LayerSet& layers,
                 DrawList& out) {
  if (layers.contains(Layer::SimTargets)) {
    for (const CrowdAgent& a : agents) {
      if (!a.has_goal) continue;
      // A cross of the agent's radius, thin: it marks, it does not hide.
      const double r = a.radius;
      out.line(Layer::SimTargets, crowd_palette::kGoal, a.goal - Vec2{r, r}, a.goal + Vec2{r, r}, 1);
      out.line(Layer::SimTargets, crowd_palette::kGoal, a.goal - Vec2{r, -r}, a.goal + Vec2{r, -r}, 1);
    }
  }
  if (!layers.contains(Layer::Units)) return;
  for (const CrowdAgent& a : agents) {
    if (style == CrowdStyle::Alone)
      out.circle(Layer::Units, crowd_palette::kAgentFill, a.position, a.radius, true, 1, 4);
    out.circle(Layer::Units, crowd_palette::kAgent, a.position, a.radius, false, 2, 4);
    if (dt > 0 && a.position != a.previous) {
      // Its velocity over the last step, as far as one second takes it.
      out.line(Layer::Units, crowd_palette::kAgent, a.position, a.position + (a.position - a.previous) / dt,
               1.5f);
    }
  }
}

}  // namespace pathscope::render

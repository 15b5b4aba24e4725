#pragma once

// Exact exposure of a straight segment to circular threat and ally areas (seed 001,
// section 3): how much of the segment lies inside threats and inside safe areas, from
// segment-circle intersections. The overlap rule is the union: a stretch inside two
// threats counts once, and a stretch inside both a threat and an ally counts as threat
// ("better safe than sorry"). With fading, a point at distance d from a threat's centre
// counts 1 - d / radius of a metre per metre (the strongest threat where several overlap).

#include <optional>
#include <span>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope::tactical {

/// A circle in world coordinates (metres).
struct Disc {
  Vec2 center{0, 0};
  double radius = 1;  ///< > 0.
};

/// A stretch [t0, t1] of a segment, in metres from its first end.
struct Span {
  double t0 = 0;
  double t1 = 0;
};

/// The part of segment a-b inside the closed disc, in metres from a; nullopt when they
/// do not meet in more than a point.
std::optional<Span> chord(Vec2 a, Vec2 b, const Disc& disc);

/// Integral over [t0, t1] (metres from a along a-b, inside the disc) of the fading
/// intensity 1 - |p - centre| / radius, in closed form.
double faded_length(Vec2 a, Vec2 b, const Disc& disc, double t0, double t1);

/// What a segment is exposed to, in metres.
struct Exposure {
  double length = 0;  ///< Euclidean length of the segment.
  double threat =
      0;            ///< threatDist: length inside the union of threats (with fading: weighted by intensity).
  double safe = 0;  ///< safeDist: length inside the union of allies and outside every threat.
  friend bool operator==(const Exposure&, const Exposure&) = default;
};

/// One threat's stretches of a segment: its disc and where it counts (obstacles may hide
/// parts of a chord, see threat_field.hpp).
struct ThreatSpans {
  const Disc* disc = nullptr;
  std::vector<Span> spans;
};

/// Exposure of segment a-b to threats and allies (union rule; threat wins over ally).
/// `threat_spans[i]` are the stretches where threat i counts, `ally_spans` every ally's
/// chord; with `fading`, threat stretches are weighted by the fading intensity (the
/// largest of the covering threats'). Scratch vectors are reused by the caller.
Exposure combine_spans(Vec2 a, Vec2 b, std::span<const ThreatSpans> threat_spans,
                       std::span<const Span> ally_spans, bool fading, std::vector<double>& scratch);

/// Exposure of a segment to discs with no obstacles (the plain seed model).
Exposure segment_exposure(Vec2 a, Vec2 b, std::span<const Disc> threats, std::span<const Disc> allies,
                          bool fading);

/// The seed's cost of a segment: (length - threat - safe) * c1 + threat * c2, metres.
inline double exposure_cost(const Exposure& e, double c1, double c2) {
  const double open = e.length - e.threat - e.safe;
  return (open > 0 ? open : 0.0) * c1 + e.threat * c2;
}

}  // namespace pathscope::tactical

// Segment exposure (seed 001, section 3: "Each threatening and safe area intersected
// yields a straight-line distance"; section 5's future work: threats fading with the
// distance from their centre).
//
// A segment a-b is parametrised by arc length t in [0, L]. A disc meets it in one
// interval, from the quadratic |a + t u - c|^2 = r^2. combine_spans() cuts [0, L] at
// every interval end; on each elementary piece the set of covering threats and allies
// is fixed, so the union rule needs no further geometry: a piece under any threat adds
// to `threat`, otherwise a piece under any ally adds to `safe`.
//
// Fading: along the line, the distance to a centre is sqrt((t - s0)^2 + d^2), whose
// integral is 0.5 (x sqrt(x^2 + d^2) + d^2 asinh(x / d)); a piece under one threat is
// integrated exactly. Under several, the intensity is the largest of theirs (union rule)
// and is integrated with 4-point Gauss-Legendre on 16 sub-pieces (the maximum has
// kinks where two intensities cross; the error is below 1e-6 m per metre on the maps
// tested against fine sampling).

#include "planner/tactical/segment_exposure.hpp"

#include <algorithm>
#include <cmath>

namespace pathscope::tactical {
namespace {

double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }

// Antiderivative of sqrt(x^2 + d^2).
double root_integral(double x, double d) {
  const double r = std::sqrt(x * x + d * d);
  return 0.5 * (x * r + (d > 0 ? d * d * std::asinh(x / d) : 0.0));
}

double intensity(Vec2 p, const Disc& disc) {
  const Vec2 v = p - disc.center;
  const double w = 1.0 - std::sqrt(dot(v, v)) / disc.radius;
  return w > 0 ? w : 0.0;
}

bool covers(std::span<const Span> spans, double t) {
  for (const Span& s : spans) {
    if (s.t0 <= t && t <= s.t1) return true;
  }
  return false;
}

}  // namespace

std::optional<Span> chord(Vec2 a, Vec2 b, const Disc& disc) {
  const Vec2 ab = b - a;
  const double len = std::sqrt(dot(ab, ab));
  if (!(len > 0)) return std::nullopt;
  const Vec2 u = ab / len, f = a - disc.center;
  const double fu = dot(f, u);
  const double disc2 = fu * fu - (dot(f, f) - disc.radius * disc.radius);
  if (!(disc2 > 0)) return std::nullopt;
  const double sq = std::sqrt(disc2);
  const double t0 = std::max(0.0, -fu - sq), t1 = std::min(len, -fu + sq);
  if (!(t1 > t0)) return std::nullopt;
  return Span{t0, t1};
}

double faded_length(Vec2 a, Vec2 b, const Disc& disc, double t0, double t1) {
  const Vec2 ab = b - a;
  const double len = std::sqrt(dot(ab, ab));
  if (!(len > 0) || !(t1 > t0)) return 0;
  const Vec2 u = ab / len, f = a - disc.center;
  const double fu = dot(f, u);
  const double d = std::sqrt(std::max(0.0, dot(f, f) - fu * fu));
  // Distance along the line from the foot of the perpendicular: x = t + fu.
  const double integral = root_integral(t1 + fu, d) - root_integral(t0 + fu, d);
  return std::max(0.0, (t1 - t0) - integral / disc.radius);
}

Exposure combine_spans(Vec2 a, Vec2 b, std::span<const ThreatSpans> threat_spans,
                       std::span<const Span> ally_spans, bool fading, std::vector<double>& cuts) {
  Exposure e;
  const Vec2 ab = b - a;
  e.length = std::sqrt(dot(ab, ab));
  if (!(e.length > 0)) return e;
  cuts.clear();
  for (const ThreatSpans& ts : threat_spans) {
    for (const Span& s : ts.spans) {
      cuts.push_back(s.t0);
      cuts.push_back(s.t1);
    }
  }
  if (cuts.empty() && ally_spans.empty()) return e;
  for (const Span& s : ally_spans) {
    cuts.push_back(s.t0);
    cuts.push_back(s.t1);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  const Vec2 u = ab / e.length;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    const double p = cuts[k], q = cuts[k + 1];
    const double mid = 0.5 * (p + q);
    const Disc* only = nullptr;
    int covering = 0;
    for (const ThreatSpans& ts : threat_spans) {
      if (covers(ts.spans, mid)) {
        ++covering;
        only = ts.disc;
      }
    }
    if (covering == 0) {
      if (covers(ally_spans, mid)) e.safe += q - p;
      continue;
    }
    if (!fading) {
      e.threat += q - p;
    } else if (covering == 1) {
      e.threat += faded_length(a, b, *only, p, q);
    } else {
      // The strongest covering threat at each point, Gauss-Legendre on sub-pieces.
      constexpr int kPieces = 16;
      constexpr double kNodes[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                                    0.8611363115940526};
      constexpr double kWeights[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                                      0.3478548451374538};
      const double h = (q - p) / kPieces;
      double sum = 0;
      for (int i = 0; i < kPieces; ++i) {
        const double c = p + (i + 0.5) * h;
        for (int j = 0; j < 4; ++j) {
          const double t = c + 0.5 * h * kNodes[j];
          double w = 0;
          for (const ThreatSpans& ts : threat_spans) {
            if (covers(ts.spans, t)) w = std::max(w, intensity(a + u * t, *ts.disc));
          }
          sum += kWeights[j] * w * 0.5 * h;
        }
      }
      e.threat += sum;
    }
  }
  return e;
}

Exposure segment_exposure(Vec2 a, Vec2 b, std::span<const Disc> threats, std::span<const Disc> allies,
                          bool fading) {
  std::vector<ThreatSpans> ts;
  std::vector<Span> as;
  for (const Disc& d : threats) {
    if (const auto s = chord(a, b, d)) ts.push_back(ThreatSpans{&d, {*s}});
  }
  for (const Disc& d : allies) {
    if (const auto s = chord(a, b, d)) as.push_back(*s);
  }
  std::vector<double> scratch;
  return combine_spans(a, b, ts, as, fading, scratch);
}

}  // namespace pathscope::tactical

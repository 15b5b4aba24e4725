// Internal to the recording (recording*.cpp): the byte writer and reader, the frame codec
// and the decision log's bytes. Not part of the library's interface.
//
// A frame's bytes: a kind byte (1: keyframe, decoded from empty slots; 0: delta, from the
// frame before), the slot count, then each changed slot as (slot gap + 1, a byte of field
// groups, the groups' values) and a 0 to end, then the step's collisions. Doubles are
// written exactly, as the bits that differ from the value before (XOR), without their
// leading zero bytes: a unit that moved a little costs a few bytes a coordinate, one that
// stood still nothing. Then, when the frame or the frame before has platoons, the platoons
// (recording_platoons.cpp); a frame without that part has none, so a run without platoons
// writes no byte more than before platoons were recorded.

#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/sim/recording.hpp"

namespace pathscope::sim::recording_detail {

/// added while the run was recorded).
inline constexpr std::uint64_t kMaxFrameSlots = 200'000;

inline std::uint64_t bits_of(double v) { return std::bit_cast<std::uint64_t>(v); }

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void byte(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      byte(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    byte(static_cast<std::uint8_t>(v));
  }
  void raw(double v) {
    const std::uint64_t b = bits_of(v);
    for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(b >> (8 * i)));
  }
  // Two doubles as their differing bits from `was`: a byte of two byte counts, then the bytes.
  void pair(double a, double was_a, double b, double was_b) {
    const std::uint64_t xa = bits_of(a) ^ bits_of(was_a);
    const std::uint64_t xb = bits_of(b) ^ bits_of(was_b);
    const int na = 8 - std::countl_zero(xa) / 8;
    const int nb = 8 - std::countl_zero(xb) / 8;
    byte(static_cast<std::uint8_t>(na << 4 | nb));
    for (int i = 0; i < na; ++i) byte(static_cast<std::uint8_t>(xa >> (8 * i)));
    for (int i = 0; i < nb; ++i) byte(static_cast<std::uint8_t>(xb >> (8 * i)));
  }
  void vec(Vec2 p, Vec2 was) { pair(p.x, was.x, p.y, was.y); }

 private:
  std::string& out_;
};

class Reader {
 public:
  Reader(const char* data, std::size_t size)
      : begin_(reinterpret_cast<const unsigned char*>(data)), p_(begin_), end_(p_ + size) {}
  bool ok() const { return ok_; }
  bool done() const { return p_ == end_; }
  /// Bytes read so far.
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  std::uint8_t byte() {
    if (p_ == end_) {
      ok_ = false;
      return 0;
    }
    return *p_++;
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = byte();
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok_ = false;
    return 0;
  }
  std::uint32_t u32() {
    const std::uint64_t v = varint();
    if (v > 0xffffffffu) ok_ = false;
    return static_cast<std::uint32_t>(v);
  }
  double raw() {
    std::uint64_t b = 0;
    for (int i = 0; i < 8; ++i) b |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return std::bit_cast<double>(b);
  }
  void pair(double& a, double& b) {
    const std::uint8_t n = byte();
    const int na = n >> 4, nb = n & 15;
    if (na > 8 || nb > 8) {
      ok_ = false;
      return;
    }
    a = std::bit_cast<double>(bits_of(a) ^ low_bytes(na));
    b = std::bit_cast<double>(bits_of(b) ^ low_bytes(nb));
  }
  void vec(Vec2& p) { pair(p.x, p.y); }

 private:
  std::uint64_t low_bytes(int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return v;
  }
  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
  bool ok_ = true;
};

// Sets the fields of `p` a frame keeps, but its path, to `u`'s.
void project_but_path(const SimUnit& u, SimUnit& p);
bool same_vec(Vec2 a, Vec2 b);
bool same_path(const std::vector<Vec2>& a, const std::vector<Vec2>& b);
/// Each unit's position.
std::vector<Vec2> positions(const std::vector<SimUnit>& units);

// Appends one frame: `now` (projected) against `was` (the frame before, or empty slots
// for a keyframe); positions as their difference from the position predicted with
// `before` (positions of the frame before `was`; empty when it is not in `was`'s block).
// `path_changed` (per slot of `now`): its path differs from the one in `was` (not read
// for keyframes). `was_platoons`: the frame before's platoons (not read for keyframes).
void encode_frame(bool key, const std::vector<SimUnit>& was, std::span<const Vec2> before,
                  std::span<const SimUnit> now, std::span<const std::uint8_t> path_changed,
                  std::span<const Collision> was_collisions, std::span<const Collision> collisions,
                  std::span<const PlatoonRun> was_platoons, std::span<const PlatoonRun> platoons,
                  std::string& out);

// Applies one frame's bytes to `units` and sets `collisions` and `platoons` (which hold
// the frame before's unless it is a keyframe); false if they are damaged. `before`: as
// encode_frame's.
bool decode_frame(std::string_view bytes, std::vector<SimUnit>& units, std::span<const Vec2> before,
                  std::vector<Collision>& collisions, std::vector<PlatoonRun>& platoons);

// The platoons' part of a frame (recording_platoons.cpp): the count, then each platoon as
// a byte of changed field groups against the same platoon in `was` (or a platoon of
// defaults) and those groups' values.
void encode_platoons(std::span<const PlatoonRun> was, std::span<const PlatoonRun> now, Writer& w);

// Reads the platoons' part into `platoons` (holding `was`); false if it is damaged. `slots`:
// the frame's slot count, which every unit a platoon names is within.
bool decode_platoons(Reader& r, std::size_t bytes, std::size_t slots, std::vector<PlatoonRun>& platoons);

// The first value of decoded platoons that no simulation makes (a number that is not
// finite), named as "platoons[0].motion.position"; "" when there is none.
std::string platoons_value_error(const std::vector<PlatoonRun>& platoons);

// The first value of decoded units that no simulation makes (a number that is not
// finite), named as "units[3].position"; "" when there is none.
std::string frame_value_error(const std::vector<SimUnit>& units);

// The decisions' bytes in the file: a fixed order of fields per entry.
void write_decisions(std::span<const Decision> decisions, std::string& out);

// What read_decisions returns when every entry was read.
inline constexpr std::size_t kDecisionsRead = ~std::size_t{0};

// Reads the decisions' bytes; kDecisionsRead, or the byte offset of the damaged entry.
std::size_t read_decisions(std::string_view bytes, std::vector<Decision>& out);

/// printf into a string (messages of at most 255 characters).
std::string fmt(const char* format, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

/// A pair of units as a key, in either order.
inline std::uint64_t pair_key(UnitId a, UnitId b) {
  const std::uint32_t lo = std::min(a.index, b.index), hi = std::max(a.index, b.index);
  return static_cast<std::uint64_t>(hi) << 32 | lo;
}

}  // namespace pathscope::sim::recording_detail

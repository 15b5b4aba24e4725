// Moving AI Lab grid benchmarks (N. R. Sturtevant, "Benchmarks for Grid-Based
// Pathfinding", IEEE TCIAIG 4(2), 2012; file formats at movingai.com/benchmarks/formats.html).
//
// .map files
//   A header of four lines, `type octile`, `height H`, `width W` and `map`, then H rows of
//   exactly W characters; row 0 is the top row, cell (x, y) is column x of row y.
//   Accepted: the first three header lines in any order, blank lines inside the header,
//   CRLF line endings, a missing final newline, blank lines after the last row.
//   Rejected: a missing, duplicate or unknown header line, a type other than `octile`,
//   a non-numeric size, a size outside 1..8192, too few or too many rows, a row of the
//   wrong length and any character not in kMovingAiMapChars (". G @ O T S W"; what they
//   mean is listed in movingai_convert.cpp). Rows in messages are numbered from 0 (their
//   y), columns from 1 (as in an editor) together with their x.
//
// .scen files
//   A `version 1` header line (the legacy `version 1.0` is accepted too), then one problem
//   per line: bucket, map, map width, map height, start x, start y, goal x, goal y and
//   optimal length. Fields are split on any whitespace, CRs are stripped and blank lines
//   skipped. A file without a version line is accepted when its first non-blank line
//   has 9 fields; that line is then the first problem. start == goal is allowed.
//   Rejected: another version, a line with other than 9 fields, a non-integer or
//   non-numeric field, a map size outside 1..8192, a coordinate outside the declared map
//   size and a negative or non-finite length. The map field is matched to a .map file by
//   its base name only, in the directory of the .scen file.
//   The printed precision of the length sets the problem's tolerance (movingai_check.cpp).

#include "planner/scenario/movingai_parse.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <system_error>

#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxSide = ScenarioLimits::kMaxGridSide;
constexpr std::size_t kScenFields = 9;

/// Names of the 9 scen fields, for messages.
constexpr std::array<const char*, kScenFields> kScenFieldNames = {
    "bucket", "map", "map_width", "map_height", "start_x", "start_y", "goal_x", "goal_y", "optimal_length"};

/// Per byte: true for the characters a map cell may hold.
constexpr std::array<bool, 256> make_char_table() {
  std::array<bool, 256> table{};
  for (const char c : kMovingAiMapChars) table[static_cast<unsigned char>(c)] = true;
  return table;
}
constexpr std::array<bool, 256> kIsMapChar = make_char_table();

/// Splits text into lines without their "\n" or "\r\n"; a final line needs no newline.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  /// Advances to the next line; false at the end of the text.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }

  /// 1-based number of the current line (0 before the first).
  int number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// Whitespace-separated fields of one line. Keeps the first kMax; `count` counts all.
struct Fields {
  static constexpr std::size_t kMax = 10;
  std::array<std::string_view, kMax> items;
  std::size_t count = 0;
};

Fields split_fields(std::string_view line) {
  Fields fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t begin = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (fields.count < Fields::kMax) fields.items[fields.count] = line.substr(begin, i - begin);
    ++fields.count;
  }
  return fields;
}

bool parse_int(std::string_view text, int& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool parse_double(std::string_view text, double& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::string at_line(const std::string& source, int line) { return source + ":" + std::to_string(line); }

std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string out = "\"";
  out += text.substr(0, kMaxShown);
  if (text.size() > kMaxShown) out += "...";
  out += "\"";
  return out;
}

/// A character for a message: 'X', or \xNN when not printable.
std::string describe_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f) return std::string("'") + c + "'";
  constexpr char kHex[] = "0123456789abcdef";
  return std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
}

Result<std::string> read_whole_file(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return make_error(ErrorCode::Io, path.string(), "is a directory, expected a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::Io, path.string(), "cannot open file");
  std::string data;
  const auto size = fs::file_size(path, ec);
  if (!ec) data.reserve(static_cast<std::size_t>(size));
  std::array<char, 1 << 16> buffer;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    data.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return make_error(ErrorCode::Io, path.string(), "read error");
  return data;
}

/// Base name of a map field, with either '/' or '\\' as the directory separator.
std::string_view map_basename(std::string_view map_field) {
  const std::size_t slash = map_field.find_last_of("/\\");
  return slash == std::string_view::npos ? map_field : map_field.substr(slash + 1);
}

/// Parses one size line of the map header ("height 209").
Status parse_size_line(const Fields& fields, const std::string& where, int& out) {
  const std::string key(fields.items[0]);
  if (fields.count != 2) {
    return make_error(ErrorCode::Parse, where,
                      "expected \"" + key + " <integer>\", got " + std::to_string(fields.count) + " fields");
  }
  if (!parse_int(fields.items[1], out)) {
    return make_error(ErrorCode::Parse, where, key + ": expected an integer, got " + quoted(fields.items[1]));
  }
  if (out <= 0 || out > kMaxSide) {
    return make_error(
        out <= 0 ? ErrorCode::Value : ErrorCode::Limit, where,
        key + ": " + std::to_string(out) + " is out of range, expected 1.." + std::to_string(kMaxSide));
  }
  return Ok{};
}

}  // namespace

char MovingAiMap::at(int x, int y) const {
  assert(x >= 0 && x < width && y >= 0 && y < height);
  return cells[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
}

Result<MovingAiMap> parse_movingai_map(std::string_view text, const std::string& source) {
  MovingAiMap map;
  map.name = fs::path(source).stem().string();
  LineReader lines(text);
  std::string_view line;
  int type_line = 0, height_line = 0, width_line = 0, map_line = 0;

  while (map_line == 0 && lines.next(line)) {
    const Fields fields = split_fields(line);
    if (fields.count == 0) continue;
    const std::string where = at_line(source, lines.number());
    const std::string_view key = fields.items[0];
    int* seen = nullptr;
    if (key == "type") {
      seen = &type_line;
    } else if (key == "height") {
      seen = &height_line;
    } else if (key == "width") {
      seen = &width_line;
    } else if (key == "map") {
      seen = &map_line;
    } else {
      return make_error(ErrorCode::Schema, where,
                        "unknown header line " + quoted(line) +
                            ", expected \"type octile\", \"height H\", \"width W\" or \"map\"");
    }
    if (*seen != 0) {
      return make_error(
          ErrorCode::Schema, where,
          "duplicate \"" + std::string(key) + "\" header line (first on line " + std::to_string(*seen) + ")");
    }
    *seen = lines.number();
    if (key == "type") {
      if (fields.count != 2 || fields.items[1] != "octile") {
        return make_error(ErrorCode::Value, where,
                          "unsupported map type " + quoted(line) + ", expected \"type octile\"");
      }
    } else if (key == "height") {
      if (auto status = parse_size_line(fields, where, map.height); !status) return status.error();
    } else if (key == "width") {
      if (auto status = parse_size_line(fields, where, map.width); !status) return status.error();
    } else if (fields.count != 1) {
      return make_error(ErrorCode::Parse, where, "expected \"map\" alone on its line, got " + quoted(line));
    }
  }

  const std::string header_end = at_line(source, std::max(1, lines.number()));
  if (map_line == 0) {
    return make_error(ErrorCode::Schema, header_end, "missing \"map\" header line before the rows");
  }
  if (type_line == 0) return make_error(ErrorCode::Schema, header_end, "missing \"type octile\" header line");
  if (height_line == 0) return make_error(ErrorCode::Schema, header_end, "missing \"height H\" header line");
  if (width_line == 0) return make_error(ErrorCode::Schema, header_end, "missing \"width W\" header line");

  const auto width = static_cast<std::size_t>(map.width);
  map.cells.resize(width * static_cast<std::size_t>(map.height));
  int y = 0;
  while (lines.next(line)) {
    if (y == map.height) {
      // Trailing blank lines are harmless; anything else is a row too many.
      if (line.empty()) continue;
      return make_error(ErrorCode::Parse, at_line(source, lines.number()),
                        "extra row " + std::to_string(y) + ", expected " + std::to_string(map.height) +
                            " rows (height " + std::to_string(map.height) + ")");
    }
    if (line.size() != width) {
      return make_error(ErrorCode::Parse, at_line(source, lines.number()),
                        "row " + std::to_string(y) + " has " + std::to_string(line.size()) +
                            " cells, expected " + std::to_string(width));
    }
    for (std::size_t x = 0; x < width; ++x) {
      if (!kIsMapChar[static_cast<unsigned char>(line[x])]) {
        return make_error(ErrorCode::Parse, at_line(source, lines.number()),
                          "column " + std::to_string(x + 1) + " (x = " + std::to_string(x) +
                              ", y = " + std::to_string(y) + "): unknown map character " +
                              describe_char(line[x]) + ", expected one of . G @ O T S W");
      }
    }
    std::copy(line.begin(), line.end(),
              map.cells.begin() + static_cast<std::ptrdiff_t>(width * static_cast<std::size_t>(y)));
    ++y;
  }
  if (y < map.height) {
    return make_error(ErrorCode::Parse, at_line(source, std::max(1, lines.number())),
                      "map ends after " + std::to_string(y) + " rows, expected " +
                          std::to_string(map.height) + " (height " + std::to_string(map.height) + ")");
  }
  return map;
}

Result<MovingAiMap> load_movingai_map(const fs::path& path) {
  auto text = read_whole_file(path);
  if (!text) return text.error();
  return parse_movingai_map(*text, path.string());
}

Result<std::vector<MovingAiProblem>> parse_movingai_scen(std::string_view text, const std::string& source) {
  std::vector<MovingAiProblem> problems;
  problems.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
  LineReader lines(text);
  std::string_view line;
  bool first = true;

  while (lines.next(line)) {
    const Fields fields = split_fields(line);
    if (fields.count == 0) continue;
    const std::string_view* f = fields.items.data();
    const int number = lines.number();
    if (first) {
      first = false;
      if (f[0] == "version") {
        if (fields.count != 2 || (f[1] != "1" && f[1] != "1.0")) {
          return make_error(
              ErrorCode::Parse, at_line(source, number),
              "unsupported version line " + quoted(line) + ", expected \"version 1\" or \"version 1.0\"");
        }
        continue;
      }
      if (fields.count != kScenFields) {
        return make_error(ErrorCode::Parse, at_line(source, number),
                          "expected a \"version 1\" header line, got " + quoted(line));
      }
      // No version line, but the line looks like a problem: read it as one.
    }
    if (fields.count != kScenFields) {
      return make_error(ErrorCode::Parse, at_line(source, number),
                        "expected 9 fields (bucket map map_width map_height start_x start_y goal_x goal_y "
                        "optimal_length), got " +
                            std::to_string(fields.count));
    }

    auto field_error = [&](ErrorCode code, std::size_t index, const std::string& what) -> Error {
      return make_error(code, at_line(source, number),
                        "field " + std::to_string(index + 1) + " (" + kScenFieldNames[index] + "): " + what);
    };
    std::array<int, kScenFields> ints{};
    for (std::size_t i : {0u, 2u, 3u, 4u, 5u, 6u, 7u}) {
      if (!parse_int(f[i], ints[i])) {
        return field_error(ErrorCode::Parse, i, "expected an integer, got " + quoted(f[i]));
      }
    }
    for (std::size_t i : {2u, 3u}) {
      if (ints[i] <= 0 || ints[i] > kMaxSide) {
        return field_error(
            ErrorCode::Value, i,
            std::to_string(ints[i]) + " is out of range, expected 1.." + std::to_string(kMaxSide));
      }
    }
    for (std::size_t i : {4u, 5u, 6u, 7u}) {
      const bool is_x = (i % 2) == 0;
      const int limit = is_x ? ints[2] : ints[3];
      if (ints[i] < 0 || ints[i] >= limit) {
        return field_error(ErrorCode::Value, i,
                           std::to_string(ints[i]) + " is outside the map, expected 0.." +
                               std::to_string(limit - 1) + (is_x ? " (map_width " : " (map_height ") +
                               std::to_string(limit) + ")");
      }
    }
    double length = 0;
    if (!parse_double(f[8], length)) {
      return field_error(ErrorCode::Parse, 8, "expected a number, got " + quoted(f[8]));
    }
    if (!std::isfinite(length) || length < 0) {
      return field_error(ErrorCode::Value, 8, "expected a finite length >= 0, got " + quoted(f[8]));
    }

    MovingAiProblem& problem = problems.emplace_back();
    problem.line = number;
    problem.bucket = ints[0];
    problem.map_name = std::string(f[1]);
    problem.map_width = ints[2];
    problem.map_height = ints[3];
    problem.start = {ints[4], ints[5]};
    problem.goal = {ints[6], ints[7]};
    problem.optimal_length = length;
    problem.tolerance = movingai_length_tolerance(f[8]);
  }

  if (first) {
    return make_error(ErrorCode::Parse, at_line(source, std::max(1, lines.number())),
                      "empty file, expected a \"version 1\" header line");
  }
  return problems;
}

Result<std::vector<MovingAiProblem>> load_movingai_scen(const fs::path& path) {
  auto text = read_whole_file(path);
  if (!text) return text.error();
  return parse_movingai_scen(*text, path.string());
}

fs::path scen_map_path(const fs::path& scen_file, const MovingAiProblem& problem) {
  return scen_file.parent_path() / fs::path(std::string(map_basename(problem.map_name)));
}

Result<std::vector<fs::path>> collect_scen_files(const std::vector<fs::path>& inputs) {
  std::vector<fs::path> files;
  for (const fs::path& input : inputs) {
    std::error_code ec;
    const fs::file_status status = fs::status(input, ec);
    if (!fs::exists(status)) {
      return make_error(ErrorCode::Io, input.string(), "no such file or directory");
    }
    if (!fs::is_directory(status)) {
      files.push_back(input);
      continue;
    }
    std::vector<fs::path> found;
    for (fs::directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code entry_ec;
      if (it->path().extension() == ".scen" && it->is_regular_file(entry_ec)) found.push_back(it->path());
    }
    if (ec) return make_error(ErrorCode::Io, input.string(), "cannot list directory: " + ec.message());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace pathscope

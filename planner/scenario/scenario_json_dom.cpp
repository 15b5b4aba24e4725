#include "planner/scenario/scenario_json_dom.hpp"

// JSON text -> DOM through nlohmann's SAX interface, so that problems the DOM parser
// would only place at a byte offset are reported at their JSON path.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "planner/scenario/scenario_io.hpp"
#include "planner/scenario/scenario_json_detail.hpp"

namespace pathscope {

namespace {

using namespace scenario_detail;

// Builds a nlohmann DOM from SAX events while tracking the JSON path of the value being
// parsed, so that a number overflow (1e999), a duplicate key or excessive nesting is
// reported at its field rather than only at a byte offset.
class DomBuilder {
 public:
  DomBuilder(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t& /*text*/) { return put(Json(v)); }
  bool string(Json::string_t& v) { return put(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return put(Json::binary(std::move(v))); }
  bool start_object(std::size_t /*size*/) { return open(Json::object()); }
  bool start_array(std::size_t /*size*/) { return open(Json::array()); }
  bool end_object() {
    frames_.pop_back();
    return true;
  }
  bool end_array() {
    frames_.pop_back();
    return true;
  }

  bool key(Json::string_t& k) {
    Frame& top = frames_.back();
    top.key = k;
    if (top.node->contains(k)) {
      fail(ErrorCode::Schema, locate(source_, path()), "duplicate key " + quote_text(k));
      return false;
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token, const Json::exception& ex) {
    const auto [line, column] = line_and_column(position);
    const std::string at = "line " + std::to_string(line) + ", column " + std::to_string(column);
    if (ex.id == 406) {  // number overflow: a literal such as 1e999 that is no finite double
      fail(ErrorCode::Value, locate(source_, path()),
           "number " + last_token + " is out of range (not a finite double), at " + at);
      return false;
    }
    std::string what = ex.what();
    if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    fail(ErrorCode::Parse, source_ + ":" + std::to_string(line) + ":" + std::to_string(column), what);
    return false;
  }

  Json& root() { return root_; }
  const std::optional<Error>& failure() const { return failure_; }

 private:
  struct Frame {
    Json* node = nullptr;
    std::string key;  // objects: the key of the value being parsed
  };

  // Adds a complete value to the innermost open container (or makes it the root).
  bool put(Json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return true;
    }
    Json& node = *frames_.back().node;
    if (node.is_array()) {
      node.push_back(std::move(v));
    } else {
      node[frames_.back().key] = std::move(v);
    }
    return true;
  }

  bool open(Json container) {
    if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      fail(ErrorCode::Limit, locate(source_, path()),
           "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      return false;
    }
    put(std::move(container));
    Json* child = &root_;
    if (!frames_.empty()) {
      Json& node = *frames_.back().node;
      child = node.is_array() ? &node.back() : &node[frames_.back().key];
    }
    frames_.push_back(Frame{child, {}});
    return true;
  }

  // The path of the value being parsed: the open containers' current children, then
  // the pending element of the innermost one.
  std::string path() const {
    std::string out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Json& node = *frames_[i].node;
      const bool innermost = i + 1 == frames_.size();
      out =
          node.is_array() ? item(out, innermost ? node.size() : node.size() - 1) : field(out, frames_[i].key);
    }
    return out;
  }

  // 1-based line and column of the last character read; `position` counts characters
  // read, so it is one past that character's offset.
  std::pair<std::size_t, std::size_t> line_and_column(std::size_t position) const {
    const std::size_t last = std::min(position == 0 ? 0 : position - 1, text_.size());
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < last; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return {line, last - line_start + 1};
  }

  void fail(ErrorCode code, std::string where, std::string message) {
    if (!failure_) failure_ = make_error(code, std::move(where), std::move(message));
  }

  std::string_view text_;
  const std::string& source_;
  Json root_;
  std::vector<Frame> frames_;
  std::optional<Error> failure_;
};

}  // namespace

Result<Json> parse_json_dom(std::string_view json_text, const std::string& source_name) {
  DomBuilder builder(json_text, source_name);
  const bool parsed = Json::sax_parse(json_text.begin(), json_text.end(), &builder);
  if (!parsed || builder.failure()) {
    if (builder.failure()) return *builder.failure();
    return make_error(ErrorCode::Parse, source_name, "malformed JSON");
  }
  return std::move(builder.root());
}

}  // namespace pathscope

#include "planner/scenario/scenario_io.hpp"

// Scenario files: JSON text <-> Scenario, and the semantic checks shared with editing.
// The format itself is specified in docs/formats.md. This file holds the public entry
// points and the file handling; the work is done in
//   scenario_json_dom    JSON text -> DOM (duplicate keys, depth limit, positions)
//   scenario_json_read   DOM -> Scenario (types, unknown fields, names -> indices)
//   scenario_validate    Scenario -> first problem, in file order
//   scenario_json_write  Scenario -> canonical text
//
// [SECTION] Text (parse, to JSON)
// [SECTION] Files (load, atomic save through write_file_atomically)
//
// Reading and validation stop at the first problem and return it as an Error; no
// exception leaves the library (out of memory is reported as a Limit error).

#include <fstream>
#include <iterator>
#include <new>
#include <system_error>

#include "planner/core/atomic_write.hpp"
#include "planner/scenario/scenario_json_detail.hpp"
#include "planner/scenario/scenario_json_read.hpp"
#include "planner/scenario/scenario_json_write.hpp"

namespace pathscope {

// ---------------------------------------------------------------------------------------
// [SECTION] Text
// ---------------------------------------------------------------------------------------

Result<Scenario> parse_scenario(std::string_view json_text, const std::string& source_name) {
  try {
    Result<Scenario> s = read_scenario_json(json_text, source_name);
    if (!s) return s;
    if (const Status valid = validate_scenario(*s); !valid) {
      Error e = valid.error();
      e.where = scenario_detail::locate(source_name, e.where);
      return e;
    }
    return s;
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::Limit, source_name, "out of memory while reading the scenario");
  }
}

std::string scenario_to_json(const Scenario& scenario) { return write_scenario_json(scenario); }

// ---------------------------------------------------------------------------------------
// [SECTION] Files
// ---------------------------------------------------------------------------------------

Result<Scenario> load_scenario(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const std::string where = path.string();
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    return make_error(ErrorCode::Io, where, "cannot read the file: it does not exist");
  if (fs::is_directory(status))
    return make_error(ErrorCode::Io, where, "cannot read the file: it is a directory");
  if (const std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxScenarioFileBytes) {
    return make_error(ErrorCode::Limit, where,
                      "the file is " + std::to_string(size) + " bytes; the limit is " +
                          std::to_string(kMaxScenarioFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::Io, where, "cannot open the file for reading");
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::Limit, where, "out of memory while reading the file");
  }
  if (in.bad()) return make_error(ErrorCode::Io, where, "read error");
  return parse_scenario(text, where);
}

Status save_scenario(const Scenario& scenario, const std::filesystem::path& path) {
  if (Status valid = validate_scenario(scenario); !valid) {
    // Named as a file's errors are: the file it was not written to, then the field.
    Error e = valid.error();
    e.where = e.where.empty() ? path.string() : path.string() + ": " + e.where;
    e.message = "not saved: " + e.message;
    return e;
  }
  return write_file_atomically(path, scenario_to_json(scenario));
}

}  // namespace pathscope

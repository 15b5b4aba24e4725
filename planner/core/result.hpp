#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace pathscope {

/// What kind of failure an Error reports.
enum class ErrorCode {
  Io,      ///< A file could not be opened, read, written or renamed.
  Parse,   ///< The text is not well-formed (JSON syntax, a .map header, a .scen line).
  Schema,  ///< Well-formed, but a field is missing, unknown or of the wrong type.
  Value,   ///< A field has the right type but a bad value (NaN, out of the world, ...).
  Limit,   ///< A documented size limit is exceeded.
  Query,   ///< A path query is not answerable (start inside a wall, unknown class, ...).
};

/// Short lowercase name of an ErrorCode, for messages and JSON.
const char* to_string(ErrorCode code);

/// A failure to accept external input: what went wrong and where.
struct Error {
  ErrorCode code = ErrorCode::Value;  ///< The kind of failure.
  std::string message;                ///< Human-readable, without the location.
  std::string where;                  ///< File, line or JSON path, e.g. "a.json: features[3].points[2]".

  /// "where: message", or just the message when there is no location.
  std::string to_string() const { return where.empty() ? message : where + ": " + message; }
};

/// Either a value or an Error (a small std::expected stand-in; g++ 12 has none in C++20).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : data_(std::move(error)) {}  // NOLINT: implicit by design

  /// True when a value is held.
  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; asserts ok().
  T& value() & {
    assert(ok());
    return std::get<0>(data_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(data_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The error; asserts !ok().
  const Error& error() const {
    assert(!ok());
    return std::get<1>(data_);
  }

 private:
  std::variant<T, Error> data_;
};

/// A Result with no value: success or an Error.
struct Ok {};
using Status = Result<Ok>;

/// Builds an Error in one expression.
inline Error make_error(ErrorCode code, std::string where, std::string message) {
  return Error{code, std::move(message), std::move(where)};
}

}  // namespace pathscope

#pragma once

// The editor's messages (loads, saves, refused edits), each with a severity, and the
// latest error, pinned until the user dismisses it so that it cannot scroll away.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pathscope::app {

/// How much a message matters: the message panel colours warnings and errors.
enum class Severity { Info, Warning, Error };

/// "info", "warning" or "error".
const char* to_string(Severity severity);

/// One entry of the message panel.
struct Message {
  Severity severity = Severity::Info;
  std::string text;  ///< Errors name the file and the field or line.
  friend bool operator==(const Message&, const Message&) = default;
};

/// A message as the panel shows it: "error: ..." and "warning: ...", info as is.
std::string display_text(const Message& message);

/// The messages of one editor, oldest first, and the pinned error.
class MessageLog {
 public:
  /// Appends a message; an error also becomes the pinned error (replacing an older one).
  void add(Severity severity, std::string text);
  /// Removes every message and dismisses the pinned error.
  void clear();

  /// The latest error until dismiss_error() or clear(); nullptr if none. Later info
  /// and warning messages leave it in place. Valid until the log changes.
  const Message* pinned_error() const { return pinned_ ? &*pinned_ : nullptr; }
  /// Unpins the error (it stays in the list).
  void dismiss_error() { pinned_.reset(); }

  const std::vector<Message>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  /// The newest message; the log must not be empty.
  const Message& back() const { return entries_.back(); }
  std::vector<Message>::const_iterator begin() const { return entries_.begin(); }
  std::vector<Message>::const_iterator end() const { return entries_.end(); }

 private:
  std::vector<Message> entries_;
  std::optional<Message> pinned_;
};

}  // namespace pathscope::app

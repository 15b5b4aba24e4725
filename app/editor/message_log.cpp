#include "app/editor/message_log.hpp"

#include <utility>

namespace pathscope::app {

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "info";
}

std::string display_text(const Message& message) {
  if (message.severity == Severity::Info) return message.text;
  return std::string(to_string(message.severity)) + ": " + message.text;
}

void MessageLog::add(Severity severity, std::string text) {
  entries_.push_back(Message{severity, std::move(text)});
  if (severity == Severity::Error) pinned_ = entries_.back();
}

void MessageLog::clear() {
  entries_.clear();
  pinned_.reset();
}

}  // namespace pathscope::app

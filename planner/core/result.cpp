#include "planner/core/result.hpp"

namespace pathscope {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return "io";
    case ErrorCode::Parse: return "parse";
    case ErrorCode::Schema: return "schema";
    case ErrorCode::Value: return "value";
    case ErrorCode::Limit: return "limit";
    case ErrorCode::Query: return "query";
  }
  return "unknown";
}

}  // namespace pathscope

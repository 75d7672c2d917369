// Transitional: the old name of the shared 400 rest_invalid_param builder, kept only because
// src/api/events/event_filter.cpp (being rewritten) still calls it. New code calls
// invalid_param() of cal/api/pipeline/error.h; delete this header once event_filter.cpp does.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/error.h"

#include <string>

namespace cal {

inline ApiError invalid_event_param(const RequestContext& ctx, const std::string& param, const std::string& message) {
  return invalid_param(ctx, param, message);
}

}  // namespace cal

// The client errors the event handlers raise, in one place so codes and messages stay the same
// on every events route (SPEC §2).
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/error.h"

#include <string>

namespace cal {

// 400 rest_invalid_param naming `param`, with `message` (already localized) as its detail.
inline ApiError invalid_event_param(const RequestContext& ctx, const std::string& param, const std::string& message) {
  ApiError e{400, "rest_invalid_param", format_message(ctx.locale, "Invalid parameter(s): %s", {param})};
  e.param_messages[param] = message;
  return e;
}

// 403 event-password-protected: a single read of a protected event without the password.
inline ApiError event_password_protected(const RequestContext& ctx) {
  return ApiError{403, "event-password-protected", translate(ctx.locale, "The event is password protected.")};
}

}  // namespace cal

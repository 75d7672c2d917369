// The shared client-error builders (see cal/api/pipeline/error.h).
#include "cal/api/pipeline/error.h"

#include "cal/api/pipeline/context.h"
#include "cal/core/i18n/i18n.h"

namespace cal {

ApiError invalid_params(const Locale& locale, std::map<std::string, std::string> messages) {
  std::string list;
  for (const auto& [name, message] : messages) list += (list.empty() ? "" : ", ") + name;
  ApiError e{400, "rest_invalid_param", format_message(locale, "Invalid parameter(s): %s", {list})};
  e.param_messages = std::move(messages);
  return e;
}

ApiError invalid_param(const Locale& locale, const std::string& param, const std::string& message) {
  return invalid_params(locale, {{param, message}});
}

ApiError invalid_param(const RequestContext& ctx, const std::string& param, const std::string& message) {
  return invalid_param(ctx.locale, param, message);
}

ApiError forbidden(const Locale& locale, int status) {
  return ApiError{status, "rest_forbidden", translate(locale, "Sorry, you are not allowed to do that.")};
}

ApiError forbidden(const RequestContext& ctx) { return forbidden(ctx.locale); }

}  // namespace cal

// 501 rest_not_implemented for routes registered before their handler exists, so the route
// table, the index and the router stay complete meanwhile.
#include "cal/api/error.h"
#include "cal/api/handlers.h"

namespace cal {

Response not_implemented(RequestContext& ctx) {
  throw ApiError{501, "rest_not_implemented", translate(ctx.locale, "This route is not implemented yet.")};
}

}  // namespace cal

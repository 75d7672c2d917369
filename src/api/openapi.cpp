// The OpenAPI document (SPEC §8.2): registered, not built yet.
#include "cal/api/handlers.h"

namespace cal {

Response get_openapi_document(RequestContext& ctx) { return not_implemented(ctx); }

}  // namespace cal

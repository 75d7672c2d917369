// Lost-update protection: a write of one record (PUT, PATCH, POST or DELETE on a route
// with a path variable) that carries If-Match goes ahead only while the record is what the
// client read. The check runs inside the write's own transaction, after locking the record the
// way every write of it does, so no other write can land between the check and the write.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/routes.h"

namespace cal {

// Call inside the transaction that then runs the write. Locks the record and renders it as the
// route's GET would for this caller (in the view context, and in the edit context when the caller
// may read that); returns when If-Match holds "*" and the record exists, or names the strong
// ETag of one of those renderings. Otherwise throws ApiError 412 rest_precondition_failed.
// Routes without a GET endpoint are not checked.
void check_if_match(const Route& route, const RouteMatch& match, RequestContext& ctx);

}  // namespace cal

// What a handler gets: the request, its validated parameters, the caller, the database, the
// configuration, the language and the absolute URL bases. Handlers are plain functions of it, so
// unit tests can call them without a web server. Types only: there is nothing to implement, so no
// context.cpp.
#pragma once

#include "cal/api/access/permissions.h"
#include "cal/api/pipeline/params.h"
#include "cal/cache/fragment_cache.h"
#include "cal/core/config.h"
#include "cal/core/i18n/i18n.h"
#include "cal/http/request.h"
#include "cal/store/db.h"

#include <string>

namespace cal {

inline constexpr std::string_view kNamespace = "cal/events/v1";

struct RequestContext {
  const Request& request;
  const Params& params;
  const Caller& caller;
  Db& db;
  const Config& config;
  const Locale& locale;
  std::string site_url;   // no trailing slash, e.g. "https://example.org"
  std::string rest_root;  // no trailing slash, e.g. "https://example.org/api"
  FragmentUse fragments;  // rendered records to reuse (cal/api/events/event_fragments.h); none by default
  // The data version the request read found no scheduled post due, and none due within a minute
  // (cal/store/post_visibility.h); false when it read none (CGI, no cache).
  bool no_scheduled_due = false;

  // "{rest_root}/cal/events/v1"
  std::string ns_url() const { return rest_root + "/" + std::string(kNamespace); }
};

using Handler = Response (*)(RequestContext&);

}  // namespace cal

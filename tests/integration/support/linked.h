// Helpers for the venue and organizer integration tests: the two resources described as data
// (so one test can run over both), users of each role created once per run, record creation,
// and JSON text building for request bodies.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

#include "support/client.h"

namespace caltest {

// A linked resource as the tests see it.
struct LinkedResource {
  const char* collection;   // "/cal/events/v1/venues"
  const char* name_key;     // "venue": the name field in input and output
  const char* kind;         // "venue": in error codes
  const char* list_key;     // "venues": the list envelope's array
  const char* public_base;  // "venue": {site}/venue/{slug}/
};

extern const LinkedResource kVenueResource;
extern const LinkedResource kOrganizerResource;
// Both, for tests that hold for venues and organizers alike.
extern const LinkedResource kLinkedResources[2];

constexpr const char* kEventsPath = "/cal/events/v1/events";

// A test user of `role` ("administrator" gives the stack's admin), created once per run.
struct RoleUser {
  std::string token;
  long long id = 0;
  std::string auth() const { return bearer(token); }
};
const RoleUser& role_user(std::string_view role);

// `text` as a JSON string literal, quotes included.
std::string json_string(std::string_view text);

// `{"<name_key>": name, <more>}` as JSON text.
std::string body_with(const LinkedResource& res, const std::string& name, const std::string& more = "");
// The detail field each resource has besides its name ("city", "phone"), for generic tests.
const char* detail_field(const LinkedResource& res);

// POSTs `{"<name_key>": name, <more>}` to the collection as `auth` (an Authorization header);
// CHECKs 201 and returns the record ({} on failure, with the failure recorded).
rapidjson::Document create_record(const LinkedResource& res, const std::string& name, const std::string& more,
                                  const std::string& auth);
// Same with the admin, returning only the id (0 on failure).
long long create_record_id(const LinkedResource& res, const std::string& name, const std::string& more = "");

// The id of a record (0 when absent).
long long id_of(const rapidjson::Value& record);
// "{collection}/{id}" and "{collection}/by-slug/{slug}".
std::string item_path(const LinkedResource& res, long long id);
std::string slug_path(const LinkedResource& res, const std::string& slug);

// The ids of the list at `path` (e.g. "...?search=x"), in order; CHECKs 200.
std::vector<long long> list_ids(const LinkedResource& res, const std::string& path,
                                const std::vector<std::string>& headers = {});

// Creates an event (admin) with `more` fields appended to title/start/end; returns its id, or 0
// when events cannot be created (the failure is recorded).
long long create_event(const std::string& start, const std::string& end, const std::string& more,
                       const std::string& auth = "");

}  // namespace caltest

// Integration tests of venues and organizers together with events: the `event`, `has_events`
// and `only_with_upcoming` list filters (docs/api.md §4.2), unlinking on trash and delete (docs/api.md §5),
// and an event's inline venue/organizer data (created, or reused by the dedupe rule).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/linked.h"

namespace caltest {
namespace {

constexpr const char* kFuture = "2099-06-01 10:00:00";
constexpr const char* kFutureEnd = "2099-06-01 12:00:00";
constexpr const char* kPast = "2020-06-01 10:00:00";
constexpr const char* kPastEnd = "2020-06-01 12:00:00";

std::string event_path(long long id) { return std::string(kEventsPath) + "/" + std::to_string(id); }

// The organizer ids of an event record, in order.
std::vector<long long> organizer_ids(const rapidjson::Value& event) {
  std::vector<long long> ids;
  const rapidjson::Value* list = find(event, {"organizer"});
  if (list && list->IsArray())
    for (const auto& o : list->GetArray()) ids.push_back(id_of(o));
  return ids;
}

TEST_CASE("the event filter lists the venue and organizers of one event") {
  const std::string w = unique("levent");
  const long long venue = create_record_id(kVenueResource, w + " venue");
  const long long other_venue = create_record_id(kVenueResource, w + " other");
  const long long org_b = create_record_id(kOrganizerResource, w + " b");
  const long long org_a = create_record_id(kOrganizerResource, w + " a");
  const long long event = create_event(kFuture, kFutureEnd,
                                       "\"venue\":" + std::to_string(venue) + ",\"organizer\":[" +
                                           std::to_string(org_b) + "," + std::to_string(org_a) + "]");
  REQUIRE(event != 0);
  CHECK(other_venue != 0);
  const std::string q = "?event=" + std::to_string(event);
  CHECK(list_ids(kVenueResource, kVenueResource.collection + q) == std::vector<long long>{venue});
  CHECK(list_ids(kOrganizerResource, kOrganizerResource.collection + q) ==
        std::vector<long long>{org_a, org_b});
  // An event without links: empty lists.
  const long long bare = create_event(kFuture, kFutureEnd, "");
  CHECK(list_ids(kVenueResource, std::string(kVenueResource.collection) + "?event=" + std::to_string(bare))
            .empty());
  // A venue id is not an event.
  CHECK(error_mismatch(get(std::string(kVenueResource.collection) + "?event=" + std::to_string(venue)), 400,
                       "rest_invalid_param") == "");
}

TEST_CASE("has_events keeps records linked to a live event, false the others") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string w = unique("lhas");
    const long long live = create_record_id(res, w + " a live");
    const long long draft_only = create_record_id(res, w + " b draft");
    const long long unlinked = create_record_id(res, w + " c none");
    const long long past = create_record_id(res, w + " d past");
    const std::string link = std::string(res.kind) == "venue" ? "\"venue\":" : "\"organizer\":";
    REQUIRE(create_event(kFuture, kFutureEnd, link + std::to_string(live)) != 0);
    REQUIRE(create_event(kFuture, kFutureEnd, link + std::to_string(draft_only) + ",\"status\":\"draft\"") !=
            0);
    REQUIRE(create_event(kPast, kPastEnd, link + std::to_string(past)) != 0);
    const std::string q = std::string(res.collection) + "?search=" + w;
    CHECK(list_ids(res, q + "&has_events=true") == std::vector<long long>{live, past});
    CHECK(list_ids(res, q + "&has_events=false") == std::vector<long long>{draft_only, unlinked});
    CHECK(list_ids(res, q).size() == 4);
  }
}

TEST_CASE("only_with_upcoming keeps records linked to an upcoming event the caller can see") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string w = unique("lup");
    const long long upcoming = create_record_id(res, w + " a upcoming");
    const long long past = create_record_id(res, w + " b past");
    const long long hidden = create_record_id(res, w + " c hidden");
    const long long none = create_record_id(res, w + " d none");
    const std::string link = std::string(res.kind) == "venue" ? "\"venue\":" : "\"organizer\":";
    REQUIRE(create_event(kFuture, kFutureEnd, link + std::to_string(upcoming)) != 0);
    REQUIRE(create_event(kPast, kPastEnd, link + std::to_string(past)) != 0);
    REQUIRE(create_event(kFuture, kFutureEnd, link + std::to_string(hidden) + ",\"status\":\"draft\"") != 0);
    const std::string q = std::string(res.collection) + "?search=" + w;
    CHECK(list_ids(res, q + "&only_with_upcoming=true") == std::vector<long long>{upcoming});
    CHECK(list_ids(res, q + "&only_with_upcoming=true", {role_user("subscriber").auth()}) ==
          std::vector<long long>{upcoming});
    CHECK(list_ids(res, q + "&only_with_upcoming=true", {bearer(admin_token())}) ==
          std::vector<long long>{upcoming, hidden});
    CHECK(list_ids(res, q + "&only_with_upcoming=false") ==
          std::vector<long long>{upcoming, past, hidden, none});
    const HttpResponse r = get(q + "&only_with_upcoming=true&per_page=1");
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(r.json()["total"].GetInt64() == 1);
  }
}

TEST_CASE("a venue trashed or deleted while linked leaves its events with venue []") {
  for (const bool force : {false, true}) {
    CAPTURE(force);
    const long long venue = create_record_id(kVenueResource, unique("Doomed Venue"));
    const long long event = create_event(kFuture, kFutureEnd, "\"venue\":" + std::to_string(venue));
    REQUIRE(event != 0);
    HttpResponse e = get(event_path(event));
    REQUIRE_MESSAGE(e.status == 200, describe(e));
    CHECK(id_of(e.json()["venue"]) == venue);
    const HttpResponse r =
        del(item_path(kVenueResource, venue) + (force ? "?force=true" : ""), {bearer(admin_token())});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    e = get(event_path(event));
    REQUIRE_MESSAGE(e.status == 200, describe(e));
    const rapidjson::Document doc = e.json();
    REQUIRE(find(doc, {"venue"}) != nullptr);
    CHECK(doc["venue"].IsArray());
    CHECK(doc["venue"].Size() == 0);
    CHECK(list_ids(kVenueResource, std::string(kVenueResource.collection) + "?event=" + std::to_string(event))
              .empty());
  }
}

TEST_CASE("an organizer trashed or deleted while linked leaves its events") {
  for (const bool force : {false, true}) {
    CAPTURE(force);
    const long long keep = create_record_id(kOrganizerResource, unique("Kept Organizer"));
    const long long doomed = create_record_id(kOrganizerResource, unique("Doomed Organizer"));
    const long long event = create_event(
        kFuture, kFutureEnd, "\"organizer\":[" + std::to_string(doomed) + "," + std::to_string(keep) + "]");
    REQUIRE(event != 0);
    CHECK(organizer_ids(get(event_path(event)).json()) == std::vector<long long>{doomed, keep});
    const HttpResponse r =
        del(item_path(kOrganizerResource, doomed) + (force ? "?force=true" : ""), {bearer(admin_token())});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(organizer_ids(get(event_path(event)).json()) == std::vector<long long>{keep});
  }
}

TEST_CASE("an event's inline venue data creates a venue once and then reuses it") {
  const std::string name = unique("Inline Venue");
  const std::string data =
      "{\"venue\":" + json_string(name) + ",\"city\":\"Inline City\",\"country\":\"US\",\"state\":\"VT\"}";
  const long long first = create_event(kFuture, kFutureEnd, "\"venue\":" + data);
  const long long second = create_event(kFuture, kFutureEnd, "\"venue\":" + data);
  REQUIRE(first != 0);
  REQUIRE(second != 0);
  const rapidjson::Document a = get(event_path(first)).json();
  const rapidjson::Document b = get(event_path(second)).json();
  const long long venue = id_of(a["venue"]);
  CHECK(venue != 0);
  CHECK(id_of(b["venue"]) == venue);
  CHECK(string_at(a, {"venue", "city"}) == "Inline City");
  CHECK(string_at(a, {"venue", "stateprovince"}) == "VT");
  // By {"id": N} too, and a different field makes a new venue.
  const long long third =
      create_event(kFuture, kFutureEnd, "\"venue\":{\"id\":" + std::to_string(venue) + "}");
  CHECK(id_of(get(event_path(third)).json()["venue"]) == venue);
  const long long fourth = create_event(
      kFuture, kFutureEnd, "\"venue\":{\"venue\":" + json_string(name) + ",\"city\":\"Elsewhere\"}");
  const long long other = id_of(get(event_path(fourth)).json()["venue"]);
  CHECK(other != 0);
  CHECK(other != venue);
}

TEST_CASE("an event's organizer input mixes ids and data, in order") {
  const long long existing = create_record_id(kOrganizerResource, unique("Listed Organizer"));
  const std::string name = unique("Inline Organizer");
  const long long event =
      create_event(kFuture, kFutureEnd,
                   "\"organizer\":[{\"organizer\":" + json_string(name) + ",\"email\":\"in@example.org\"}," +
                       std::to_string(existing) + "]");
  REQUIRE(event != 0);
  const rapidjson::Document doc = get(event_path(event)).json();
  const std::vector<long long> ids = organizer_ids(doc);
  REQUIRE(ids.size() == 2);
  CHECK(ids[1] == existing);
  CHECK(string_at(doc, {"organizer", "0", "organizer"}) == name);
  CHECK(string_at(doc, {"organizer", "0", "email"}) == "in@example.org");
}

TEST_CASE("an event's bad venue or organizer input is 400") {
  const std::string admin = bearer(admin_token());
  const std::string base =
      "{\"title\":\"x\",\"start_date\":\"2099-01-01 10:00\",\"end_date\":\"2099-01-01 11:00\",";
  for (const std::string& more :
       {std::string("\"venue\":999999999"), std::string("\"organizer\":[999999999]"),
        std::string("\"venue\":{\"city\":\"no name\"}"),
        std::string("\"organizer\":[{\"organizer\":\"x\",\"email\":\"bad\"}]"),
        std::string("\"venue\":true")}) {
    CAPTURE(more);
    CHECK(error_mismatch(post_json(kEventsPath, base + more + "}", {admin}), 400, "rest_invalid_param") ==
          "");
  }
}

}  // namespace
}  // namespace caltest

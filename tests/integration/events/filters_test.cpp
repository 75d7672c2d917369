// Integration tests of the GET /events filters that reach past the default view (docs/api.md §4.1):
// include (ids only, hidden events too, dates ignored), hide_from_listings, post_parent and
// ticketed, each with valid and invalid values.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;
using Ids = std::vector<long long>;

TEST_CASE("include: only those ids, hidden ones too, date filters ignored") {
  const std::string word = unique("include");
  const long long past = create_id(word + " past", "2001-01-01 10:00", "2001-01-01 11:00");
  const long long far = create_id(word + " far", "2091-01-01 10:00", "2091-01-01 11:00");
  const long long hidden =
      create_id(word + " hidden", "+3 days 10:00", "+3 days 11:00", "\"hide_from_listings\":true");
  const long long normal = create_id(word + " normal", "+3 days 11:00", "+3 days 12:00");
  CHECK(list_ids("search=" + word) == Ids{normal});
  const std::string inc = std::to_string(far) + "," + std::to_string(past) + "," + std::to_string(hidden) +
                          "," + std::to_string(normal) + ",999999999";
  CHECK(list_ids("include=" + enc(inc)) == Ids{past, hidden, normal, far});
  CHECK(list_ids("include=" + enc(inc) + "&start_date=2050-01-01&end_date=2050-01-02&strict_dates=true") ==
        Ids{past, hidden, normal, far});
  CHECK(list_ids("include[]=" + std::to_string(past) + "&include[]=" + std::to_string(far)) ==
        Ids{past, far});
  // Other filters still apply.
  CHECK(list_ids("include=" + enc(inc) + "&search=" + enc(word + " normal")) == Ids{normal});
}

TEST_CASE("hide_from_listings events never appear unless included") {
  const std::string word = unique("hidden");
  const long long h = create_id(word, "+3 days 10:00", "+3 days 11:00", "\"hide_from_listings\":true");
  CHECK(list_ids("search=" + word).empty());
  CHECK(list_ids("search=" + word, {admin()}).empty());
  CHECK(list_ids("search=" + word + "&starts_after=2000-01-01").empty());
  CHECK(list_ids("include=" + std::to_string(h)) == Ids{h});
  // A single read still works.
  CHECK(get(path_of(h)).status == 200);
}

TEST_CASE("post_parent: an existing event id, else 400") {
  const std::string word = unique("parent");
  const long long parent = create_id(word, "+3 days 10:00", "+3 days 11:00");
  const HttpResponse r =
      get(std::string(kEvents) + "?search=" + word + "&post_parent=" + std::to_string(parent));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(ids_in(r.json()).empty());  // no event names it as parent
  CHECK(error_mismatch(get(std::string(kEvents) + "?post_parent=999999999"), 400, "rest_invalid_param") ==
        "");
  const rapidjson::Document v = create(
      event_body(word + " v", "+3 days 10:00", "+3 days 11:00", "\"venue\":{\"venue\":\"PV " + word + "\"}"));
  CHECK(
      error_mismatch(get(std::string(kEvents) + "?post_parent=" + std::to_string(int_at(v, {"venue", "id"}))),
                     400, "rest_invalid_param") == "");
}

TEST_CASE("ticketed: true gives nothing, false restricts nothing") {
  const std::string word = unique("ticketed");
  const long long e = create_id(word, "+3 days 10:00", "+3 days 11:00");
  CHECK(list_ids("search=" + word + "&ticketed=true").empty());
  CHECK(list_ids("search=" + word + "&ticketed=false") == Ids{e});
  const rapidjson::Document d = get(std::string(kEvents) + "?search=" + word + "&ticketed=true").json();
  CHECK(int_at(d, {"total"}) == 0);
}

}  // namespace
}  // namespace caltest

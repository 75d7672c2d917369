// Integration tests of status visibility per role (docs/api.md §4.1, §7, §2): who sees which statuses
// in lists and single reads, the `status` filter per role, trash only on request, future events
// turning public when their date passes, and the 403/404 codes of single reads.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;
using Ids = std::vector<long long>;

struct Fixture {
  std::string word;
  std::string editor, author_a, author_b, contributor, subscriber;
  long long published = 0, draft = 0, a_draft = 0, b_pending = 0, c_draft = 0, future = 0, trashed = 0,
            private_event = 0;
};

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture x;
    x.word = unique("vis");
    x.editor = bearer(create_user("ved", "editor"));
    x.author_a = bearer(create_user("vaa", "author"));
    x.author_b = bearer(create_user("vab", "author"));
    x.contributor = bearer(create_user("vco", "contributor"));
    x.subscriber = bearer(create_user("vsu", "subscriber"));
    const std::string& w = x.word;
    x.published = create_id(w + " published", "+3 days 10:00", "+3 days 11:00");
    x.draft = create_id(w + " draft", "+3 days 11:00", "+3 days 12:00", "\"status\":\"draft\"");
    x.a_draft =
        create_id(w + " adraft", "+3 days 12:00", "+3 days 13:00", "\"status\":\"draft\"", x.author_a);
    x.b_pending =
        create_id(w + " bpending", "+3 days 13:00", "+3 days 14:00", "\"status\":\"pending\"", x.author_b);
    x.c_draft = create_id(w + " cdraft", "+3 days 14:00", "+3 days 15:00", "", x.contributor);
    x.future = create_id(w + " future", "+3 days 15:00", "+3 days 16:00",
                         "\"status\":\"publish\",\"date\":\"+1 year\"");
    x.trashed = create_id(w + " trashed", "+3 days 16:00", "+3 days 17:00");
    REQUIRE(del(path_of(x.trashed), {admin()}).status == 200);
    x.private_event = create_id(w + " private", "+3 days 17:00", "+3 days 18:00", "\"status\":\"private\"");
    return x;
  }();
  return f;
}

TEST_CASE("list visibility per role") {
  const Fixture& f = fixture();
  const std::string s = "search=" + f.word;
  const Ids everything = {f.published, f.draft, f.a_draft, f.b_pending, f.c_draft, f.future, f.private_event};
  CHECK(list_ids(s) == Ids{f.published});
  CHECK(list_ids(s, {f.subscriber}) == Ids{f.published});
  CHECK(list_ids(s, {f.contributor}) == Ids{f.published, f.c_draft});
  CHECK(list_ids(s, {f.author_a}) == Ids{f.published, f.a_draft});
  CHECK(list_ids(s, {f.author_b}) == Ids{f.published, f.b_pending});
  CHECK(list_ids(s, {f.editor}) == everything);
  CHECK(list_ids(s, {admin()}) == everything);
}

TEST_CASE("the status filter per role") {
  const Fixture& f = fixture();
  const std::string s = "search=" + f.word;
  CHECK(list_ids(s + "&status=publish") == Ids{f.published});
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&status=draft"), 400, "rest_invalid_param") ==
        "");
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&status=trash"), 400, "rest_invalid_param") ==
        "");
  CHECK(error_mismatch(get(std::string(kEvents) + "?" + s + "&status=publish,draft"), 400,
                       "rest_invalid_param") == "");
  CHECK(list_ids(s + "&status=draft", {f.subscriber}).empty());
  CHECK(list_ids(s + "&status=draft", {f.editor}) == Ids{f.draft, f.a_draft, f.c_draft});
  CHECK(list_ids(s + "&status=draft,pending", {f.editor}) == Ids{f.draft, f.a_draft, f.b_pending, f.c_draft});
  CHECK(list_ids(s + "&status[]=draft&status[]=pending", {f.editor}) ==
        Ids{f.draft, f.a_draft, f.b_pending, f.c_draft});
  CHECK(list_ids(s + "&status=future", {f.editor}) == Ids{f.future});
  CHECK(list_ids(s + "&status=private", {admin()}) == Ids{f.private_event});
  CHECK(list_ids(s + "&status=trash", {f.editor}) == Ids{f.trashed});
  CHECK(list_ids(s + "&status=TRASH", {f.editor}) == Ids{f.trashed});
  // Authors and contributors never see others' unpublished events, even when asking.
  CHECK(list_ids(s + "&status=draft", {f.author_a}) == Ids{f.a_draft});
  CHECK(list_ids(s + "&status=pending", {f.author_a}).empty());
  CHECK(list_ids(s + "&status=draft,pending", {f.contributor}) == Ids{f.c_draft});
  CHECK(list_ids(s + "&status=trash", {f.author_a}).empty());
  CHECK(list_ids(s + "&status=publish", {f.contributor}) == Ids{f.published});
}

TEST_CASE("single reads: not-accessible, no-longer-available, not-found") {
  const Fixture& f = fixture();
  CHECK(error_mismatch(get(path_of(f.draft)), 403, "event-not-accessible") == "");
  CHECK(error_mismatch(get(path_of(f.draft), {f.subscriber}), 403, "event-not-accessible") == "");
  CHECK(error_mismatch(get(path_of(f.a_draft), {f.author_b}), 403, "event-not-accessible") == "");
  CHECK(error_mismatch(get(path_of(f.future)), 403, "event-not-accessible") == "");
  CHECK(get(path_of(f.a_draft), {f.author_a}).status == 200);
  CHECK(get(path_of(f.draft), {f.editor}).status == 200);
  CHECK(get(path_of(f.c_draft), {f.contributor}).status == 200);
  CHECK(error_mismatch(get(path_of(f.trashed)), 403, "event-no-longer-available") == "");
  CHECK(error_mismatch(get(path_of(f.trashed), {f.editor}), 403, "event-no-longer-available") == "");
  CHECK(error_mismatch(get(path_of(f.trashed) + "?context=edit", {f.author_a}), 403,
                       "event-no-longer-available") == "");
  const HttpResponse edit = get(path_of(f.trashed) + "?context=edit", {f.editor});
  CHECK_MESSAGE(edit.status == 200, describe(edit));
  CHECK(string_at(edit.json(), {"status"}) == "trash");
  CHECK(error_mismatch(get(path_of(999999999)), 404, "rest-event-not-found") == "");
  CHECK(error_mismatch(get(slug_path(unique("no-such-slug"))), 404, "rest-event-not-found") == "");
  CHECK(error_mismatch(get(path_of(f.published) + "?context=bogus"), 400, "rest_invalid_param") == "");
  // A venue id is not an event.
  const rapidjson::Document v = create(event_body(f.word + " v", "+3 days 10:00", "+3 days 11:00",
                                                  "\"venue\":{\"venue\":\"SV " + f.word + "\"}"));
  CHECK(error_mismatch(get(path_of(int_at(v, {"venue", "id"}))), 404, "rest-event-not-found") == "");
  // By slug, the same rules.
  const std::string draft_slug = string_at(get(path_of(f.draft), {admin()}).json(), {"slug"});
  CHECK(error_mismatch(get(slug_path(draft_slug)), 403, "event-not-accessible") == "");
  CHECK(get(slug_path(draft_slug), {f.editor}).status == 200);
}

TEST_CASE("a future event becomes public when its publication date passes") {
  const std::string word = unique("soon");
  const rapidjson::Document e = create(event_body(word, "+3 days 10:00", "+3 days 11:00",
                                                  "\"status\":\"publish\",\"date_utc\":\"+2 seconds\""));
  CHECK(string_at(e, {"status"}) == "future");
  const long long id = id_of(e);
  CHECK(list_ids("search=" + word).empty());
  std::this_thread::sleep_for(std::chrono::seconds(3));
  CHECK(list_ids("search=" + word) == Ids{id});
  CHECK(string_at(get(path_of(id)).json(), {"status"}) == "publish");
}

}  // namespace
}  // namespace caltest

// Integration tests of password-protected events (docs/api.md §3.5, §2): masking in lists, 403
// event-password-protected on single reads, unlocking with `password` or context=edit by an
// editor, removing the password, and the password never being returned.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/client.h"
#include "support/events.h"

namespace caltest {
namespace {

using namespace events;

constexpr const char* kPassword = "Open Sesame 7";

std::string protected_body(const std::string& word) {
  return event_body(word, "+3 days 10:00", "+3 days 11:00",
                    std::string("\"password\":") + quoted(kPassword) +
                        ",\"description\":\"secret d\",\"excerpt\":\"secret x\",\"cost\":\"$5\","
                        "\"website\":\"https://p.example/\",\"image\":\"https://p.example/" +
                        word +
                        ".jpg\","
                        "\"featured\":true,\"venue\":{\"venue\":\"PV " +
                        word +
                        "\"},"
                        "\"organizer\":[{\"organizer\":\"PO " +
                        word + "\"}],\"categories\":[\"pc " + word +
                        "\"],"
                        "\"tags\":[\"pt " +
                        word + "\"]");
}

void check_masked(const rapidjson::Value& e) {
  for (const char* key : {"description", "excerpt", "cost", "website"}) {
    CAPTURE(key);
    CHECK(string_at(e, {key}) == "");
  }
  CHECK(flag_at(e, {"image"}) == "false");
  for (const char* key :
       {"all_day", "show_map", "show_map_link", "hide_from_listings", "sticky", "featured"}) {
    CAPTURE(key);
    CHECK(flag_at(e, {key}) == "null");
  }
  CHECK(array_size(e, {"cost_details", "values"}) == 0);
  CHECK(string_at(e, {"cost_details", "currency_symbol"}) == "");
  for (const char* key : {"categories", "tags", "venue", "organizer"}) {
    CAPTURE(key);
    CHECK(array_size(e, {key}) == 0);
  }
  CHECK(find(e, {"json_ld"}) == nullptr);
  CHECK(find(e, {"password"}) == nullptr);
}

void check_full(const rapidjson::Value& e) {
  CHECK(string_at(e, {"description"}) == "secret d");
  CHECK(string_at(e, {"excerpt"}) == "secret x");
  CHECK(string_at(e, {"cost"}) == "$5");
  CHECK(string_at(e, {"website"}) == "https://p.example/");
  CHECK(flag_at(e, {"featured"}) == "true");
  CHECK(array_size(e, {"categories"}) == 1);
  CHECK(array_size(e, {"organizer"}) == 1);
  CHECK(find(e, {"venue", "id"}) != nullptr);
  CHECK(find(e, {"password"}) == nullptr);
}

TEST_CASE("a protected event is masked in lists for everyone, the password never shown") {
  const std::string word = unique("pwlist");
  const HttpResponse created = post_json(kEvents, protected_body(word), {admin()});
  REQUIRE_MESSAGE(created.status == 201, describe(created));
  CHECK(created.body.find(kPassword) == std::string::npos);
  check_full(created.json());  // the writer has edit rights
  for (const std::string& auth : {std::string(), admin()}) {
    CAPTURE(auth.empty());
    const HttpResponse r = get(std::string(kEvents) + "?search=" + word,
                               auth.empty() ? std::vector<std::string>{} : std::vector<std::string>{auth});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(r.body.find(kPassword) == std::string::npos);
    const rapidjson::Document d = r.json();
    REQUIRE(array_size(d, {"events"}) == 1);
    const rapidjson::Value& e = d["events"][0];
    CHECK(string_at(e, {"title"}) == word);
    check_masked(e);
  }
}

TEST_CASE("single reads of a protected event need the password or context=edit with edit rights") {
  const std::string word = unique("pwget");
  const rapidjson::Document created = create(protected_body(word));
  const long long id = id_of(created);
  const std::string slug = string_at(created, {"slug"});
  const std::string author = bearer(create_user("pwa", "author"));

  CHECK(error_mismatch(get(path_of(id)), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id), {admin()}), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id) + "?password=wrong"), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id) + "?password=" + enc("open sesame 7")), 403,
                       "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id) + "?password="), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id) + "?context=edit"), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(path_of(id) + "?context=edit", {author}), 403, "event-password-protected") == "");
  CHECK(error_mismatch(get(slug_path(slug)), 403, "event-password-protected") == "");

  const HttpResponse unlocked = get(path_of(id) + "?password=" + enc(kPassword));
  REQUIRE_MESSAGE(unlocked.status == 200, describe(unlocked));
  check_full(unlocked.json());
  CHECK(find(unlocked.json(), {"json_ld"}) != nullptr);
  CHECK(unlocked.body.find(kPassword) == std::string::npos);

  const HttpResponse edit = get(path_of(id) + "?context=edit", {admin()});
  REQUIRE_MESSAGE(edit.status == 200, describe(edit));
  check_full(edit.json());
  const HttpResponse edit_slug = get(slug_path(slug) + "?context=edit", {admin()});
  CHECK_MESSAGE(edit_slug.status == 200, describe(edit_slug));
}

TEST_CASE("update by id sets, changes and removes the password") {
  const std::string word = unique("pwupd");
  const long long id = create_id(word, "+3 days 10:00", "+3 days 11:00", "\"description\":\"open d\"");
  CHECK(get(path_of(id)).status == 200);
  REQUIRE(post_json(path_of(id), R"({"password":"first"})", {admin()}).status == 200);
  CHECK(error_mismatch(get(path_of(id)), 403, "event-password-protected") == "");
  CHECK(get(path_of(id) + "?password=first").status == 200);
  REQUIRE(post_json(path_of(id), R"({"password":"second"})", {admin()}).status == 200);
  CHECK(error_mismatch(get(path_of(id) + "?password=first"), 403, "event-password-protected") == "");
  CHECK(get(path_of(id) + "?password=second").status == 200);
  // An update that does not send a password keeps it.
  REQUIRE(post_json(path_of(id), R"({"title":"still protected"})", {admin()}).status == 200);
  CHECK(error_mismatch(get(path_of(id)), 403, "event-password-protected") == "");
  // "" removes it: unmasked everywhere again.
  REQUIRE(post_json(path_of(id), R"({"password":""})", {admin()}).status == 200);
  const HttpResponse open = get(path_of(id));
  REQUIRE_MESSAGE(open.status == 200, describe(open));
  CHECK(string_at(open.json(), {"description"}) == "open d");
  const rapidjson::Document list = get(std::string(kEvents) + "?include=" + std::to_string(id)).json();
  CHECK(string_at(list, {"events", "0", "description"}) == "open d");
}

TEST_CASE("delete by id accepts the password parameter") {
  const long long id = create_id(unique("pwdel"), "+3 days 10:00", "+3 days 11:00", "\"password\":\"pw\"");
  const HttpResponse r = del(path_of(id) + "?password=pw", {admin()});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(string_at(r.json(), {"status"}) == "trash");
  CHECK(r.body.find("\"pw\"") == std::string::npos);
}

}  // namespace
}  // namespace caltest

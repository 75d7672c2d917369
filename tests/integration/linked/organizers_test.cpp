// Integration tests of the organizer record (docs/api.md §3.2): keys and types, e-mail and website
// validation, json_ld, and the organizer search fields.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/linked.h"

namespace caltest {
namespace {

const LinkedResource& kRes = kOrganizerResource;

std::vector<std::string> keys_of(const rapidjson::Value& object) {
  std::vector<std::string> keys;
  for (const auto& m : object.GetObject()) keys.emplace_back(m.name.GetString(), m.name.GetStringLength());
  return keys;
}

const std::vector<std::string> kOrganizerKeys = {
    "id",       "global_id", "global_id_lineage", "author",       "status",
    "date",     "date_utc",  "modified",          "modified_utc", "url",
    "rest_url", "organizer", "description",       "excerpt",      "slug",
    "image",    "phone",     "website",           "email"};

TEST_CASE("a created organizer has every key in order, typed, and a Location") {
  const std::string name = unique("Organizer Keys");
  const HttpResponse r =
      post_json(kRes.collection, "{\"organizer\":" + json_string(name) + "}", {bearer(admin_token())});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  const rapidjson::Document doc = r.json();
  CHECK(keys_of(doc) == kOrganizerKeys);
  const long long id = id_of(doc);
  CHECK(r.header("location") == base_url() + item_path(kRes, id));
  CHECK(string_at(doc, {"organizer"}) == name);
  CHECK(string_at(doc, {"url"}).find("/organizer/" + string_at(doc, {"slug"}) + "/") != std::string::npos);
  for (const char* key : {"description", "excerpt", "phone", "website", "email"}) {
    CAPTURE(key);
    CHECK(doc[key].IsString());
    CHECK(string_at(doc, {key}) == "");
  }
  CHECK(doc["image"].IsFalse());
}

TEST_CASE("organizer fields are stored and returned as sent") {
  const rapidjson::Document doc = create_record(
      kRes, unique("Organizer Fields"),
      R"("description":"Runs things","phone":"+1 555","website":"https://org.example.org/","email":"team@example.org")",
      bearer(admin_token()));
  CHECK(string_at(doc, {"description"}) == "Runs things");
  CHECK(string_at(doc, {"phone"}) == "+1 555");
  CHECK(string_at(doc, {"website"}) == "https://org.example.org/");
  CHECK(string_at(doc, {"email"}) == "team@example.org");
}

TEST_CASE("an organizer email must be a valid address; \"\" clears it") {
  for (const char* bad : {"not-an-address", "a@", "@example.org", "a b@example.org"}) {
    CAPTURE(bad);
    const HttpResponse r = post_json(kRes.collection,
                                     "{\"organizer\":" + json_string(unique("Organizer Bad Mail")) +
                                         ",\"email\":" + json_string(bad) + "}",
                                     {bearer(admin_token())});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(string_at(r.json(), {"data", "params", "email"}) != "");
  }
  const long long id = create_record_id(kRes, unique("Organizer Mail"), R"("email":"a@example.org")");
  const HttpResponse r = post_json(item_path(kRes, id), R"({"email":""})", {bearer(admin_token())});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  CHECK(string_at(r.json(), {"email"}) == "");
}

TEST_CASE("an organizer website must be an absolute http(s) URL") {
  const HttpResponse r = post_json(kRes.collection,
                                   "{\"organizer\":" + json_string(unique("Organizer Bad Url")) +
                                       R"(,"website":"www.example.org","email":"bad"})",
                                   {bearer(admin_token())});
  CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  // Every bad field is named in the one error.
  CHECK(string_at(r.json(), {"data", "params", "website"}) != "");
  CHECK(string_at(r.json(), {"data", "params", "email"}) != "");
}

TEST_CASE("a single organizer GET has a schema.org Organization json_ld") {
  const std::string name = unique("OrganizerLd");
  const rapidjson::Document created = create_record(
      kRes, name, R"("phone":"555-2","website":"https://ld.example.org/","email":"ld@example.org")",
      bearer(admin_token()));
  CHECK(find(created, {"json_ld"}) == nullptr);
  for (const std::string& path :
       {item_path(kRes, id_of(created)), slug_path(kRes, string_at(created, {"slug"}))}) {
    CAPTURE(path);
    const HttpResponse r = get(path);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document doc = r.json();
    CHECK(keys_of(doc).back() == "json_ld");
    CHECK(string_at(doc, {"json_ld", "@context"}) == "http://schema.org");
    CHECK(string_at(doc, {"json_ld", "@type"}) == "Organization");
    CHECK(string_at(doc, {"json_ld", "name"}) == name);
    CHECK(string_at(doc, {"json_ld", "telephone"}) == "555-2");
    CHECK(string_at(doc, {"json_ld", "email"}) == "ld@example.org");
    CHECK(string_at(doc, {"json_ld", "url"}) == "https://ld.example.org/");
  }
  const HttpResponse list = get(std::string(kRes.collection) + "?search=" + name);
  REQUIRE_MESSAGE(list.status == 200, describe(list));
  CHECK(find(list.json(), {"organizers", "0", "json_ld"}) == nullptr);
  CHECK(find(list.json(), {"organizers", "0", "email"}) != nullptr);
}

TEST_CASE("organizer search looks in name, description, phone, email and website") {
  for (const std::string field : {"organizer", "description", "phone", "email", "website"}) {
    CAPTURE(field);
    const std::string word = unique("os");
    std::string name = unique("Organizer Search");
    std::string value = "x " + word + " y";
    if (field == "email") value = word + "@example.org";
    if (field == "website") value = "https://example.org/" + word;
    std::string more;
    if (field == "organizer")
      name += " " + word;
    else
      more = json_string(field) + ":" + json_string(value);
    const long long id = create_record_id(kRes, name, more);
    CHECK(list_ids(kRes, std::string(kRes.collection) + "?search=" + word) == std::vector<long long>{id});
  }
}

}  // namespace
}  // namespace caltest

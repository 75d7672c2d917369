// Integration tests of If-Match on writes of one record, so that two editors never silently
// overwrite each other's changes: a stale or unknown entity tag is 412 rest_precondition_failed and
// changes nothing; the current one (of the view or the edit context) lets the write through; "*"
// asks only that the record exists; concurrent writers with the same tag cannot both win.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kRoot = "/cal/events/v1";

struct Resource {
  const char* collection;  // below kRoot
  const char* name_key;    // the text field a write changes
  const char* extra;       // more of a valid create body
};

const Resource kResources[] = {
    {"/events", "title", ",\"start_date\":\"2041-03-01 10:00\",\"end_date\":\"2041-03-01 11:00\""},
    {"/venues", "venue", ""},
    {"/organizers", "organizer", ""},
    {"/categories", "name", ""},
    {"/tags", "name", ""},
};

std::string admin() { return bearer(admin_token()); }

long long create(const Resource& r, const std::string& name) {
  const HttpResponse c =
      post_json(std::string(kRoot) + r.collection,
                "{\"" + std::string(r.name_key) + "\":\"" + name + "\"" + r.extra + "}", {admin()});
  REQUIRE_MESSAGE(c.status == 201, "HTTP " << c.status << " " << c.body);
  const rapidjson::Document d = c.json();
  return d["id"].GetInt64();
}

std::string etag_of(const std::string& path) {
  const HttpResponse g = get(path, {admin()});
  REQUIRE_MESSAGE(g.status == 200, "HTTP " << g.status << " " << g.body);
  return g.header("etag");
}

std::string change(const Resource& r, const std::string& name) {
  return "{\"" + std::string(r.name_key) + "\":\"" + name + "\"}";
}

TEST_CASE("If-Match: a stale tag is 412 and changes nothing; the current one writes") {
  for (const Resource& r : kResources) {
    CAPTURE(r.collection);
    const std::string name = unique("ifm");
    const std::string path = std::string(kRoot) + r.collection + "/" + std::to_string(create(r, name));
    const std::string first = etag_of(path);
    REQUIRE(first.size() == 34);
    // Unknown, weak and malformed tags never match.
    for (const std::string& bad : {std::string("\"0123\""), "W/" + first, first.substr(1)}) {
      CAPTURE(bad);
      CHECK(error_mismatch(patch_json(path, change(r, name + "x"), {admin(), "If-Match: " + bad}), 412,
                           "rest_precondition_failed") == "");
    }
    CHECK(etag_of(path) == first);
    // The current tag (in a list) lets the write through.
    const HttpResponse ok = patch_json(path, change(r, name + "2"), {admin(), "If-Match: \"zz\", " + first});
    CHECK_MESSAGE(ok.status == 200, ok.body);
    const std::string second = etag_of(path);
    CHECK(second != first);
    // Now the first tag is stale: PUT, PATCH, POST and DELETE all refuse it.
    CHECK(error_mismatch(put_json(path, change(r, name + "3"), {admin(), "If-Match: " + first}), 412,
                         "rest_precondition_failed") == "");
    CHECK(error_mismatch(request("POST", path, change(r, name + "3"),
                                 {admin(), "Content-Type: application/json", "If-Match: " + first}),
                         412, "rest_precondition_failed") == "");
    CHECK(error_mismatch(del(path + "?force=true", {admin(), "If-Match: " + first}), 412,
                         "rest_precondition_failed") == "");
    CHECK(etag_of(path) == second);
    // The tag of the edit context is as good as the view's.
    const std::string edit = get(path + "?context=edit", {admin()}).header("etag");
    const HttpResponse via_edit = request("POST", path, change(r, name + "4"),
                                          {admin(), "Content-Type: application/json", "If-Match: " + edit});
    CHECK_MESSAGE(via_edit.status == 200, via_edit.body);
    // "*": any version of an existing record.
    CHECK(put_json(path, change(r, name + "5"), {admin(), "If-Match: *"}).status == 200);
    const HttpResponse gone = del(path + "?force=true", {admin(), "If-Match: " + etag_of(path)});
    CHECK_MESSAGE(gone.status == 200, gone.body);
    CHECK(error_mismatch(patch_json(path, change(r, name + "6"), {admin(), "If-Match: *"}), 412,
                         "rest_precondition_failed") == "");
    // Without If-Match, as before: the record is gone.
    CHECK(patch_json(path, change(r, name + "6"), {admin()}).status == 404);
  }
}

TEST_CASE("If-Match on by-slug routes, localized, and before no one's reading") {
  const Resource& r = kResources[0];
  const std::string name = unique("ifmslug");
  const long long id = create(r, name);
  const std::string path = std::string(kRoot) + "/events/" + std::to_string(id);
  const std::string slug = string_at(get(path).json(), {"slug"});
  const std::string by_slug = std::string(kRoot) + "/events/by-slug/" + slug;
  const std::string tag = etag_of(by_slug);
  const HttpResponse stale =
      patch_json(by_slug + "?_locale=de_DE", change(r, name + "x"), {admin(), "If-Match: \"1\""});
  CHECK(error_mismatch(stale, 412, "rest_precondition_failed") == "");
  CHECK(string_at(stale.json(), {"message"}) == "Der Datensatz wurde geändert, seit er gelesen wurde.");
  CHECK(patch_json(by_slug, change(r, name + "y"), {admin(), "If-Match: " + tag}).status == 200);
  CHECK(string_at(get(path).json(), {"title"}) == name + "y");
  CHECK(error_mismatch(patch_json(std::string(kRoot) + "/events/by-slug/" + unique("no-such"), change(r, "z"),
                                  {admin(), "If-Match: *"}),
                       412, "rest_precondition_failed") == "");
  CHECK(error_mismatch(del(std::string(kRoot) + "/tags/999999999", {admin(), "If-Match: *"}), 412,
                       "rest_precondition_failed") == "");
  // A visitor still gets 401 first: the check never runs for someone who may not write.
  CHECK(error_mismatch(patch_json(path, change(r, "v"), {"If-Match: " + tag}), 401, "rest_forbidden") == "");
}

TEST_CASE("If-Match: of concurrent writers holding the same tag, exactly one wins") {
  for (const Resource& r : {kResources[0], kResources[3]}) {
    CAPTURE(r.collection);
    const std::string name = unique("ifmrace");
    const std::string path = std::string(kRoot) + r.collection + "/" + std::to_string(create(r, name));
    for (int round = 0; round < 3; ++round) {
      const std::string tag = etag_of(path);
      std::atomic<int> ok{0}, failed{0}, other{0};
      std::vector<std::thread> writers;
      for (int i = 0; i < 6; ++i)
        writers.emplace_back([&, i] {
          const HttpResponse w =
              patch_json(path, change(r, name + "r" + std::to_string(round) + "w" + std::to_string(i)),
                         {admin(), "If-Match: " + tag});
          (w.status == 200 ? ok : w.status == 412 ? failed : other)++;
        });
      for (auto& t : writers) t.join();
      CHECK(ok == 1);
      CHECK(failed == 5);
      CHECK(other == 0);
    }
  }
}

}  // namespace
}  // namespace caltest

// Integration tests of venue and organizer writes (docs/api.md §5), each run for both resources:
// required name, 404s, partial updates, trash / 410 / force / restore, and the shared post fields
// (slug, image, date, HTML, form bodies). The dedupe rule is in linked/dedupe_test.cpp.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/linked.h"

namespace caltest {
namespace {

TEST_CASE("a linked record needs its name on create, not empty on update") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string admin = bearer(admin_token());
    HttpResponse r = post_json(res.collection, R"({"description":"no name"})", {admin});
    CHECK(error_mismatch(r, 400, "rest_missing_callback_param") == "");
    CHECK(strings_at(r.json(), {"data", "params"}) == std::vector<std::string>{res.name_key});
    r = post_json(res.collection, body_with(res, ""), {admin});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(string_at(r.json(), {"data", "params", res.name_key}) != "");
    const long long id = create_record_id(res, unique("Named"));
    r = post_json(item_path(res, id), body_with(res, ""), {admin});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    r = post_json(res.collection, "{" + json_string(res.name_key) + ":5}", {admin});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  }
}

TEST_CASE("a linked record name longer than its column is 400, not 500") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const HttpResponse r =
        post_json(res.collection, body_with(res, std::string(70000, 'n')), {bearer(admin_token())});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
    CHECK(string_at(r.json(), {"data", "params", res.name_key}) != "");
  }
}

TEST_CASE("an unknown linked id or slug is 404 rest-<kind>-not-found") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string code = std::string("rest-") + res.kind + "-not-found";
    const std::string admin = bearer(admin_token());
    for (const std::string& path : {item_path(res, 999999999), slug_path(res, unique("missing"))}) {
      CAPTURE(path);
      CHECK(error_mismatch(get(path), 404, code) == "");
      CHECK(error_mismatch(patch_json(path, R"({"description":"x"})", {admin}), 404, code) == "");
      CHECK(error_mismatch(del(path, {admin}), 404, code) == "");
    }
    // A record of the other kind is not found either.
    const LinkedResource& other = &res == &kLinkedResources[0] ? kLinkedResources[1] : kLinkedResources[0];
    const long long other_id = create_record_id(other, unique("Other Kind"));
    CHECK(error_mismatch(get(item_path(res, other_id)), 404, code) == "");
  }
}

TEST_CASE("an update changes only the fields it sends, by every write method") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string admin = bearer(admin_token());
    const std::string field = detail_field(res);
    const std::string name = unique("Partial");
    const rapidjson::Document created = create_record(
        res, name,
        json_string(field) + ":\"Kept\",\"description\":\"D\",\"website\":\"https://k.example.org/\"", admin);
    const long long id = id_of(created);
    const std::string path = item_path(res, id);
    HttpResponse r = post_json(path, R"({"description":"D2"})", {admin});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {"description"}) == "D2");
    CHECK(string_at(r.json(), {field.c_str()}) == "Kept");
    r = put_json(path, R"({"description":""})", {admin});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {"description"}) == "");
    r = patch_json(slug_path(res, string_at(created, {"slug"})), "{" + json_string(field) + ":\"New\"}",
                   {admin});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    const rapidjson::Document doc = r.json();
    CHECK(string_at(doc, {field.c_str()}) == "New");
    CHECK(string_at(doc, {res.name_key}) == name);
    CHECK(string_at(doc, {"description"}) == "");
    CHECK(string_at(doc, {"website"}) == "https://k.example.org/");
    CHECK(string_at(doc, {"slug"}) == string_at(created, {"slug"}));
    CHECK(string_at(doc, {"status"}) == "publish");
    // Renaming and a new slug.
    const std::string new_name = unique("Renamed");
    r = post_json(path, body_with(res, new_name, "\"slug\":" + json_string(new_name)), {admin});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {res.name_key}) == new_name);
    std::string new_slug = new_name;
    for (char& c : new_slug) c = c == '_' ? '-' : c;
    CHECK(string_at(r.json(), {"slug"}) == new_slug);
    CHECK(get(slug_path(res, new_slug)).status == 200);
  }
}

TEST_CASE("read-only fields in a write body are ignored") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const long long id = create_record_id(res, unique("ReadOnly"));
    const HttpResponse r =
        post_json(item_path(res, id), R"({"id":1,"url":"x","rest_url":"y","json_ld":{},"global_id":"z"})",
                  {bearer(admin_token())});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(id_of(r.json()) == id);
  }
}

TEST_CASE("slugs come from the name and stay unique") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string base = unique("Slug Base");
    const rapidjson::Document first =
        create_record(res, base, "\"description\":\"1\"", bearer(admin_token()));
    const rapidjson::Document second =
        create_record(res, base, "\"description\":\"2\"", bearer(admin_token()));
    const std::string slug = string_at(first, {"slug"});
    CHECK(slug.find(' ') == std::string::npos);
    CHECK(string_at(second, {"slug"}) == slug + "-2");
    CHECK(id_of(get(slug_path(res, slug + "-2")).json()) == id_of(second));
  }
}

TEST_CASE("trash, 410, restore and force delete") {
  for (const LinkedResource& res : kLinkedResources) {
    for (const bool by_slug : {false, true}) {
      const std::string collection = res.collection;
      CAPTURE(collection);
      CAPTURE(by_slug);
      const std::string admin = bearer(admin_token());
      const rapidjson::Document created = create_record(res, unique("Trash Me"), "", admin);
      const long long id = id_of(created);
      const std::string slug = string_at(created, {"slug"});
      HttpResponse r = del(by_slug ? slug_path(res, slug) : item_path(res, id), {admin});
      REQUIRE_MESSAGE(r.status == 200, describe(r));
      CHECK(string_at(r.json(), {"status"}) == "trash");
      CHECK(string_at(r.json(), {"slug"}) == slug + "__trashed");
      CHECK(error_mismatch(get(item_path(res, id)), 403, std::string(res.kind) + "-no-longer-available") ==
            "");
      CHECK(error_mismatch(get(item_path(res, id), {admin}), 403,
                           std::string(res.kind) + "-no-longer-available") == "");
      r = get(item_path(res, id) + "?context=edit", {admin});
      CHECK_MESSAGE(r.status == 200, describe(r));
      CHECK(error_mismatch(get(item_path(res, id) + "?context=edit", {role_user("author").auth()}), 403,
                           std::string(res.kind) + "-no-longer-available") == "");
      const std::string again = by_slug ? slug_path(res, slug + "__trashed") : item_path(res, id);
      CHECK(error_mismatch(del(again, {admin}), 410, std::string(res.kind) + "-is-in-trash") == "");
      CHECK(error_mismatch(get(slug_path(res, slug)), 404, std::string("rest-") + res.kind + "-not-found") ==
            "");
      // Restored by an update of its status: the suffix goes.
      r = post_json(item_path(res, id), R"({"status":"publish"})", {admin});
      REQUIRE_MESSAGE(r.status == 200, describe(r));
      CHECK(string_at(r.json(), {"status"}) == "publish");
      CHECK(string_at(r.json(), {"slug"}) == slug);
      // Force: gone for good, the previous record returned.
      r = del((by_slug ? slug_path(res, slug) : item_path(res, id)) + "?force=true", {admin});
      REQUIRE_MESSAGE(r.status == 200, describe(r));
      const rapidjson::Document doc = r.json();
      CHECK(doc["deleted"].IsTrue());
      CHECK(id_of(doc["previous"]) == id);
      CHECK(string_at(doc, {"previous", "status"}) == "publish");
      CHECK(error_mismatch(get(item_path(res, id), {admin}), 404,
                           std::string("rest-") + res.kind + "-not-found") == "");
    }
  }
}

TEST_CASE("a trashed record may be force-deleted") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string admin = bearer(admin_token());
    const long long id = create_record_id(res, unique("Trash Force"));
    REQUIRE(del(item_path(res, id), {admin}).status == 200);
    const HttpResponse r = del(item_path(res, id) + "?force=1", {admin});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(string_at(r.json(), {"previous", "status"}) == "trash");
    CHECK(error_mismatch(del(item_path(res, id) + "?force=maybe", {admin}), 400, "rest_invalid_param") == "");
  }
}

TEST_CASE("linked records take an image URL, reuse it, and clear it with \"\"") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string admin = bearer(admin_token());
    const std::string url = "https://img.example.org/" + unique("pic") + ".png";
    const rapidjson::Document doc =
        create_record(res, unique("Pictured"), "\"image\":" + json_string(url), admin);
    CHECK(string_at(doc, {"image", "url"}) == url);
    CHECK(string_at(doc, {"image", "extension"}) == "png");
    const long long image_id = find(doc, {"image", "id"}) ? find(doc, {"image", "id"})->GetInt64() : 0;
    const rapidjson::Document by_id =
        create_record(res, unique("Pictured"), "\"image\":" + std::to_string(image_id), admin);
    CHECK(string_at(by_id, {"image", "url"}) == url);
    HttpResponse r = post_json(item_path(res, id_of(doc)), R"({"image":""})", {admin});
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(r.json()["image"].IsFalse());
    r = post_json(res.collection, body_with(res, unique("Bad Image"), R"("image":"not a url")"), {admin});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  }
}

TEST_CASE("linked records take publication dates") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const rapidjson::Document doc =
        create_record(res, unique("Dated"), R"("date_utc":"2021-03-04 05:06:07")", bearer(admin_token()));
    CHECK(string_at(doc, {"date_utc"}) == "2021-03-04 05:06:07");
    const HttpResponse r =
        post_json(res.collection, body_with(res, unique("Bad Date"), R"("date":"not a date")"),
                  {bearer(admin_token())});
    CHECK(error_mismatch(r, 400, "rest_invalid_param") == "");
  }
}

TEST_CASE("HTML from contributors is sanitized, editors keep theirs") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string html = R"(<b>ok</b><script>alert(1)</script>)";
    const rapidjson::Document contributor = create_record(
        res, unique("Html"), "\"description\":" + json_string(html), role_user("contributor").auth());
    CHECK(string_at(contributor, {"description"}).find("<script") == std::string::npos);
    CHECK(string_at(contributor, {"description"}).find("<b>ok</b>") != std::string::npos);
    const rapidjson::Document editor = create_record(
        res, unique("Html"), "\"description\":" + json_string(html), role_user("editor").auth());
    CHECK(string_at(editor, {"description"}) == html);
  }
}

TEST_CASE("linked records can be created from a form body") {
  for (const LinkedResource& res : kLinkedResources) {
    const std::string collection = res.collection;
    CAPTURE(collection);
    const std::string name = unique("Form");
    const std::string field = detail_field(res);
    const HttpResponse r =
        post_form(res.collection, std::string(res.name_key) + "=" + name + "&" + field + "=Formed",
                  {bearer(admin_token())});
    REQUIRE_MESSAGE(r.status == 201, describe(r));
    CHECK(string_at(r.json(), {res.name_key}) == name);
    CHECK(string_at(r.json(), {field.c_str()}) == "Formed");
  }
}

}  // namespace
}  // namespace caltest

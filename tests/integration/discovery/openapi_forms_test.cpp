// Parameters that take several JSON types, so a client generated from the document can send each:
// the OpenAPI document and the root index declare every form the service accepts (a status or a
// list of them, term ids or slugs or names, a venue flag as boolean or text), and the service
// accepts every form they declare. The CORS response headers are documented as present only when
// they apply.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "support/client.h"

namespace caltest {
namespace {

constexpr const char* kNs = "/cal/events/v1";

const rapidjson::Value& doc_param(const rapidjson::Document& doc, const std::string& path,
                                  const std::string& method, const std::string& name) {
  const rapidjson::Value* op = find(doc, {"paths", path, method});
  REQUIRE(op != nullptr);
  if (method == "get") {
    for (const auto& p : (*op)["parameters"].GetArray())
      if (name == p["name"].GetString()) return p["schema"];
  } else if (const auto* s =
                 find(*op, {"requestBody", "content", "application/json", "schema", "properties", name})) {
    return *s;
  }
  FAIL("the document lacks " << method << " " << path << " " << name);
  throw;  // not reached
}

// The types of the schema's oneOf alternatives, or its one type.
std::set<std::string> types_of(const rapidjson::Value& schema) {
  std::set<std::string> types;
  if (!schema.HasMember("oneOf")) {
    if (schema.HasMember("type")) types.insert(schema["type"].GetString());
    return types;
  }
  for (const auto& alternative : schema["oneOf"].GetArray()) types.insert(alternative["type"].GetString());
  return types;
}

const rapidjson::Value* alternative(const rapidjson::Value& schema, std::string_view type) {
  for (const auto& a : schema["oneOf"].GetArray())
    if (type == a["type"].GetString()) return &a;
  return nullptr;
}

std::string admin() { return bearer(admin_token()); }

long long create(const std::string& collection, const std::string& json) {
  const HttpResponse r = post_json(std::string(kNs) + "/" + collection, json, {admin()});
  REQUIRE_MESSAGE(r.status == 201, describe(r));
  return r.json()["id"].GetInt64();
}

TEST_CASE("openapi forms: status filters take one status or a list, as documented") {
  const rapidjson::Document doc = get(std::string(kNs) + "/doc").json();
  for (const std::string path : {"/events", "/venues", "/organizers"}) {
    CAPTURE(path);
    const rapidjson::Value& status = doc_param(doc, path, "get", "status");
    CHECK(types_of(status) == std::set<std::string>{"array", "string"});
    const rapidjson::Value* list = alternative(status, "array");
    REQUIRE(list != nullptr);
    CHECK(string_at(*list, {"items", "type"}) == "string");
    CHECK(strings_at(*list, {"items", "enum"}) == strings_at(*alternative(status, "string"), {"enum"}));
    const std::string url = std::string(kNs) + path + "?status";
    for (const std::string form : {"=publish", "=publish,draft", "[]=publish&status[]=draft", "[0]=draft"}) {
      CAPTURE(form);
      const HttpResponse r = get(url + form, {admin()});
      CHECK_MESSAGE(r.status == 200, describe(r));
    }
    CHECK(error_mismatch(get(url + "=nonsense", {admin()}), 400, "rest_invalid_param") == "");
  }
  // The root index says the same in WordPress's way: a list of types.
  const rapidjson::Document index = get(kNs).json();
  const rapidjson::Value* args =
      find(index, {"routes", std::string(kNs) + "/events", "endpoints", "0", "args", "status"});
  REQUIRE(args != nullptr);
  CHECK(strings_at(*args, {"type"}) == std::vector<std::string>{"array", "string"});
}

TEST_CASE("openapi forms: term filters and event terms take ids, slugs or names, as documented") {
  const rapidjson::Document doc = get(std::string(kNs) + "/doc").json();
  const std::string name = unique("Forms Cat");
  const long long category = create("categories", "{\"name\":\"" + name + "\"}");
  const std::string slug =
      get(std::string(kNs) + "/categories/" + std::to_string(category)).json()["slug"].GetString();

  // GET /events?categories=: a list of ids or slugs, or one of them.
  const rapidjson::Value& filter = doc_param(doc, "/events", "get", "categories");
  CHECK(types_of(filter) == std::set<std::string>{"array", "integer", "string"});
  CHECK(types_of((*alternative(filter, "array"))["items"]) == std::set<std::string>{"integer", "string"});

  // POST /events categories: ids or names, as an array, one id, or a comma list.
  const rapidjson::Value& input = doc_param(doc, "/events", "post", "categories");
  CHECK(types_of(input) == std::set<std::string>{"array", "integer", "string"});
  CHECK(types_of((*alternative(input, "array"))["items"]) == std::set<std::string>{"integer", "string"});
  const std::string event =
      R"({"title":"forms","start_date":"2031-05-01 10:00","end_date":"2031-05-01 11:00",)"
      R"("status":"publish","categories":)";
  const std::string id = std::to_string(category);
  for (const std::string& value :
       {"[" + id + "]", id, "\"" + name + "\"", "[\"" + name + "\"]", "[" + id + ",\"" + name + "\"]"}) {
    CAPTURE(value);
    const long long created = create("events", event + value + "}");
    const rapidjson::Document record =
        get(std::string(kNs) + "/events/" + std::to_string(created), {admin()}).json();
    REQUIRE(record["categories"].Size() == 1);
    CHECK(record["categories"][0]["id"].GetInt64() == category);
  }
  // Each documented filter form finds the five events.
  const std::string list = std::string(kNs) + "/events?start_date=2031-01-01&end_date=2031-12-31&categories";
  for (const std::string& form : {"=" + id, "=" + slug, "[]=" + slug, "=" + id + "," + slug}) {
    CAPTURE(form);
    const HttpResponse r = get(list + form);
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK_MESSAGE(r.header("x-wp-total") == "5", describe(r));
  }
}

TEST_CASE("openapi forms: a venue's show_map takes a boolean, a text or a number, as documented") {
  const rapidjson::Document doc = get(std::string(kNs) + "/doc").json();
  for (const std::string field : {"show_map", "show_map_link"}) {
    CAPTURE(field);
    CHECK(types_of(doc_param(doc, "/venues", "post", field)) ==
          std::set<std::string>{"boolean", "integer", "string"});
    for (const auto& [value, shown] : std::vector<std::pair<std::string, bool>>{{"true", true},
                                                                                {"false", false},
                                                                                {"\"yes\"", true},
                                                                                {"\"no\"", false},
                                                                                {"1", true},
                                                                                {"0", false}}) {
      CAPTURE(value);
      const long long venue =
          create("venues", "{\"venue\":\"" + unique("Forms Hall") + "\",\"" + field + "\":" + value + "}");
      const rapidjson::Document record = get(std::string(kNs) + "/venues/" + std::to_string(venue)).json();
      CHECK(record[field.c_str()].GetBool() == shown);
    }
  }
}

TEST_CASE("openapi forms: the CORS headers are documented on every answer, as present when they apply") {
  const rapidjson::Document doc = get(std::string(kNs) + "/doc").json();
  std::size_t documented = 0;
  for (const auto& path : doc["paths"].GetObject()) {
    for (const auto& op : path.value.GetObject()) {
      if (!op.value.IsObject() || !op.value.HasMember("responses")) continue;  // servers
      for (const auto& response : op.value["responses"].GetObject()) {
        const std::string status = response.name.GetString();
        if (status[0] != '2' || !response.value.HasMember("headers")) continue;
        CAPTURE(path.name.GetString());
        const auto& headers = response.value["headers"];
        for (const char* h : {"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials",
                              "Access-Control-Expose-Headers"}) {
          REQUIRE(headers.HasMember(h));
          CHECK(headers[h]["required"].IsFalse());
        }
        if (headers.HasMember("Content-Language")) CHECK(headers["Content-Language"]["required"].IsTrue());
        ++documented;
      }
    }
  }
  CHECK(documented > 30);
}

}  // namespace
}  // namespace caltest

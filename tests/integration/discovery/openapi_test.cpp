// Integration tests of the OpenAPI document (docs/api.md §8.2): it passes a standard OpenAPI validator
// (tests/openapi/validate.mjs, npm packages installed by scripts/install-npm-tools.sh), covers every
// route and method of the namespace index, names every field of docs/api.md §3, and real responses of
// every kind match its schemas.
#include <doctest/doctest.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "support/client.h"
#include "support/commands.h"
#include "support/i18n.h"

namespace caltest {
namespace {

namespace fs = std::filesystem;

constexpr const char* kNs = "/cal/events/v1";

// tests/openapi beside the build directory holding this binary, else below the working directory.
fs::path openapi_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path beside = exe.parent_path().parent_path() / "tests" / "openapi";
  if (!ec && fs::exists(beside / "validate.mjs")) return beside;
  return fs::current_path() / "tests" / "openapi";
}

struct ValidatorRun {
  int status = -1;
  std::vector<std::string> lines;
  size_t ok = 0;
};

// Runs `node validate.mjs DOC_URL [SAMPLES]` and collects its report.
ValidatorRun run_validator(const std::string& doc_url, const std::string& samples_file = "") {
  const fs::path dir = openapi_dir();
  std::string command = "cd '" + dir.string() + "' && node validate.mjs '" + doc_url + "'";
  if (!samples_file.empty()) command += " '" + samples_file + "'";
  command += " 2>&1";
  const Run r = run(command);
  ValidatorRun report;
  report.status = r.exit_code;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("ok ", 0) == 0) ++report.ok;
    report.lines.push_back(line);
  }
  if (!fs::exists(dir / "node_modules"))
    report.lines.push_back("FAIL " + dir.string() + "/node_modules is missing: run tests/openapi/install.sh");
  return report;
}

void check_report(const ValidatorRun& run, size_t min_ok) {
  for (const std::string& line : run.lines) {
    CAPTURE(line);
    CHECK(line.rfind("FAIL", 0) != 0);
  }
  CHECK_MESSAGE(run.status == 0, "validator exit status " << run.status);
  CHECK(run.ok >= min_ok);
}

// Records responses as samples for the validator.
class Samples {
 public:
  Samples() : writer_(buffer_) { writer_.StartArray(); }

  // Sends the request, records the exchange, and returns the response.
  HttpResponse add(const std::string& method, const std::string& path, const std::string& body = "",
                   std::vector<std::string> headers = {}) {
    bool typed = false;
    for (const std::string& h : headers) typed = typed || h.rfind("Content-Type:", 0) == 0;
    if (!body.empty() && !typed) headers.push_back("Content-Type: application/json");
    const HttpResponse r = request(method, path, body, headers);
    // X-HTTP-Method-Override keeps the operation the one of the method sent.
    writer_.StartObject();
    writer_.Key("method");
    writer_.String(method.c_str());
    writer_.Key("path");
    writer_.String(path.c_str());
    writer_.Key("status");
    writer_.Int64(r.status);
    writer_.Key("headers");
    writer_.StartObject();
    for (const auto& [name, value] : r.headers) {
      writer_.Key(name.c_str());
      writer_.String(value.c_str());
    }
    writer_.EndObject();
    writer_.Key("body");
    writer_.String(r.body.c_str(), static_cast<rapidjson::SizeType>(r.body.size()));
    writer_.EndObject();
    ++count_;
    return r;
  }

  size_t count() const { return count_; }

  // Writes the samples to a fresh file and returns its path.
  std::string save() {
    writer_.EndArray();
    const std::string path =
        (fs::temp_directory_path() / ("calendar-openapi-" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(path) << buffer_.GetString();
    return path;
  }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_;
  size_t count_ = 0;
};

long long id_in(const HttpResponse& r) {
  const rapidjson::Document d = r.json();
  const rapidjson::Value* id = find(d, {"id"});
  return id && id->IsInt64() ? id->GetInt64() : 0;
}

std::vector<std::string> property_names(const rapidjson::Value& doc, const char* schema) {
  std::vector<std::string> names;
  if (const rapidjson::Value* p = find(doc, {"components", "schemas", schema, "properties"}))
    for (const auto& m : p->GetObject()) names.push_back(m.name.GetString());
  return names;
}

}  // namespace

TEST_CASE("the served OpenAPI document passes a standard OpenAPI validator in every language") {
  for (const std::string& lang : kLanguages) {
    CAPTURE(lang);
    check_report(run_validator(base_url() + with_locale(std::string(kNs) + "/doc", lang)), 3);
  }
}

TEST_CASE("the OpenAPI document has every route and method of the root index, and only those") {
  const rapidjson::Document index = get("/").json();
  const HttpResponse r = get(std::string(kNs) + "/doc");
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  const rapidjson::Document doc = r.json();
  CHECK(string_at(doc, {"openapi"}).rfind("3.0.", 0) == 0);
  CHECK(string_at(doc, {"servers", "0", "url"}) == base_url() + kNs + "/");

  std::set<std::string> expected, documented, operation_ids;
  for (const auto& route : index["routes"].GetObject())
    for (const auto& e : route.value["endpoints"].GetArray())
      for (const auto& m : e["methods"].GetArray())
        expected.insert(std::string(m.GetString()) + " " + doc_path(route.name.GetString()));
  for (const auto& path : doc["paths"].GetObject()) {
    const std::string p = path.name.GetString();
    for (const auto& op : path.value.GetObject()) {
      std::string method = op.name.GetString();
      if (method == "servers") continue;  // the REST root's paths name their server
      for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      documented.insert(method + " " + p);
      CAPTURE(method + " " + p);
      CHECK(operation_ids.insert(string_at(op.value, {"operationId"})).second);
      // Every {variable} of the path is a path parameter.
      for (const char* var : {"id", "slug"}) {
        if (p.find("{" + std::string(var) + "}") == std::string::npos) continue;
        bool declared = false;
        for (const auto& param : op.value["parameters"].GetArray())
          declared = declared || (string_at(param, {"name"}) == var && string_at(param, {"in"}) == "path");
        CHECK_MESSAGE(declared, var);
      }
      // Writes take a JSON or form body; reads none.
      const bool write = method == "POST" || method == "PUT" || method == "PATCH";
      CHECK((find(op.value, {"requestBody", "content", "application/json"}) != nullptr) == write);
      CHECK((find(op.value, {"requestBody", "content", "application/x-www-form-urlencoded"}) != nullptr) ==
            write);
      // Errors have the Error schema (through the shared responses).
      for (const auto& response : op.value["responses"].GetObject()) {
        const std::string status = response.name.GetString();
        if (status[0] != '4' && status[0] != '5') continue;
        const std::string ref = string_at(response.value, {"$ref"});
        REQUIRE_MESSAGE(ref.rfind("#/components/responses/", 0) == 0, status);
        const std::string name = ref.substr(std::string("#/components/responses/").size());
        CHECK(string_at(doc, {"components", "responses", name, "content", "application/json", "schema",
                              "$ref"}) == "#/components/schemas/Error");
      }
    }
  }
  CHECK(documented == expected);
  CHECK(expected.size() > 40);
  CHECK(expected.count("GET /") == 1);  // the REST root index
  // The REST root and the namespace index are paths below the REST root, not the namespace.
  CHECK(string_at(doc, {"paths", "/", "servers", "0", "url"}) == base_url());
  CHECK(string_at(doc, {"paths", kNs, "servers", "0", "url"}) == base_url());
  CHECK(find(doc, {"paths", "/", "servers"}) != nullptr);
  // Every success answer documents the discovery Link header.
  CHECK(string_at(doc, {"paths", "/events/{id}", "get", "responses", "200", "headers", "Link", "schema",
                        "type"}) == "string");
  CHECK(string_at(doc, {"paths", "/", "get", "responses", "200", "content", "application/json", "schema",
                        "$ref"}) == "#/components/schemas/RootIndex");
}

TEST_CASE("the component schemas name every field of docs/api.md §3 in order") {
  const rapidjson::Document doc = get(std::string(kNs) + "/doc").json();
  const std::vector<std::string> head = {"id",           "global_id", "global_id_lineage", "author",
                                         "status",       "date",      "date_utc",          "modified",
                                         "modified_utc", "url",       "rest_url"};
  const std::vector<std::string> body = {"description", "excerpt", "slug", "image"};
  auto post = [&](const char* name, std::vector<std::string> rest) {
    std::vector<std::string> all = head;
    all.push_back(name);
    all.insert(all.end(), body.begin(), body.end());
    all.insert(all.end(), rest.begin(), rest.end());
    return all;
  };
  const struct {
    const char* schema;
    std::vector<std::string> fields;
  } cases[] = {
      {"Event", post("title", {"all_day",
                               "start_date",
                               "start_date_details",
                               "end_date",
                               "end_date_details",
                               "utc_start_date",
                               "utc_start_date_details",
                               "utc_end_date",
                               "utc_end_date_details",
                               "timezone",
                               "timezone_abbr",
                               "cost",
                               "cost_details",
                               "website",
                               "show_map",
                               "show_map_link",
                               "hide_from_listings",
                               "sticky",
                               "featured",
                               "categories",
                               "tags",
                               "venue",
                               "organizer",
                               "series_id",
                               "is_recurring",
                               "is_exception",
                               "original_start_date",
                               "original_start_date_utc",
                               "recurrence",
                               "occurrences_created",
                               "occurrences_removed",
                               "exceptions_dropped",
                               "next_occurrences",
                               "json_ld"})},
      {"Venue",
       post("venue", {"address", "city", "country", "province", "state", "zip", "phone", "website",
                      "stateprovince", "show_map", "show_map_link", "geo_lat", "geo_lng", "json_ld"})},
      {"Organizer", post("organizer", {"phone", "website", "email", "json_ld"})},
      {"Term", {"id", "name", "slug", "taxonomy", "description", "parent", "count", "url", "urls"}},
      {"Image", {"url", "id", "extension"}},
      {"DateDetails", {"year", "month", "day", "hour", "minutes", "seconds"}},
      {"CostDetails", {"currency_symbol", "currency_code", "currency_position", "values"}},
      {"Error", {"code", "message", "data"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.schema);
    CHECK(property_names(doc, c.schema) == c.fields);
    // Every key always appears (docs/api.md §3), but json_ld only on a single GET, and what a
    // recurring series adds only on series (docs/recurring-events.md).
    std::vector<std::string> required;
    for (const std::string& f : c.fields)
      if (f != "json_ld" && f != "recurrence" && f != "occurrences_created" && f != "occurrences_removed" &&
          f != "exceptions_dropped" && f != "next_occurrences")
        required.push_back(f);
    CHECK(strings_at(doc, {"components", "schemas", c.schema, "required"}) == required);
  }
}

TEST_CASE("real responses of every kind match the OpenAPI document's schemas") {
  const std::string admin = bearer(admin_token());
  const std::string word = unique("oas");
  Samples s;
  // Records of every kind, linked together, with an image, a cost and a password-protected twin.
  const long long venue =
      id_in(s.add("POST", std::string(kNs) + "/venues",
                  "{\"venue\":\"" + word +
                      " hall\",\"address\":\"1 Main St\",\"city\":\"Berlin\",\"country\":\"Germany\","
                      "\"zip\":\"10115\",\"phone\":\"+49 30 1\",\"website\":\"https://hall.example.org/\"}",
                  {admin}));
  s.add("POST", std::string(kNs) + "/venues", "{\"venue\":\"" + word + " hall\",\"city\":\"Berlin\"}",
        {admin});
  const long long organizer = id_in(s.add(
      "POST", std::string(kNs) + "/organizers",
      "{\"organizer\":\"" + word + " crew\",\"email\":\"crew@example.org\",\"phone\":\"123\"}", {admin}));
  const long long category =
      id_in(s.add("POST", std::string(kNs) + "/categories", "{\"name\":\"" + word + " cat\"}", {admin}));
  s.add("POST", std::string(kNs) + "/categories", "{\"name\":\"" + word + " cat\"}", {admin});  // 409
  const long long tag =
      id_in(s.add("POST", std::string(kNs) + "/tags", "{\"name\":\"" + word + " tag\"}", {admin}));
  const std::string event_fields =
      "\"start_date\":\"2031-05-02 09:00:00\",\"end_date\":\"2031-05-02 17:00:00\","
      "\"timezone\":\"Europe/Berlin\",\"venue\":" +
      std::to_string(venue) + ",\"organizer\":[" + std::to_string(organizer) + "],\"categories\":[" +
      std::to_string(category) + "],\"tags\":[" + std::to_string(tag) +
      "],\"cost\":\"$10 - $20\","
      "\"image\":\"https://img.example.org/" +
      word + ".jpg\",\"featured\":true";
  const HttpResponse created = s.add("POST", std::string(kNs) + "/events",
                                     "{\"title\":\"" + word + " show\"," + event_fields + "}", {admin});
  const long long event = id_in(created);
  const long long locked =
      id_in(s.add("POST", std::string(kNs) + "/events",
                  "{\"title\":\"" + word + " secret\",\"password\":\"pw\"," + event_fields + "}", {admin}));
  const long long doomed = id_in(
      s.add("POST", std::string(kNs) + "/events",
            "{\"title\":\"" + word + " doomed\",\"start_date\":\"2031-06-01\",\"end_date\":\"2031-06-01\"}",
            {admin}));
  REQUIRE(venue > 0);
  REQUIRE(organizer > 0);
  REQUIRE(category > 0);
  REQUIRE(tag > 0);
  REQUIRE(event > 0);
  REQUIRE(locked > 0);
  REQUIRE(doomed > 0);
  const std::string slug = string_at(created.json(), {"slug"});

  // Reads: lists (one page of masked and open events), records by id and slug, conditional GET.
  s.add("GET", std::string(kNs) + "/events?search=" + word + "&start_date=2031-01-01&per_page=1");
  s.add("GET", std::string(kNs) + "/events?search=" + word + "&start_date=2031-01-01");
  s.add("GET", std::string(kNs) + "/events?search=" + word + "&status=publish,draft&start_date=2031-01-01",
        "", {admin});
  const HttpResponse one = s.add("GET", std::string(kNs) + "/events/" + std::to_string(event));
  s.add("GET", std::string(kNs) + "/events/" + std::to_string(event), "",
        {"If-None-Match: " + one.header("etag")});
  s.add("GET", std::string(kNs) + "/events/by-slug/" + slug);
  s.add("GET", std::string(kNs) + "/events/" + std::to_string(locked) + "?password=pw");
  s.add("GET", std::string(kNs) + "/venues?search=" + word);
  s.add("GET", std::string(kNs) + "/venues/" + std::to_string(venue));
  s.add("GET", std::string(kNs) + "/organizers?search=" + word);
  s.add("GET", std::string(kNs) + "/organizers/" + std::to_string(organizer));
  s.add("GET", std::string(kNs) + "/categories?search=" + word + "&hide_empty=false");
  s.add("GET", std::string(kNs) + "/categories/" + std::to_string(category));
  s.add("GET", std::string(kNs) + "/tags?search=" + word + "&hide_empty=false");
  s.add("GET", std::string(kNs) + "/tags/" + std::to_string(tag));
  s.add("GET", kNs);
  s.add("GET", "/");  // the REST root index
  s.add("GET", std::string(kNs) + "/doc?_locale=de_DE");

  // Writes: updates by each method, trash, trash again, forced delete, term delete.
  s.add("PUT", std::string(kNs) + "/events/" + std::to_string(event), "{\"excerpt\":\"Short.\"}", {admin});
  s.add("PATCH", std::string(kNs) + "/venues/" + std::to_string(venue), "{\"state\":\"BE\"}", {admin});
  s.add("POST", std::string(kNs) + "/organizers/" + std::to_string(organizer),
        "{\"website\":\"https://crew.example.org/\"}", {admin});
  s.add("PATCH", std::string(kNs) + "/categories/" + std::to_string(category),
        "{\"description\":\"About " + word + ".\"}", {admin});
  s.add("DELETE", std::string(kNs) + "/events/" + std::to_string(doomed), "", {admin});
  s.add("DELETE", std::string(kNs) + "/events/" + std::to_string(doomed), "", {admin});  // 410
  s.add("DELETE", std::string(kNs) + "/events/" + std::to_string(doomed) + "?force=true", "", {admin});
  s.add("DELETE", std::string(kNs) + "/tags/" + std::to_string(tag), "", {admin});

  // Errors.
  s.add("GET", std::string(kNs) + "/events/999999999");
  s.add("GET", std::string(kNs) + "/events/" + std::to_string(locked));  // 403 password
  s.add("GET", std::string(kNs) + "/events?page=0&featured=maybe");
  s.add("GET", std::string(kNs) + "/events?search=" + word + "&start_date=2031-01-01&page=9");  // 404 page
  s.add("GET", std::string(kNs) + "?namespace=other");
  s.add("POST", std::string(kNs) + "/events", "{}", {admin});         // 400 missing
  s.add("POST", std::string(kNs) + "/events", "{\"title\":\"x\"}");   // 401 visitor
  s.add("GET", std::string(kNs) + "/events", "", {bearer("wrong")});  // 401 credentials
  s.add("POST", std::string(kNs) + "/events", "", {admin, "X-HTTP-Method-Override: DELETE"});  // 405
  s.add("POST", std::string(kNs) + "/tags", "name", {admin, "Content-Type: text/plain"});      // 415
  s.add("POST", std::string(kNs) + "/events", "{\"title\":", {admin});                         // 400 JSON
  s.add("PATCH", std::string(kNs) + "/venues/" + std::to_string(venue), "{\"state\":\"BE\"}",
        {admin, "If-Match: \"stale\""});  // 412
  s.add("PATCH", std::string(kNs) + "/venues/" + std::to_string(venue),
        "--b\r\nContent-Disposition: form-data; name=\"state\"\r\n\r\nNRW\r\n--b--\r\n",
        {admin, "Content-Type: multipart/form-data; boundary=b"});  // multipart

  const std::string file = s.save();
  const ValidatorRun run = run_validator(base_url() + kNs + "/doc", file);
  check_report(run, 3 + s.count());
  // CAL_TEST_KEEP_SAMPLES=1 keeps the samples for a manual `node tests/openapi/validate.mjs` run.
  if (std::getenv("CAL_TEST_KEEP_SAMPLES"))
    MESSAGE(file);
  else
    fs::remove(file);
}

}  // namespace caltest

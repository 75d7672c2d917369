// Integration tests of languages (docs/api.md §9): translated descriptions in the namespace index and
// the OpenAPI document with unchanged names, types and defaults; translated error messages; the
// choice of language; the German site variant nginx serves with `fastcgi_param CAL_LOCALE de_DE`.
#include <doctest/doctest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "support/client.h"
#include "support/commands.h"
#include "support/i18n.h"

namespace caltest {
namespace {

constexpr const char* kIndex = "/cal/events/v1";
constexpr const char* kDoc = "/cal/events/v1/doc";

// Descriptions that may read the same in a translation (proper nouns); none so far.
const std::set<std::string> kSameInTranslation = {};

rapidjson::Document get_json(const std::string& path, std::vector<std::string> headers = {}) {
  const HttpResponse r = get(path, std::move(headers));
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return r.json();
}

// A client error in one language: status, code, message and the data.params names.
struct ErrorCase {
  const char* what;
  const char* method;
  const char* path;
  const char* body;
  bool admin;                // send the admin's token
  const char* content_type;  // "" = none
  long status;
  const char* code;
};

const ErrorCase kErrorCases[] = {
    {"unknown route", "GET", "/cal/events/v1/nothing", "", false, "", 404, "rest_no_route"},
    {"unserved method", "PUT", "/cal/events/v1/events", "", false, "", 405, "rest_method_not_allowed"},
    {"invalid parameters", "GET", "/cal/events/v1/events?page=0&featured=maybe", "", false, "", 400,
     "rest_invalid_param"},
    {"missing parameters", "POST", "/cal/events/v1/events", "{}", true, "application/json", 400,
     "rest_missing_callback_param"},
    {"unknown event", "GET", "/cal/events/v1/events/999999999", "", false, "", 404, "rest-event-not-found"},
    {"unknown venue", "GET", "/cal/events/v1/venues/999999999", "", false, "", 404, "rest-venue-not-found"},
    {"other namespace", "GET", "/cal/events/v1?namespace=cal/other/v1", "", false, "", 404,
     "rest_invalid_namespace"},
    {"malformed JSON", "POST", "/cal/events/v1/events", "{", true, "application/json", 400,
     "rest_invalid_json"},
    {"unsupported body", "POST", "/cal/events/v1/events", "x", true, "text/plain", 415,
     "rest_unsupported_media_type"},
    {"visitor writes", "POST", "/cal/events/v1/events", "{}", false, "application/json", 401,
     "rest_forbidden"},
    {"bad credentials", "GET", "/cal/events/v1/events", "", false, "", 401, "rest_invalid_credentials"},
};

HttpResponse send(const ErrorCase& c, const std::string& lang) {
  std::vector<std::string> headers;
  if (c.admin) headers.push_back(bearer(admin_token()));
  if (std::string(c.code) == "rest_invalid_credentials") headers.push_back(bearer("not-a-valid-password"));
  if (*c.content_type) headers.push_back(std::string("Content-Type: ") + c.content_type);
  return request(c.method, with_locale(c.path, lang), c.body, headers);
}

// Runs calendar-fcgi as plain CGI for GET /cal/events/v1/nowhere with CAL_LOCALE=`site_locale`
// and `options`; returns its output (CGI headers and body).
std::string run_cgi(const std::string& site_locale, const std::string& options) {
  const Run r =
      run("REQUEST_METHOD=GET SCRIPT_NAME=/cgi/api PATH_INFO=/cal/events/v1/nowhere "
          "QUERY_STRING= HTTP_HOST=example.org SERVER_PORT=80 CAL_LOCALE=" +
          site_locale + " " + service_command() + " " + options + " </dev/null 2>/dev/null");
  CHECK(r.exit_code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("the namespace index describes every parameter in each language; names, types, defaults stay") {
  const rapidjson::Document en = get_json(with_locale(kIndex, "en_US"));
  const rapidjson::Value* en_routes = find(en, {"routes"});
  REQUIRE(en_routes != nullptr);
  for (const std::string lang : {"de_DE", "fr_FR", "es_ES"}) {
    CAPTURE(lang);
    const HttpResponse r = get(with_locale(kIndex, lang));
    REQUIRE_MESSAGE(r.status == 200, describe(r));
    CHECK(r.header("content-language") == bcp47(lang));
    const rapidjson::Document tr = r.json();
    size_t described = 0;
    for (const auto& route : en_routes->GetObject()) {
      const std::string key = route.name.GetString();
      CAPTURE(key);
      const rapidjson::Value* tr_endpoints = find(tr, {"routes", key, "endpoints"});
      REQUIRE(tr_endpoints != nullptr);
      REQUIRE(tr_endpoints->Size() == route.value["endpoints"].Size());
      for (rapidjson::SizeType i = 0; i < tr_endpoints->Size(); ++i) {
        const rapidjson::Value& en_e = route.value["endpoints"][i];
        const rapidjson::Value& tr_e = (*tr_endpoints)[i];
        CHECK(json_text(&en_e["methods"]) == json_text(&tr_e["methods"]));
        std::vector<std::string> en_names, tr_names;
        for (const auto& a : en_e["args"].GetObject()) en_names.push_back(a.name.GetString());
        for (const auto& a : tr_e["args"].GetObject()) tr_names.push_back(a.name.GetString());
        REQUIRE(en_names == tr_names);
        for (const std::string& name : en_names) {
          CAPTURE(name);
          const rapidjson::Value& en_a = en_e["args"][name.c_str()];
          const rapidjson::Value& tr_a = tr_e["args"][name.c_str()];
          for (const char* field : {"type", "default", "items", "enum", "required"})
            CHECK_MESSAGE(json_text(find(en_a, {field})) == json_text(find(tr_a, {field})), field);
          const std::string en_text = string_at(en_a, {"description"});
          const std::string tr_text = string_at(tr_a, {"description"});
          CHECK_FALSE(tr_text.empty());
          if (!kSameInTranslation.count(en_text))
            CHECK_MESSAGE(tr_text != en_text, "left in English: " << en_text);
          ++described;
        }
      }
    }
    CHECK(described > 250);  // every route's every argument was compared
  }
}

TEST_CASE("the OpenAPI document has the index's parameters with the same descriptions in each language") {
  for (const std::string& lang : kLanguages) {
    CAPTURE(lang);
    const rapidjson::Document index = get_json(with_locale(kIndex, lang));
    const HttpResponse doc_response = get(with_locale(kDoc, lang));
    REQUIRE_MESSAGE(doc_response.status == 200, describe(doc_response));
    CHECK(doc_response.header("content-language") == bcp47(lang));
    const rapidjson::Document doc = doc_response.json();
    size_t compared = 0;
    for (const auto& route : index["routes"].GetObject()) {
      const std::string path = doc_path(route.name.GetString());
      CAPTURE(path);
      for (const auto& endpoint : route.value["endpoints"].GetArray()) {
        for (const auto& m : endpoint["methods"].GetArray()) {
          std::string method = m.GetString();
          CAPTURE(method);
          for (char& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          const rapidjson::Value* op = find(doc, {"paths", path, method});
          REQUIRE_MESSAGE(op != nullptr, "the document lacks " << method << " " << path);
          // name -> (description, schema, required) as the document has it
          std::map<std::string, std::tuple<std::string, const rapidjson::Value*, bool>> doc_params;
          if (const auto* params = find(*op, {"parameters"})) {
            for (const auto& p : params->GetArray()) {
              // The pipeline's own parameters of every route are no route's args.
              const std::string name = p["name"].GetString();
              if (name == "_fields" || name == "_envelope" || name == "If-Match") continue;
              doc_params[name] = {string_at(p, {"description"}), &p["schema"], p["required"].GetBool()};
            }
          }
          if (const auto* body = find(*op, {"requestBody", "content", "application/json", "schema"})) {
            std::set<std::string> required;
            for (const std::string& n : strings_at(*body, {"required"})) required.insert(n);
            for (const auto& p : (*body)["properties"].GetObject())
              doc_params[p.name.GetString()] = {string_at(p.value, {"description"}), &p.value,
                                                required.count(p.name.GetString()) > 0};
          }
          CHECK(doc_params.size() == endpoint["args"].MemberCount());
          for (const auto& arg : endpoint["args"].GetObject()) {
            const std::string name = arg.name.GetString();
            CAPTURE(name);
            const auto it = doc_params.find(name);
            REQUIRE_MESSAGE(it != doc_params.end(), "the document lacks parameter " << name);
            const auto& [description, schema, required] = it->second;
            CHECK(description == string_at(arg.value, {"description"}));
            CHECK(schema_types(*schema) == json_text(find(arg.value, {"type"})));
            CHECK(json_text(find(*schema, {"default"})) == json_text(find(arg.value, {"default"})));
            const rapidjson::Value* items = schema_items(*schema);
            CHECK((items ? schema_types(*items) : "") == json_text(find(arg.value, {"items", "type"})));
            CHECK(json_text(schema_enum(*schema)) == json_text(find(arg.value, {"enum"})));
            const bool in_path = path.find("{" + name + "}") != std::string::npos;
            CHECK(required == (in_path || arg.value["required"].GetBool()));
            ++compared;
          }
        }
      }
    }
    CHECK(compared > 250);
  }
}

TEST_CASE("error messages come in the request's language with the same codes and parameter names") {
  for (const ErrorCase& c : kErrorCases) {
    CAPTURE(c.what);
    const HttpResponse en = send(c, "en_US");
    REQUIRE(error_mismatch(en, c.status, c.code) == "");
    const rapidjson::Document en_body = en.json();
    for (const std::string lang : {"de_DE", "fr_FR", "es_ES"}) {
      CAPTURE(lang);
      const HttpResponse r = send(c, lang);
      CHECK(error_mismatch(r, c.status, c.code) == "");
      CHECK(r.header("content-language") == bcp47(lang));
      const rapidjson::Document body = r.json();
      const std::string message = string_at(body, {"message"});
      CHECK_MESSAGE(message != string_at(en_body, {"message"}), "left in English: " << message);
      // Parameter names never change; their messages are translated and name them.
      const rapidjson::Value* en_params = find(en_body, {"data", "params"});
      const rapidjson::Value* params = find(body, {"data", "params"});
      REQUIRE((en_params == nullptr) == (params == nullptr));
      if (params == nullptr) continue;
      if (params->IsArray()) {
        CHECK(json_text(params) == json_text(en_params));
        continue;
      }
      REQUIRE(params->MemberCount() == en_params->MemberCount());
      for (const auto& p : params->GetObject()) {
        const std::string name = p.name.GetString();
        CAPTURE(name);
        REQUIRE(en_params->HasMember(name.c_str()));
        const std::string text = p.value.GetString();
        CHECK(text != (*en_params)[name.c_str()].GetString());
        CHECK(text.find(name) != std::string::npos);
        CHECK(message.find(name) != std::string::npos);
      }
    }
  }
}

TEST_CASE("the language is chosen by _locale, then Accept-Language by q-value, then the default") {
  std::map<std::string, std::string> not_found;  // language -> its rest_no_route message
  for (const std::string& lang : kLanguages)
    not_found[lang] = string_at(get(with_locale("/cal/events/v1/nothing", lang)).json(), {"message"});
  const struct {
    const char* query;
    const char* accept;
    const char* expected;
  } cases[] = {
      {"?_locale=fr_FR", "de", "fr_FR"},              // _locale first
      {"?_locale=es-es", "", "es_ES"},                // any case, - or _
      {"?_locale=de", "", "de_DE"},                   // a bare language picks its shipped region
      {"", "de;q=0.3, es;q=0.8, en;q=0.1", "es_ES"},  // Accept-Language by q-value
      {"?_locale=xx_XX", "fr-FR", "fr_FR"},           // unknown falls through
      {"", "ja, zh;q=0.9", "en_US"},                  // nothing shipped: the configured default
      {"", "", "en_US"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.query);
    CAPTURE(c.accept);
    std::vector<std::string> headers;
    if (*c.accept) headers.push_back(std::string("Accept-Language: ") + c.accept);
    const HttpResponse r = get(std::string("/cal/events/v1/nothing") + c.query, headers);
    CHECK(r.header("content-language") == bcp47(c.expected));
    CHECK(string_at(r.json(), {"message"}) == not_found[c.expected]);
  }
  // Content-Language on every kind of response.
  CHECK(get("/cal/events/v1/events?_locale=fr").header("content-language") == "fr-FR");
  CHECK(head("/cal/events/v1?_locale=de").header("content-language") == "de-DE");
  CHECK(options("/cal/events/v1/events?_locale=es").header("content-language") == "es-ES");
}

TEST_CASE("the German site variant (nginx: fastcgi_param CAL_LOCALE de_DE) answers in German") {
  // The stack's nginx.conf is generated from nginx/calendar.conf: this is the documented variant.
  const char* dir = std::getenv("CAL_TEST_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "CAL_TEST_DIR names the stack directory");
  std::ifstream conf(std::string(dir) + "/nginx.conf");
  std::stringstream text;
  text << conf.rdbuf();
  const std::string nginx = text.str();
  const size_t location = nginx.find("location /de/api/ {");
  REQUIRE(location != std::string::npos);
  CHECK(nginx.find("fastcgi_param CAL_LOCALE de_DE;", location) < nginx.find('}', location));

  // CAL_LOCALE wins over _locale and Accept-Language.
  const std::vector<std::string> french = {"Accept-Language: fr-FR"};
  const HttpResponse index = get(german_site("/cal/events/v1?_locale=es_ES"), french);
  REQUIRE_MESSAGE(index.status == 200, describe(index));
  CHECK(index.header("content-language") == "de-DE");
  const rapidjson::Document de_index = get_json(with_locale(kIndex, "de_DE"));
  const rapidjson::Document site_index = index.json();
  CHECK(json_text(find(site_index, {"routes"})) ==
        [&] {  // the same descriptions as ?_locale=de_DE, with the variant's own links
          std::string expected = json_text(find(de_index, {"routes"}));
          for (size_t at = 0; (at = expected.find("/api/cal/events/v1", at)) != std::string::npos; at += 21)
            expected.replace(at, 18, "/de/api/cal/events/v1");
          return expected;
        }());
  CHECK(string_at(site_index, {"_links", "up", "0", "href"}).find("/de/api/") != std::string::npos);

  const HttpResponse doc = get(german_site("/cal/events/v1/doc"), french);
  REQUIRE_MESSAGE(doc.status == 200, describe(doc));
  CHECK(doc.header("content-language") == "de-DE");
  const rapidjson::Document doc_body = doc.json();
  const std::string server = string_at(doc_body, {"servers", "0", "url"});
  CHECK(server.substr(server.size() - std::string("/de/api/cal/events/v1/").size()) ==
        "/de/api/cal/events/v1/");
  CHECK(string_at(doc_body, {"paths", "/events", "get", "summary"}) == "Datensätze auflisten.");

  const HttpResponse missing = get(german_site("/cal/events/v1/events/999999999?_locale=en_US"), french);
  CHECK(error_mismatch(missing, 404, "rest-event-not-found") == "");
  CHECK(string_at(missing.json(), {"message"}) == "Die angeforderte Veranstaltung wurde nicht gefunden.");
  const HttpResponse invalid = get(german_site("/cal/events/v1/events?per_page=x"));
  CHECK(string_at(invalid.json(), {"data", "params", "per_page"}) ==
        "per_page muss eine positive ganze Zahl sein.");
}

TEST_CASE("started as CGI, the service reads its catalogs from [site] locale_dir or beside the binary") {
  // Beside the binary (build/locale): CAL_LOCALE from the environment picks French.
  const std::string french = run_cgi("fr_FR", "");
  CHECK(french.find("Content-Language: fr-FR\r\n") != std::string::npos);
  CHECK(french.find("Aucune route ne correspond") != std::string::npos);
  // A directory without catalogs ships only the source language.
  const std::string none = run_cgi("fr_FR", "--site.locale_dir=/nonexistent");
  CHECK(none.find("Content-Language: en-US\r\n") != std::string::npos);
  CHECK(none.find("No route was found") != std::string::npos);
  // A directory of one's own: whatever catalog it holds is that language.
  const std::string c = std::getenv("CAL_TEST_CTL");
  const std::filesystem::path build = c.substr(0, c.rfind('/', c.find(' ')));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / unique("locale");
  std::filesystem::create_directories(dir / "es_ES" / "LC_MESSAGES");
  std::filesystem::copy_file(build / "locale" / "de_DE" / "LC_MESSAGES" / "calendar.mo",
                             dir / "es_ES" / "LC_MESSAGES" / "calendar.mo");
  const std::string own = run_cgi("es_ES", "--site.locale_dir=" + dir.string());
  CHECK(own.find("Content-Language: es-ES\r\n") != std::string::npos);
  CHECK(own.find("Es wurde keine Route gefunden") != std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace caltest

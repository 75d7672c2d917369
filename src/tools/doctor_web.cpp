// The doctor's web server checks (see doctor_checks.h): what a WordPress client and an
// authenticated script see through the site's web server, asked over HTTP with libcurl.
#include "doctor_checks.h"

#include <curl/curl.h>
#include <rapidjson/document.h>

#include <cctype>
#include <string>
#include <vector>

namespace cal {
namespace {

constexpr const char* kNamespace = "cal/events/v1";
constexpr const char* kRel = "rel=\"https://api.w.org/\"";

struct Answer {
  long status = 0;    // 0: no answer (error says why)
  std::string error;  // libcurl's reason when there was no answer
  std::string link;   // the Link header(s), joined with ", "
  std::string content_type;
  std::string body;
};

size_t keep_body(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// Collects the Link and Content-Type headers (names case-insensitive) of the last response.
size_t keep_header(char* data, size_t size, size_t count, void* out) {
  Answer& a = *static_cast<Answer*>(out);
  std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) a.link.clear();  // a new response (after a redirect)
  const std::size_t colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.pop_back();
    if (name == "link") a.link += (a.link.empty() ? "" : ", ") + value;
    if (name == "content-type") a.content_type = value;
  }
  return size * count;
}

Answer get(const std::string& url, const std::vector<std::string>& headers = {}) {
  Answer a;
  CURL* curl = curl_easy_init();
  if (!curl) {
    a.error = "libcurl could not start";
    return a;
  }
  curl_slist* list = nullptr;
  for (const std::string& h : headers) list = curl_slist_append(list, h.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &a.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, keep_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &a);
  if (const CURLcode rc = curl_easy_perform(curl); rc != CURLE_OK)
    a.error = curl_easy_strerror(rc);
  else
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &a.status);
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  return a;
}

// "status 404 (text/html)" or libcurl's reason.
std::string described(const Answer& a) {
  if (a.status == 0) return a.error;
  return "status " + std::to_string(a.status) + (a.content_type.empty() ? "" : " (" + a.content_type + ")");
}

// The URL of the Link entry with the WordPress API relation, or "".
std::string api_link(const std::string& link) {
  const std::size_t rel = link.find(kRel);
  if (rel == std::string::npos) return "";
  const std::size_t close = link.rfind('>', rel);
  const std::size_t open = close == std::string::npos ? close : link.rfind('<', close);
  if (open == std::string::npos) return "";
  return link.substr(open + 1, close - open - 1);
}

// Whether `body` is a JSON object whose "namespaces" lists ours (the REST root index).
bool lists_our_namespace(const std::string& body) {
  rapidjson::Document doc;
  doc.Parse(body.c_str(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("namespaces") || !doc["namespaces"].IsArray())
    return false;
  for (const auto& n : doc["namespaces"].GetArray())
    if (n.IsString() && std::string(n.GetString()) == kNamespace) return true;
  return false;
}

// The "code" of a JSON error body with data.status 401, or "".
std::string our_401_code(const std::string& body) {
  rapidjson::Document doc;
  doc.Parse(body.c_str(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("code") || !doc["code"].IsString() ||
      !doc.HasMember("data") || !doc["data"].IsObject() || !doc["data"].HasMember("status") ||
      !doc["data"]["status"].IsInt() || doc["data"]["status"].GetInt() != 401)
    return "";
  return doc["code"].GetString();
}

}  // namespace

void check_web_server(DoctorReport& report, const std::string& site_url) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  const std::string site = site_url.empty() || site_url.back() == '/' ? site_url : site_url + "/";
  const std::string deploying = " (docs/deploying.md; nginx/calendar.conf and apache/ have it)";

  const Answer front = get(site);
  std::string root = api_link(front.link);
  if (!root.empty())
    report.line(Verdict::kOk, "web server front page", site + " names the REST root " + root);
  else
    report.line(Verdict::kFailure, "web server front page",
                site + " answered " + described(front) + " without Link: <...>; " + kRel,
                "serve the front page with the header Link: <" + site + "api/>; " + kRel + deploying);
  if (root.empty()) root = site + "api/";
  if (root.back() != '/') root += '/';

  const Answer index = get(root);
  const bool routed = index.status == 200 && lists_our_namespace(index.body);
  if (routed)
    report.line(Verdict::kOk, "web server /api/", root + " is this service's index (" + kNamespace + ")");
  else
    report.line(Verdict::kFailure, "web server /api/",
                root + " answered " + described(index) + ", not this service's index listing " + kNamespace,
                "pass " + root +
                    " and every path below it to calendar-fcgi (fastcgi_pass, or Apache's "
                    "mod_fcgid/mod_proxy_fcgi)" +
                    deploying);

  if (!routed) {
    report.line(Verdict::kFailure, "web server Authorization",
                "not checked: the REST root does not reach the service", "fix the web server's /api/ first");
  } else {
    // A public route: without the header it answers 200, so a 401 proves the header arrived.
    const std::string url = root + kNamespace + "/events?per_page=1";
    const Answer bogus = get(url, {"Authorization: Bearer calendarctl-doctor-not-a-token"});
    const std::string code = bogus.status == 401 ? our_401_code(bogus.body) : "";
    if (!code.empty())
      report.line(Verdict::kOk, "web server Authorization",
                  "a wrong Bearer token is refused by the service (" + code + ")");
    else
      report.line(Verdict::kFailure, "web server Authorization",
                  url + " with a wrong Bearer token answered " + described(bogus) +
                      ", not the service's 401: the web server does not pass the Authorization header on",
                  "nginx: fastcgi_param HTTP_AUTHORIZATION $http_authorization; Apache: CGIPassAuth On "
                  "(mod_fcgid, CGI) or SetEnvIf Authorization \"(.*)\" HTTP_AUTHORIZATION=$1" +
                      deploying);
  }
  curl_global_cleanup();
}

}  // namespace cal

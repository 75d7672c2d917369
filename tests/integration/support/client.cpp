// HTTP client for the integration tests (see support/client.h): libcurl with one reused handle per
// thread for kept-alive requests and a fresh one for every other request, plus credentials,
// test users via calendarctl, and docs/api.md §2 error-shape checks.
#include "support/client.h"

#include "support/commands.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <unistd.h>

#include <curl/curl.h>
#include <rapidjson/error/en.h>
#include <sstream>

namespace caltest {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string shorten(std::string_view s, size_t max = 600) {
  if (s.size() <= max) return std::string(s);
  return std::string(s.substr(0, max)) + "... (" + std::to_string(s.size()) + " bytes)";
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

// One curl handle per thread: keeps its connection alive between requests.
struct CurlDeleter {
  void operator()(CURL* h) const { curl_easy_cleanup(h); }
};

CURL* thread_handle() {
  thread_local std::unique_ptr<CURL, CurlDeleter> handle(curl_easy_init());
  if (!handle) throw std::runtime_error("curl_easy_init failed");
  return handle.get();
}

struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

bool has_header(const std::vector<std::string>& headers, std::string_view name) {
  for (const std::string& h : headers) {
    if (h.size() > name.size() && lower(h.substr(0, name.size())) == name &&
        (h[name.size()] == ':' || h[name.size()] == ';')) {
      return true;
    }
  }
  return false;
}

// Letters, digits, '_' and '-' only: these strings end up on a shell command line.
void require_word(std::string_view what, std::string_view s) {
  for (const char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
      throw std::invalid_argument(std::string(what) +
                                  " may hold only letters, digits, "
                                  "'_' and '-': " +
                                  std::string(s));
    }
  }
}

std::string base36(unsigned long long n) {
  std::string out;
  do {
    out.insert(out.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36]);
    n /= 36;
  } while (n != 0);
  return out;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  static_cast<HttpResponse*>(user)->body.append(data, size * count);
  return size * count;
}

// Collects "Name: value" lines, names lower-cased; a new status line (after 100 Continue) starts over.
size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* r = static_cast<HttpResponse*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    r->headers.clear();
  } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
    r->headers.emplace(lower(trim(line.substr(0, colon))), std::string(trim(line.substr(colon + 1))));
  }
  return size * count;
}

}  // namespace

const std::string& base_url() {
  static const std::string base = [] {
    const char* v = env("CAL_TEST_BASE");
    if (v == nullptr) throw std::runtime_error("CAL_TEST_BASE is not set");
    std::string b = v;
    while (!b.empty() && b.back() == '/') b.pop_back();
    return b;
  }();
  return base;
}

std::string HttpResponse::header(std::string_view name) const {
  const auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

rapidjson::Document HttpResponse::json() const {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError()) {
    throw std::runtime_error(std::string("response body is not JSON (") +
                             rapidjson::GetParseError_En(doc.GetParseError()) + "): " + describe(*this));
  }
  return doc;
}

HttpResponse send(const Request& r, std::chrono::milliseconds* elapsed) {
  std::unique_ptr<CURL, CurlDeleter> own;
  CURL* h = nullptr;
  if (r.keep_alive) {
    h = thread_handle();
    curl_easy_reset(h);  // keeps the connection, forgets the previous request's options
  } else {
    own.reset(curl_easy_init());
    if (!own) throw std::runtime_error("curl_easy_init failed");
    h = own.get();
  }
  HttpResponse response;
  char error[CURL_ERROR_SIZE] = "";

  curl_easy_setopt(h, CURLOPT_URL, r.url.c_str());
  curl_easy_setopt(h, CURLOPT_PROXY, "");  // never through a proxy from the environment
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  if (!r.keep_alive) curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, r.timeout_ms);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, std::min(r.timeout_ms, r.connect_timeout_ms));
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &response);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &response);
  const std::string interface = "host!" + r.source_ip;
  if (!r.source_ip.empty()) curl_easy_setopt(h, CURLOPT_INTERFACE, interface.c_str());

  const std::string& verb = r.method;
  const bool sends_body = !r.body.empty() || verb == "POST" || verb == "PUT" || verb == "PATCH";
  if (verb == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (sends_body) {
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, r.body.c_str());  // never NULL
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    if (verb != "POST") curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, verb.c_str());
  } else if (verb != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, verb.c_str());
  }

  std::vector<std::string> headers = r.headers;
  if (sends_body && !has_header(headers, "content-type")) {
    headers.emplace_back("Content-Type:");  // drop curl's default form content type
  }
  headers.emplace_back("Expect:");  // no 100-continue round trip for large bodies
  std::unique_ptr<curl_slist, SlistDeleter> list;
  for (const std::string& line : headers) {
    curl_slist* head = curl_slist_append(list.get(), line.c_str());  // same head once set
    if (head == nullptr) throw std::runtime_error("curl_slist_append failed");
    if (!list) list.reset(head);
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, list.get());

  const auto start = std::chrono::steady_clock::now();
  const CURLcode rc = curl_easy_perform(h);
  if (elapsed != nullptr) {
    *elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
  if (rc != CURLE_OK) {
    throw std::runtime_error(verb + " " + r.url + ": " + curl_easy_strerror(rc) + " " + error);
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

HttpResponse request(std::string_view method, std::string_view path, std::string_view body,
                     std::vector<std::string> headers) {
  return send({.url = base_url() + std::string(path),
               .method = std::string(method),
               .body = std::string(body),
               .headers = std::move(headers),
               .keep_alive = true});
}

HttpResponse get(std::string_view path, std::vector<std::string> headers) {
  return request("GET", path, {}, std::move(headers));
}

HttpResponse head(std::string_view path, std::vector<std::string> headers) {
  return request("HEAD", path, {}, std::move(headers));
}

HttpResponse options(std::string_view path, std::vector<std::string> headers) {
  return request("OPTIONS", path, {}, std::move(headers));
}

HttpResponse del(std::string_view path, std::vector<std::string> headers) {
  return request("DELETE", path, {}, std::move(headers));
}

namespace {
HttpResponse send_json(std::string_view method, std::string_view path, std::string_view json,
                       std::vector<std::string> headers) {
  headers.emplace_back("Content-Type: application/json");
  return request(method, path, json, std::move(headers));
}
}  // namespace

HttpResponse post_json(std::string_view path, std::string_view json_text, std::vector<std::string> headers) {
  return send_json("POST", path, json_text, std::move(headers));
}

HttpResponse put_json(std::string_view path, std::string_view json_text, std::vector<std::string> headers) {
  return send_json("PUT", path, json_text, std::move(headers));
}

HttpResponse patch_json(std::string_view path, std::string_view json_text, std::vector<std::string> headers) {
  return send_json("PATCH", path, json_text, std::move(headers));
}

HttpResponse post_form(std::string_view path, std::string_view form, std::vector<std::string> headers) {
  headers.emplace_back("Content-Type: application/x-www-form-urlencoded");
  return request("POST", path, form, std::move(headers));
}

std::string bearer(std::string_view token) { return "Authorization: Bearer " + std::string(token); }

std::string basic(std::string_view login, std::string_view password) {
  return "Authorization: Basic " + base64(std::string(login) + ":" + std::string(password));
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned n = static_cast<unsigned char>(bytes[i]) << 16 |
                       static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[n >> 18 & 63];
    out += kAlphabet[n >> 12 & 63];
    out += kAlphabet[n >> 6 & 63];
    out += kAlphabet[n & 63];
  }
  if (i < bytes.size()) {
    unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[n >> 18 & 63];
    out += kAlphabet[n >> 12 & 63];
    out += i + 1 < bytes.size() ? kAlphabet[n >> 6 & 63] : '=';
    out += '=';
  }
  return out;
}

bool geoloc_on() {
  const char* v = env("CAL_TEST_GEOLOC");
  return v != nullptr && std::string_view(v) == "on";
}

bool lease_on() {
  const char* v = env("CAL_TEST_LEASE");
  return v != nullptr && std::string_view(v) == "on";
}

std::string geoloc_mismatch() {
  const char* v = env("CAL_TEST_GEOLOC");
  const std::string said = v != nullptr ? v : "off";
  if (said != "on" && said != "off") return "CAL_TEST_GEOLOC must be on or off, not '" + said + "'";
  const HttpResponse probe = get("/cal/events/v1/events?geoloc=true&search=" + unique("geoprobe"));
  const std::string stack = probe.status == 200 ? "on" : probe.status == 400 ? "off" : "";
  if (stack.empty()) return "the geoloc probe got " + describe(probe);
  if (stack == said) return {};
  return "CAL_TEST_GEOLOC is " + said + " but the stack's geolocation extension is " + stack +
         " (scripts/run-tests.sh runs the geoloc-on cases against a second stack)";
}

const std::string& admin_token() {
  static const std::string token = [] {
    if (const char* t = env("CAL_TEST_TOKEN")) return std::string(trim(t));
    if (const char* dir = env("CAL_TEST_DIR")) {
      std::ifstream in(std::string(dir) + "/admin.token");
      std::string line;
      if (std::getline(in, line) && !trim(line).empty()) return std::string(trim(line));
    }
    throw std::runtime_error("no admin token: set CAL_TEST_TOKEN (or CAL_TEST_DIR)");
  }();
  return token;
}

std::string unique(std::string_view prefix) {
  static const std::string run = [] {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    return base36(static_cast<unsigned long long>(ms)) +
           base36(static_cast<unsigned long long>(getpid()) % 1296);
  }();
  static std::atomic<unsigned long long> counter{0};
  return lower(prefix) + "_" + run + "_" + std::to_string(++counter);
}

std::string create_user(std::string_view login_prefix, std::string_view role, std::string* login_out) {
  const char* ctl = env("CAL_TEST_CTL");
  if (ctl == nullptr) throw std::runtime_error("CAL_TEST_CTL is not set");
  require_word("login prefix", login_prefix);
  require_word("role", role);
  const std::string login = unique(login_prefix);
  const std::string command = std::string(ctl) + " user add " + login + " --role " + std::string(role);

  const Run r = run(command);
  if (r.exit_code != 0)
    throw std::runtime_error("failed (status " + std::to_string(r.exit_code) + "): " + command);
  const std::string password(trim(r.out));
  if (password.empty() || password.find('\n') != std::string::npos) {
    throw std::runtime_error("expected one password line from: " + command + "; got: " + r.out);
  }
  if (login_out != nullptr) *login_out = login;
  return password;
}

std::string error_mismatch(const HttpResponse& r, long status, std::string_view code) {
  const std::string context = "; response: " + describe(r);
  if (r.status != status) {
    return "status " + std::to_string(r.status) + " != " + std::to_string(status) + context;
  }
  if (r.header("content-type") != "application/json; charset=UTF-8") {
    return "Content-Type is '" + r.header("content-type") + "'" + context;
  }
  rapidjson::Document doc;
  doc.Parse(r.body.data(), r.body.size());
  if (doc.HasParseError() || !doc.IsObject()) return "body is not a JSON object" + context;
  if (doc.MemberCount() != 3 || !doc.HasMember("code") || !doc.HasMember("message") ||
      !doc.HasMember("data")) {
    return "body must have exactly code, message, data" + context;
  }
  if (!doc["code"].IsString() || doc["code"].GetString() != code) {
    return "code is not '" + std::string(code) + "'" + context;
  }
  if (!doc["message"].IsString() || doc["message"].GetStringLength() == 0) {
    return "message is not a non-empty string" + context;
  }
  const rapidjson::Value& data = doc["data"];
  if (!data.IsObject() || !data.HasMember("status") || !data["status"].IsInt64() ||
      data["status"].GetInt64() != r.status) {
    return "data.status is not the HTTP status" + context;
  }
  return {};
}

const rapidjson::Value* find(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  const rapidjson::Value* at = &v;
  for (const std::string_view step : path) {
    if (at->IsObject()) {
      const auto it = at->FindMember(rapidjson::Value(rapidjson::StringRef(step.data(), step.size())));
      if (it == at->MemberEnd()) return nullptr;
      at = &it->value;
    } else if (at->IsArray()) {
      size_t index = 0;
      if (step.empty()) return nullptr;
      for (const char c : step) {
        if (c < '0' || c > '9') return nullptr;
        index = index * 10 + static_cast<size_t>(c - '0');
      }
      if (index >= at->Size()) return nullptr;
      at = &(*at)[static_cast<rapidjson::SizeType>(index)];
    } else {
      return nullptr;
    }
  }
  return at;
}

std::string string_at(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  const rapidjson::Value* s = find(v, path);
  return s != nullptr && s->IsString() ? std::string(s->GetString(), s->GetStringLength()) : std::string();
}

std::vector<std::string> strings_at(const rapidjson::Value& v, std::initializer_list<std::string_view> path) {
  std::vector<std::string> out;
  const rapidjson::Value* a = find(v, path);
  if (a == nullptr || !a->IsArray()) return out;
  for (const rapidjson::Value& item : a->GetArray()) {
    if (item.IsString()) out.emplace_back(item.GetString(), item.GetStringLength());
  }
  return out;
}

std::string describe(const HttpResponse& r) {
  return "HTTP " + std::to_string(r.status) + " " + shorten(r.body);
}

}  // namespace caltest

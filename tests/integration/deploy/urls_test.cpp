// Absolute URLs in responses (rest_url, url, urls, Location, links; docs/api.md §3): from the request's
// scheme, host, port and prefix unless [site] url / rest_url are configured, with
// X-Forwarded-Proto/-Host honoured only under trust_proxy. Run through calendar-fcgi started as
// plain CGI with the test stack's config, so each case can set its own options and variables.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "support/client.h"
#include "support/commands.h"

namespace caltest {
namespace {

struct CgiReply {
  int status = 0;
  std::string head;  // the header lines, "\r\n"-separated
  std::string body;

  std::string header(const std::string& name) const {
    const size_t at = head.find(name + ": ");
    if (at == std::string::npos) return "";
    const size_t start = at + name.size() + 2;
    return head.substr(start, head.find("\r\n", start) - start);
  }
  rapidjson::Document json() const {
    rapidjson::Document doc;
    doc.Parse(body.data(), body.size());
    REQUIRE_MESSAGE(!doc.HasParseError(), body);
    return doc;
  }
};

// Runs calendar-fcgi (beside CAL_TEST_CTL's calendarctl, with its --config) as CGI in a clean
// environment holding only `env` ("NAME=value", no single quotes), extra command-line `options`
// and `body` on standard input.
CgiReply run_cgi(const std::vector<std::string>& env, const std::string& options = "",
                 const std::string& body = "") {
  char body_file[] = "/tmp/cal-cgi-body-XXXXXX";
  const int fd = mkstemp(body_file);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, body.data(), body.size()) == static_cast<ssize_t>(body.size()));
  close(fd);
  std::string command = "env -i";
  for (const std::string& e : env) command += " '" + e + "'";
  if (!body.empty())
    command += " CONTENT_LENGTH=" + std::to_string(body.size()) + " CONTENT_TYPE=application/json";
  command += " " + service_command() + " " + options + " <" + body_file + " 2>/dev/null";
  const std::string out = run(command).out;
  unlink(body_file);
  CgiReply r;
  const size_t end = out.find("\r\n\r\n");
  REQUIRE_MESSAGE(end != std::string::npos, out);
  r.head = out.substr(0, end);
  r.body = out.substr(end + 4);
  REQUIRE_MESSAGE(r.head.rfind("Status: ", 0) == 0, out);
  r.status = std::atoi(r.head.c_str() + 8);
  return r;
}

// The namespace index's link to the REST root, for one request's variables and options.
std::string root_link(std::vector<std::string> env, const std::string& options = "") {
  env.insert(env.end(), {"REQUEST_METHOD=GET", "PATH_INFO=/cal/events/v1"});
  const CgiReply r = run_cgi(env, options);
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return string_at(r.json(), {"_links", "up", "0", "href"});
}

TEST_CASE(
    "without site.url and site.rest_url, absolute URLs follow the request's scheme, host, port and prefix") {
  struct Case {
    std::vector<std::string> env;
    const char* options;
    const char* root;
  };
  const std::string fwd_proto = "HTTP_X_FORWARDED_PROTO=https";
  const std::string fwd_host = "HTTP_X_FORWARDED_HOST=public.example, inner.example";
  const Case kCases[] = {
      {{"SCRIPT_NAME=/api", "HTTP_HOST=example.org", "SERVER_PORT=80"}, "", "http://example.org/api/"},
      // nginx passes $host without the port: it comes from SERVER_PORT.
      {{"SCRIPT_NAME=/api", "HTTP_HOST=example.org", "SERVER_PORT=8080"}, "", "http://example.org:8080/api/"},
      // Apache passes the Host header as sent.
      {{"SCRIPT_NAME=/calendar/api", "HTTP_HOST=example.org:8080", "SERVER_PORT=8080"},
       "",
       "http://example.org:8080/calendar/api/"},
      {{"SCRIPT_NAME=/calendar/api", "HTTPS=on", "HTTP_HOST=example.org", "SERVER_PORT=443"},
       "",
       "https://example.org/calendar/api/"},
      {{"SCRIPT_NAME=/a/b/api", "REQUEST_SCHEME=https", "HTTP_HOST=example.org:8443", "SERVER_PORT=8443"},
       "",
       "https://example.org:8443/a/b/api/"},
      // X-Forwarded-* are ignored unless trusted...
      {{"SCRIPT_NAME=/api", "HTTP_HOST=inner:8080", fwd_proto, fwd_host}, "", "http://inner:8080/api/"},
      {{"SCRIPT_NAME=/api", "HTTP_HOST=inner:8080", fwd_proto, fwd_host},
       "--site.trust_proxy=false",
       "http://inner:8080/api/"},
      // ... and replace scheme and host (the first of a list) under trust_proxy; the prefix stays.
      {{"SCRIPT_NAME=/api", "HTTP_HOST=inner:8080", fwd_proto, fwd_host},
       "--site.trust_proxy=true",
       "https://public.example/api/"},
      {{"SCRIPT_NAME=/api", "HTTP_HOST=inner:8080", fwd_proto},
       "--site.trust_proxy=true",
       "https://inner:8080/api/"},
      // Configured, the REST root wins over all of it.
      {{"SCRIPT_NAME=/api", "HTTP_HOST=inner:8080", fwd_proto, fwd_host},
       "--site.trust_proxy=true --site.rest_url=https://api.example.org/v2/",
       "https://api.example.org/v2/"},
  };
  for (const Case& c : kCases) {
    std::string env_text;
    for (const std::string& e : c.env) env_text += e + " ";
    CAPTURE(env_text);
    CAPTURE(c.options);
    CHECK(root_link(c.env, c.options) == c.root);
  }
}

TEST_CASE("site.url and site.rest_url, when configured, make every absolute URL of a write") {
  const std::vector<std::string> env = {"REQUEST_METHOD=POST",
                                        "SCRIPT_NAME=/internal",
                                        "HTTP_HOST=inner:8080",
                                        "HTTP_X_FORWARDED_PROTO=http",
                                        "HTTP_X_FORWARDED_HOST=proxy.example",
                                        "HTTP_AUTHORIZATION=Bearer " + admin_token()};
  const std::string options =
      "--site.trust_proxy=true --site.url=https://www.example.org/ "
      "--site.rest_url=https://api.example.org/v2";
  const std::string ns = "https://api.example.org/v2/cal/events/v1";

  std::vector<std::string> event_env = env;
  event_env.emplace_back("PATH_INFO=/cal/events/v1/events");
  const CgiReply event = run_cgi(event_env, options,
                                 "{\"title\":\"" + unique("deployurl") +
                                     "\",\"start_date\":\"2031-05-06 10:00:00\","
                                     "\"end_date\":\"2031-05-06 11:00:00\"}");
  REQUIRE_MESSAGE(event.status == 201, event.body);
  const auto e = event.json();
  const std::string event_id = std::to_string(find(e, {"id"})->GetInt64());
  CHECK(string_at(e, {"rest_url"}) == ns + "/events/" + event_id);
  CHECK(event.header("Location") == ns + "/events/" + event_id);
  CHECK(string_at(e, {"url"}) == "https://www.example.org/event/" + string_at(e, {"slug"}) + "/");

  std::vector<std::string> term_env = env;
  term_env.emplace_back("PATH_INFO=/cal/events/v1/categories");
  const CgiReply term = run_cgi(term_env, options, "{\"name\":\"" + unique("deployurl") + "\"}");
  REQUIRE_MESSAGE(term.status == 201, term.body);
  const auto t = term.json();
  const std::string term_id = std::to_string(find(t, {"id"})->GetInt64());
  CHECK(string_at(t, {"urls", "self"}) == ns + "/categories/" + term_id);
  CHECK(string_at(t, {"urls", "collection"}) == ns + "/categories");
  CHECK(term.header("Location") == ns + "/categories/" + term_id);
  CHECK(string_at(t, {"url"}) == "https://www.example.org/events/category/" + string_at(t, {"slug"}) + "/");

  // Through the stack (nothing configured there), the same records carry its own URLs.
  const HttpResponse via_nginx = get("/cal/events/v1/events/" + event_id);
  CHECK(string_at(via_nginx.json(), {"rest_url"}) == base_url() + "/cal/events/v1/events/" + event_id);

  del("/cal/events/v1/events/" + event_id + "?force=true", {bearer(admin_token())});
  del("/cal/events/v1/categories/" + term_id + "?force=true", {bearer(admin_token())});
}

}  // namespace
}  // namespace caltest

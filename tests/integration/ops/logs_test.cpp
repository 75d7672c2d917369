// The request logs (docs/operations.md) on a stack of their own whose calendar.conf sends the
// access log as JSON lines to a file and every request of a millisecond or more to the slow log:
// each line's fields, the request id taken from X-Request-Id and echoed, no credentials, the slow
// log's route, redacted query string and statement times, and reopening on SIGHUP as logrotate
// needs. Error lines with the request id are proven on CGI with a database that is not there.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include "ops/ops_stack.h"

namespace caltest {
namespace {

// The last line of `text` containing `needle`, or "".
std::string line_with(const std::string& text, const std::string& needle) {
  const std::size_t at = text.rfind(needle);
  if (at == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', at);
  const std::size_t end = text.find('\n', at);
  return text.substr(
      start == std::string::npos ? 0 : start + 1,
      (end == std::string::npos ? text.size() : end) - (start == std::string::npos ? 0 : start + 1));
}

// Waits up to two seconds for `needle` to appear in the file.
std::string wait_for(const std::string& path, const std::string& needle) {
  for (int i = 0; i < 40; ++i) {
    const std::string text = read_text_file(path);
    if (text.find(needle) != std::string::npos) return text;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return read_text_file(path);
}

}  // namespace

TEST_CASE(
    "JSON access lines with the request id echoed, a slow log with statement times, reopened on SIGHUP") {
  OpsStack stack(
      "logs", "[log]\naccess = @DIR@/access.log\naccess_format = json\nslow = @DIR@/slow.log\nslow_ms = 1\n");
  const std::string access = stack.dir() + "/access.log";
  const std::string id = "ops-" + unique("id");
  const HttpResponse created = send(
      {.url = stack.url("/cal/events/v1/events"),
       .method = "POST",
       .body = "{\"title\":\"Logged\",\"start_date\":\"2031-05-05 10:00\",\"end_date\":\"2031-05-05 11:00\"}",
       .headers = {stack.admin(), "Content-Type: application/json", "X-Request-Id: " + id}});
  REQUIRE_MESSAGE(created.status == 201, describe(created));
  CHECK(created.header("x-request-id") == id);
  const std::string line = line_with(wait_for(access, id), id);
  REQUIRE_MESSAGE(!line.empty(), read_text_file(access));
  CAPTURE(line);
  CHECK(line.rfind("{\"time\":\"20", 0) == 0);
  for (const std::string& field :
       {"\"request_id\":\"" + id + "\"", std::string("\"method\":\"POST\""),
        std::string("\"route\":\"/cal/events/v1/events\""), std::string("\"status\":201"),
        "\"bytes\":" + std::to_string(created.body.size()), std::string("\"duration_us\":"),
        std::string("\"statements\":"), std::string("\"cache\":\"\""), std::string("\"caller\":1}")})
    CHECK_MESSAGE(line.find(field) != std::string::npos, field);
  // Never the token, never the body.
  const std::string token = stack.admin().substr(std::string("Authorization: Bearer ").size());
  CHECK(read_text_file(access).find(token) == std::string::npos);
  CHECK(read_text_file(access).find("Logged") == std::string::npos);

  // Without X-Request-Id, one is made and echoed; a visitor's cached read says hit.
  const HttpResponse first = send({.url = stack.url("/cal/events/v1/events?per_page=1")});
  const HttpResponse second = send({.url = stack.url("/cal/events/v1/events?per_page=1")});
  REQUIRE(second.status == 200);
  const std::string made = second.header("x-request-id");
  CHECK(!made.empty());
  CHECK(made != first.header("x-request-id"));
  const std::string cached_line = line_with(wait_for(access, made), made);
  CHECK_MESSAGE(cached_line.find("\"cache\":\"hit\"") != std::string::npos, cached_line);
  CHECK_MESSAGE(cached_line.find("\"caller\":0") != std::string::npos, cached_line);

  // The slow log: route, query string with the password's value hidden, each statement's time.
  const std::string slow_id = "ops-" + unique("slow");
  // A create (tens of milliseconds, where a read may take less than the threshold's one).
  const HttpResponse slow_write = send(
      {.url = stack.url("/cal/events/v1/events?_locale=en_US&password=hunter2"),
       .method = "POST",
       .body = "{\"title\":\"Slow\",\"start_date\":\"2031-05-06 10:00\",\"end_date\":\"2031-05-06 11:00\"}",
       .headers = {stack.admin(), "Content-Type: application/json", "X-Request-Id: " + slow_id}});
  REQUIRE_MESSAGE(slow_write.status == 201, describe(slow_write));
  const std::string slow = line_with(wait_for(stack.dir() + "/slow.log", slow_id), slow_id);
  REQUIRE_MESSAGE(!slow.empty(), read_text_file(stack.dir() + "/slow.log"));
  CAPTURE(slow);
  CHECK(slow.find("\"route\":\"/cal/events/v1/events\"") != std::string::npos);
  CHECK(slow.find("\"query\":\"_locale=en_US&password=***\"") != std::string::npos);
  CHECK(slow.find("\"statements\":[{\"sql\":\"SELECT") != std::string::npos);
  CHECK(slow.find("{\"sql\":\"INSERT INTO posts") != std::string::npos);
  CHECK(slow.find("hunter2") == std::string::npos);

  // logrotate: the file is moved away, SIGHUP, and the next line goes to a new file.
  REQUIRE(std::rename(access.c_str(), (access + ".1").c_str()) == 0);
  REQUIRE(kill(static_cast<pid_t>(stack.service_pid()), SIGHUP) == 0);
  const std::string after = "ops-" + unique("rotated");
  std::string reopened;
  for (int i = 0; i < 40 && reopened.find(after) == std::string::npos; ++i) {
    send({.url = stack.url("/cal/events/v1"), .headers = {"X-Request-Id: " + after}});
    reopened = read_text_file(access);
    if (reopened.find(after) == std::string::npos) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK_MESSAGE(reopened.find(after) != std::string::npos, reopened);
  CHECK(read_text_file(access + ".1").find(id) != std::string::npos);
  // The service is still serving, SIGHUP did not stop it.
  CHECK(send({.url = stack.url("/cal/events/v1/health")}).status == 200);
}

TEST_CASE("an error line carries the request id of its request") {
  const Run r =
      run("env -i REQUEST_METHOD=GET SCRIPT_NAME=/api PATH_INFO=/cal/events/v1/events "
          "HTTP_HOST=example.org HTTP_X_REQUEST_ID=ops-error-7 " +
          service_command() + " --database.socket=/nonexistent/mysqld.sock </dev/null 2>&1 >/dev/null");
  CHECK_MESSAGE(r.out.find("request ops-error-7: database unavailable") != std::string::npos, r.out);
  CHECK_MESSAGE(r.out.find("GET /api/cal/events/v1/events 503 ") != std::string::npos, r.out);
}

}  // namespace caltest

// CORS in a real browser: headless Chromium opens tests/browser/cors_page.html, served by this
// test from a second origin (http://127.0.0.1:PORT, another port than the API's), which lists
// events (reading X-WP-Total and Link), creates one with a Bearer token, and reports into its
// DOM. From the origin the test stack lists in [cors] origins (CAL_TEST_CORS_PAGE_PORT, set by
// scripts/run-tests.sh) both work; from any other port the browser blocks both, and the
// preflight keeps the create from reaching the service at all.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "support/client.h"
#include "support/commands.h"

namespace caltest {
namespace {

namespace fs = std::filesystem;

// tests/browser beside the build directory holding this binary, else below the working directory.
fs::path browser_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path beside = exe.parent_path().parent_path() / "tests" / "browser";
  if (!ec && fs::exists(beside / "cors_page.html")) return beside;
  return fs::current_path() / "tests" / "browser";
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Serves `page` for GET of any path but /favicon.ico on 127.0.0.1:port (0: any free port) until
// destroyed.
class PageServer {
 public:
  PageServer(int port, std::string page) : page_(std::move(page)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    const int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE_MESSAGE(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0, "cannot bind port ", port);
    REQUIRE(listen(fd_, 16) == 0);
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~PageServer() {
    stop_ = true;
    thread_.join();
    close(fd_);
  }
  int port() const { return port_; }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      const int c = accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      std::string request;
      std::array<char, 4096> buf{};
      while (request.find("\r\n\r\n") == std::string::npos) {
        pollfd q{c, POLLIN, 0};
        if (poll(&q, 1, 2000) <= 0) break;
        const ssize_t n = read(c, buf.data(), buf.size());
        if (n <= 0) break;
        request.append(buf.data(), static_cast<size_t>(n));
      }
      const bool page = request.rfind("GET /favicon.ico", 0) != 0;
      const std::string body = page ? page_ : "";
      const std::string head =
          std::string(page ? "HTTP/1.1 200 OK" : "HTTP/1.1 404 Not Found") +
          "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + std::to_string(body.size()) +
          "\r\nConnection: close\r\n\r\n";
      const std::string out = head + body;
      for (size_t sent = 0; sent < out.size();) {
        const ssize_t n = write(c, out.data() + sent, out.size() - sent);
        if (n <= 0) break;
        sent += static_cast<size_t>(n);
      }
      close(c);
    }
  }

  std::string page_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Opens `url` in headless Chromium (killed after 60 s) and returns the JSON the page wrote
// between "RESULT " and " END", or "" with the browser's output in *output.
std::string run_page(const std::string& url, std::string* output) {
  char profile[] = "/tmp/cal-chromium-XXXXXX";
  REQUIRE(mkdtemp(profile) != nullptr);
  const std::string command =
      "timeout -k 5 60 chromium --headless --disable-gpu --no-sandbox --no-first-run "
      "--disable-extensions --disable-dev-shm-usage --user-data-dir=" +
      std::string(profile) + " --virtual-time-budget=20000 --dump-dom '" + url + "' 2>" + profile + ".log";
  const std::string out = run(command).out;
  *output = out + "\n--- browser's standard error (last part) ---\n";
  const std::string log = read_text(std::string(profile) + ".log");
  *output += log.substr(log.size() > 3000 ? log.size() - 3000 : 0);
  fs::remove_all(profile);
  fs::remove(std::string(profile) + ".log");
  const size_t start = out.find("RESULT ");
  const size_t end = out.find(" END", start);
  if (start == std::string::npos || end == std::string::npos) return "";
  // The DOM is dumped as HTML: the text's <, > and & are escaped.
  std::string text = out.substr(start + 7, end - start - 7);
  for (const auto& [entity, ch] :
       {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (size_t at = 0; (at = text.find(entity, at)) != std::string::npos; at += ch.size())
      text.replace(at, entity.size(), ch);
  }
  return text;
}

rapidjson::Document parse(const std::string& text, const std::string& output) {
  rapidjson::Document d;
  d.Parse(text.data(), text.size());
  REQUIRE_MESSAGE(!d.HasParseError(), "the page reported no result; browser output:\n", output);
  return d;
}

std::string page_url(int port, const std::string& title) {
  return "http://127.0.0.1:" + std::to_string(port) + "/cors_page.html?api=" + base_url() +
         "&token=" + admin_token() + "&title=" + title;
}

// The number of events the administrator sees, of any date and status.
long long all_events() {
  const HttpResponse r =
      get("/cal/events/v1/"
          "events?per_page=1&start_date=2000-01-01&end_date=2100-01-01&status=publish,future,draft,pending,"
          "private",
          {bearer(admin_token())});
  REQUIRE_MESSAGE(r.status == 200, describe(r));
  return std::atoll(r.header("x-wp-total").c_str());
}

TEST_CASE("cors in a browser: a listed origin lists and creates events, an unlisted one cannot") {
  const char* listed_port = std::getenv("CAL_TEST_CORS_PAGE_PORT");
  REQUIRE_MESSAGE(listed_port != nullptr, "CAL_TEST_CORS_PAGE_PORT (scripts/run-tests.sh) is not set");
  const std::string page = read_text(browser_dir() / "cors_page.html");
  REQUIRE(page.find("RESULT ") != std::string::npos);

  // From the listed origin.
  {
    PageServer server(std::atoi(listed_port), page);
    const std::string title = unique("corsbrowser");
    const long long before = all_events();
    std::string output;
    const rapidjson::Document result = parse(run_page(page_url(server.port(), title), &output), output);
    CAPTURE(output);
    CHECK(find(result, {"list", "total"}) != nullptr);
    CHECK(find(result, {"list", "total"})->IsNumber());
    const HttpResponse same = get("/cal/events/v1/events?per_page=1");
    CHECK(find(result, {"list", "total"})->GetDouble() == std::atof(same.header("x-wp-total").c_str()));
    CHECK(string_at(result, {"list", "link"}).find("<" + base_url() + "/>; rel=\"https://api.w.org/\"") !=
          std::string::npos);
    CHECK(string_at(result, {"create", "error"}) == "");
    CHECK(string_at(result, {"create", "title"}) == title);
    CHECK(string_at(result, {"create", "location"}).find("/cal/events/v1/events/") != std::string::npos);
    CHECK(all_events() == before + 1);
    const HttpResponse created =
        send({.url = string_at(result, {"create", "location"}), .headers = {bearer(admin_token())}});
    CHECK(string_at(created.json(), {"title"}) == title);
  }
  // From another port of 127.0.0.1: another origin, not listed.
  {
    PageServer server(0, page);
    REQUIRE(std::to_string(server.port()) != listed_port);
    const std::string title = unique("corsblocked");
    const long long before = all_events();
    std::string output;
    const rapidjson::Document result = parse(run_page(page_url(server.port(), title), &output), output);
    CAPTURE(output);
    CHECK(string_at(result, {"list", "error"}).find("Failed to fetch") != std::string::npos);
    CHECK(string_at(result, {"create", "error"}).find("Failed to fetch") != std::string::npos);
    CHECK(all_events() == before);  // the preflight failed: the POST was never sent
  }
}

TEST_CASE("cors in a browser: docs/cors.md's web page example is the code the browser test runs") {
  const std::string page = read_text(browser_dir() / "cors_page.html");
  const std::string begin = "// --- begin docs/cors.md example ---\n";
  const size_t start = page.find(begin);
  const size_t end = page.find("// --- end docs/cors.md example ---");
  REQUIRE(start != std::string::npos);
  REQUIRE(end != std::string::npos);
  const std::string example = page.substr(start + begin.size(), end - start - begin.size());
  const std::string doc = read_text(browser_dir().parent_path().parent_path() / "docs" / "cors.md");
  CHECK_MESSAGE(doc.find(example) != std::string::npos, "docs/cors.md lacks:\n", example);
}

}  // namespace
}  // namespace caltest

// The benchmark's floor (docs/performance.md): the smallest useful libfcgi program. It answers every request
// with the same fixed JSON body of a given size, using the same accept loop shape as
// calendar-fcgi (N threads, each FCGX_Accept_r on one shared socket), so `make bench` can measure
// what nginx + FastCGI + wrk alone cost on this machine and express the service's throughput
// as a ratio of it.
//
//   bench-floor --socket PATH --size BYTES [--threads N]
//
// Runs until SIGTERM/SIGINT. The body is `{"floor":"xxx...x"}` padded to exactly BYTES bytes.
#include <fcgiapp.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// The complete response (head and body), built once.
std::string g_response;

void serve(int listen_fd) {
  FCGX_Request request;
  FCGX_InitRequest(&request, listen_fd, 0);
  while (FCGX_Accept_r(&request) >= 0) {
    FCGX_PutStr(g_response.data(), static_cast<int>(g_response.size()), request.out);
    FCGX_Finish_r(&request);
  }
}

int usage() {
  std::fprintf(stderr, "usage: bench-floor --socket PATH --size BYTES [--threads N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string socket_path;
  long size = 0;
  int threads = 2 * static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--socket") == 0)
      socket_path = argv[i + 1];
    else if (std::strcmp(argv[i], "--size") == 0)
      size = std::atol(argv[i + 1]);
    else if (std::strcmp(argv[i], "--threads") == 0)
      threads = std::atoi(argv[i + 1]);
    else
      return usage();
  }
  if (socket_path.empty() || size < 12 || threads < 1 || argc % 2 == 0) return usage();

  std::string body = "{\"floor\":\"";
  body.append(static_cast<size_t>(size) - body.size() - 2, 'x');
  body += "\"}";
  g_response = "Status: 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: " +
               std::to_string(body.size()) + "\r\n\r\n" + body;

  if (FCGX_Init() != 0) return 1;
  unlink(socket_path.c_str());
  const int fd = FCGX_OpenSocket(socket_path.c_str(), 256);
  if (fd < 0) {
    std::fprintf(stderr, "bench-floor: cannot listen on %s\n", socket_path.c_str());
    return 1;
  }
  chmod(socket_path.c_str(), 0666);
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::thread> workers;
  for (int i = 1; i < threads; ++i) workers.emplace_back(serve, fd);
  serve(fd);  // returns when libfcgi's SIGTERM handler sets its shutdown flag
  unlink(socket_path.c_str());
  _exit(0);  // the other workers may still sit in accept(): end without joining them
}

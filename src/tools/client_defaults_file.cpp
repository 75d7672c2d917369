// The temporary option file of `calendarctl sql` (see client_defaults_file.h).
#include "client_defaults_file.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace cal {

std::string quote_option_value(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

std::string defaults_file_text(const DatabaseConfig& config) {
  std::string text = "[client]\n";
  text += "user=" + quote_option_value(config.user) + "\n";
  text += "password=" + quote_option_value(config.password) + "\n";
  // As the service connects (store/db.cpp): the socket when set, else TCP to host and port.
  if (!config.socket.empty()) {
    text += "socket=" + quote_option_value(config.socket) + "\n";
  } else {
    text += "host=" + quote_option_value(config.host) + "\n";
    text += "port=" + std::to_string(config.port) + "\n";
    text += "protocol=tcp\n";
  }
  // The tables are utf8mb4; only this file is read, so Debian's client default is not.
  text += "default-character-set=utf8mb4\n";
  return text;
}

DefaultsFile::DefaultsFile(const DatabaseConfig& config) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/calendarctl-sql.XXXXXX";
  // mkstemp creates the file with mode 0600 whatever the umask; fchmod says so again.
  const int fd = mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error("cannot create a file in " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
  const std::string text = defaults_file_text(config);
  bool ok = fchmod(fd, S_IRUSR | S_IWUSR) == 0;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  ok = close(fd) == 0 && ok;
  if (!ok) {
    const std::string error = std::strerror(errno);
    unlink(path_.c_str());
    throw std::runtime_error("cannot write " + path_ + ": " + error);
  }
}

DefaultsFile::~DefaultsFile() { unlink(path_.c_str()); }

}  // namespace cal

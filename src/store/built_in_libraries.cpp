// See cal/store/built_in_libraries.h.
#include "cal/store/built_in_libraries.h"

#include <dlfcn.h>
#include <mysql.h>
#include <openssl/crypto.h>

#include <cstdlib>
#include <sstream>

namespace cal {
namespace {

// The dotted version OpenSSL_version_num() encodes (0xMNN00PP0 since OpenSSL 3).
std::string openssl_version(unsigned long n) {
  return std::to_string((n >> 28) & 0xf) + "." + std::to_string((n >> 20) & 0xff) + "." +
         std::to_string((n >> 4) & 0xff);
}

// What `function` of the shared library `soname` returns, or "" when either is missing. The
// library is loaded apart (RTLD_LOCAL) and unloaded again: nothing of it serves the process.
template <typename Result>
std::string from_shared(const char* soname, const char* function, std::string (*text)(Result)) {
  void* handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
  if (!handle) return "";
  std::string version;
  if (void* f = dlsym(handle, function)) version = text(reinterpret_cast<Result (*)()>(f)());
  dlclose(handle);
  return version;
}

std::string from_number(unsigned long n) { return openssl_version(n); }
std::string from_text(const char* s) { return s ? s : ""; }

// Strips what follows the numbers ("3.3.14-MariaDB" → "3.3.14").
std::string numbers_of(const std::string& version) {
  return version.substr(0, version.find_first_not_of("0123456789."));
}

}  // namespace

int compare_versions(const std::string& a, const std::string& b) {
  std::istringstream left(a), right(b);
  for (;;) {
    std::string x, y;
    const bool more_left = static_cast<bool>(std::getline(left, x, '.'));
    const bool more_right = static_cast<bool>(std::getline(right, y, '.'));
    if (!more_left && !more_right) return 0;
    const long nx = more_left ? std::strtol(x.c_str(), nullptr, 10) : 0;
    const long ny = more_right ? std::strtol(y.c_str(), nullptr, 10) : 0;
    if (nx != ny) return nx < ny ? -1 : 1;
  }
}

BuiltInLibraries check_built_in_libraries() {
  struct Library {
    const char* name;
    std::string built_in, system;
  };
  const Library libraries[] = {
      {"OpenSSL", openssl_version(OpenSSL_version_num()),
       from_shared<unsigned long>("libcrypto.so.3", "OpenSSL_version_num", from_number)},
      {"MariaDB Connector/C", numbers_of(mysql_get_client_info()),
       numbers_of(from_shared<const char*>("libmariadb.so.3", "mysql_get_client_info", from_text))},
  };
  BuiltInLibraries result;
  for (const Library& l : libraries) {
    if (!result.detail.empty()) result.detail += "; ";
    result.detail += l.name + std::string(" ") + l.built_in;
    if (l.system.empty()) {
      result.detail += " (no system copy)";
    } else if (compare_versions(l.system, l.built_in) > 0) {
      result.outdated = true;
      result.detail += ", the system has " + l.system;
    } else {
      result.detail += ", as the system's";
    }
  }
  return result;
}

}  // namespace cal

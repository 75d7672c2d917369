// libical, loaded on first use (see api/ical/libical.h).
#include "api/ical/libical.h"

#include "cal/api/ical/ical_library.h"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

#ifndef CAL_LIBICAL_SONAME
#define CAL_LIBICAL_SONAME "libical.so.3"
#endif

namespace cal {
namespace {

LibIcal load() {
  // Never closed: the functions are used for the rest of the process's life.
  void* handle = dlopen(CAL_LIBICAL_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw std::runtime_error(std::string("cannot load libical: ") + dlerror());
  LibIcal lib;
#define CAL_LIBICAL_RESOLVE(name)                                        \
  lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(handle, #name)); \
  if (lib.name == nullptr) throw std::runtime_error("libical (" CAL_LIBICAL_SONAME ") has no " #name);
  CAL_LIBICAL_FUNCTIONS(CAL_LIBICAL_RESOLVE)
#undef CAL_LIBICAL_RESOLVE
  return lib;
}

}  // namespace

const LibIcal& libical() {
  static const LibIcal lib = load();  // a throw leaves it unset: the next call tries again
  return lib;
}

bool load_ical_library(std::string& error) {
  try {
    libical();
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}

}  // namespace cal

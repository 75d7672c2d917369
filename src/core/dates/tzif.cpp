// TZif files for the dates module (see core/dates/tzif.h): the parser of RFC 8536's layout and the
// reader of one zone's file.
#include "core/dates/tzif.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cal::detail {
namespace {

constexpr const char* kZoneInfoDir = "/usr/share/zoneinfo/";
constexpr std::size_t kMaxFileBytes = 1 << 20;  // real zones are under 100 KB

// A cursor over the file's bytes that fails instead of reading past the end.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  bool skip(std::size_t n) {
    if (n > bytes_.size() - pos_) return false;
    pos_ += n;
    return true;
  }

  std::optional<std::string_view> take(std::size_t n) {
    if (n > bytes_.size() - pos_) return std::nullopt;
    const std::string_view out = bytes_.substr(pos_, n);
    pos_ += n;
    return out;
  }

  // A big-endian two's complement integer of `n` (4 or 8) bytes.
  std::optional<std::int64_t> integer(std::size_t n) {
    const auto raw = take(n);
    if (!raw) return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : *raw) value = value << 8 | static_cast<unsigned char>(c);
    if (n == 4)
      return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(value)));
    return static_cast<std::int64_t>(value);
  }

  std::string_view rest() const { return bytes_.substr(pos_); }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

struct Header {
  char version = 0;
  std::size_t isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0;
};

std::optional<Header> read_header(Reader& in) {
  const auto magic = in.take(5);
  if (!magic || magic->substr(0, 4) != "TZif") return std::nullopt;
  Header h;
  h.version = (*magic)[4];
  if (h.version != '\0' && (h.version < '2' || h.version > '9')) return std::nullopt;
  if (!in.skip(15)) return std::nullopt;
  std::size_t* const counts[] = {&h.isutcnt, &h.isstdcnt, &h.leapcnt, &h.timecnt, &h.typecnt, &h.charcnt};
  for (std::size_t* count : counts) {
    const auto n = in.integer(4);
    if (!n || *n < 0) return std::nullopt;
    *count = static_cast<std::size_t>(*n);
  }
  // RFC 8536 §3.1: at least one type and one designation byte; indicators absent or one per type.
  if (h.typecnt == 0 || h.typecnt > 256 || h.charcnt == 0) return std::nullopt;
  if ((h.isstdcnt != 0 && h.isstdcnt != h.typecnt) || (h.isutcnt != 0 && h.isutcnt != h.typecnt)) {
    return std::nullopt;
  }
  return h;
}

// The bytes of a data block whose times are `time_bytes` wide.
std::size_t block_size(const Header& h, std::size_t time_bytes) {
  return h.timecnt * time_bytes + h.timecnt + h.typecnt * 6 + h.charcnt + h.leapcnt * (time_bytes + 4) +
         h.isstdcnt + h.isutcnt;
}

std::optional<Tzif> read_block(Reader& in, const Header& h, std::size_t time_bytes) {
  // Counts that the bytes cannot hold are refused before anything is allocated for them.
  if (block_size(h, time_bytes) > in.rest().size()) return std::nullopt;
  Tzif zone;
  zone.transitions.reserve(h.timecnt);
  for (std::size_t i = 0; i < h.timecnt; ++i) {
    const auto t = in.integer(time_bytes);
    if (!t || (!zone.transitions.empty() && *t <= zone.transitions.back())) return std::nullopt;
    zone.transitions.push_back(*t);
  }
  const auto indices = in.take(h.timecnt);
  if (!indices) return std::nullopt;
  for (const char c : *indices) {
    const auto index = static_cast<std::uint8_t>(c);
    if (index >= h.typecnt) return std::nullopt;
    zone.type_after.push_back(index);
  }
  struct RawType {
    std::int64_t offset;
    bool dst;
    std::size_t abbrev_index;
  };
  std::vector<RawType> raw;
  for (std::size_t i = 0; i < h.typecnt; ++i) {
    const auto offset = in.integer(4);
    const auto flags = in.take(2);
    if (!offset || !flags) return std::nullopt;
    // -2^31 is excluded by RFC 8536; a day either way covers every zone there has been.
    if (*offset <= -89400 || *offset >= 93600 || static_cast<unsigned char>((*flags)[0]) > 1)
      return std::nullopt;
    raw.push_back(RawType{*offset, (*flags)[0] == 1, static_cast<unsigned char>((*flags)[1])});
  }
  const auto chars = in.take(h.charcnt);
  if (!chars) return std::nullopt;
  for (const RawType& r : raw) {
    if (r.abbrev_index >= chars->size()) return std::nullopt;
    const std::string_view from = chars->substr(r.abbrev_index);
    const std::size_t end = from.find('\0');
    if (end == std::string_view::npos) return std::nullopt;
    zone.types.push_back(TzifType{static_cast<int>(r.offset), r.dst, std::string(from.substr(0, end))});
  }
  // Leap second records and the standard/UT indicators do not change civil time.
  if (!in.skip(h.leapcnt * (time_bytes + 4) + h.isstdcnt + h.isutcnt)) return std::nullopt;
  return zone;
}

// The footer of version 2+ files: "\n" rule "\n" (the rule may be empty).
std::optional<std::string> read_footer(Reader& in) {
  const std::string_view rest = in.rest();
  if (rest.size() < 2 || rest.front() != '\n') return std::nullopt;
  const std::size_t end = rest.find('\n', 1);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(rest.substr(1, end - 1));
}

// IANA ids: parts of letters, digits, '_', '-', '+' (and '.' inside a part) joined by '/'.
bool is_zone_id(std::string_view name) {
  if (name.empty() || name.size() > 255) return false;
  std::size_t part_start = 0;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '/') {
      const std::string_view part = name.substr(part_start, i - part_start);
      if (part.empty() || part.front() == '.') return false;
      part_start = i + 1;
      continue;
    }
    const char c = name[i];
    const bool allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                         c == '_' || c == '-' || c == '+' || c == '.';
    if (!allowed) return false;
  }
  // The database's other trees and files, which are not zone ids ("Factory" is zic's
  // placeholder for machines without a configured zone).
  return name.rfind("posix/", 0) != 0 && name.rfind("right/", 0) != 0 && name != "posixrules" &&
         name != "localtime" && name != "Factory";
}

}  // namespace

std::optional<Tzif> parse_tzif(std::string_view bytes) {
  Reader in(bytes);
  const auto first = read_header(in);
  if (!first) return std::nullopt;
  if (first->version == '\0') return read_block(in, *first, 4);
  // Version 2+: skip the 32-bit block; the 64-bit one after the second header is authoritative.
  if (!in.skip(block_size(*first, 4))) return std::nullopt;
  const auto second = read_header(in);
  if (!second) return std::nullopt;
  auto zone = read_block(in, *second, 8);
  if (!zone) return std::nullopt;
  auto footer = read_footer(in);
  if (!footer) return std::nullopt;
  zone->footer = std::move(*footer);
  return zone;
}

std::optional<Tzif> load_tzif(std::string_view name) {
  if (!is_zone_id(name)) return std::nullopt;
  const std::string path = kZoneInfoDir + std::string(name);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return std::nullopt;
  std::string bytes;
  char buffer[16384];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    bytes.append(buffer, n);
    if (bytes.size() > kMaxFileBytes) return std::nullopt;
  }
  if (std::ferror(file.get())) return std::nullopt;
  return parse_tzif(bytes);
}

}  // namespace cal::detail

// Percent-encoding, URL and e-mail checks (see cal/core/text/url.h).
#include "cal/core/text/url.h"

#include "cal/core/text/ascii.h"
#include "cal/core/text/numbers.h"

#include <cstddef>

namespace cal {
namespace {

constexpr std::size_t kMaxEmailBytes = 254;
constexpr std::size_t kMaxEmailLocalBytes = 64;
constexpr std::size_t kMaxDomainLabelBytes = 63;
constexpr char kHexDigits[] = "0123456789ABCDEF";

using ascii::is_alnum;
using ascii::is_alpha;
using ascii::is_digit;
bool is_non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }

bool is_unreserved(char c) { return is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

// Value of one hex digit, or -1.
int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

using ascii::starts_with_ignoring_case;

// Bytes that may not appear anywhere in an accepted http(s) URL.
bool is_forbidden_url_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte <= 0x20 || byte == 0x7F || c == '\\';
}

// "[v6]" where v6 is hex digits, ':' and '.' (for IPv4-mapped forms).
bool is_ipv6_literal(std::string_view host) {
  if (host.size() < 4 || host.front() != '[' || host.back() != ']') return false;
  for (const char c : host.substr(1, host.size() - 2)) {
    if (hex_value(c) < 0 && c != ':' && c != '.') return false;
  }
  return true;
}

bool is_registered_name(std::string_view host) {
  bool has_name_char = false;
  for (const char c : host) {
    if (is_alnum(c) || is_non_ascii(c)) {
      has_name_char = true;
    } else if (c != '-' && c != '.' && c != '_') {
      return false;
    }
  }
  return has_name_char;
}

bool is_port(std::string_view port) { return port.size() <= 5 && parse_id(port).value_or(65536) <= 65535; }

// host[:port]; userinfo ("user@host") is rejected because '@' is not a host character.
bool is_valid_authority(std::string_view authority) {
  const bool bracketed = !authority.empty() && authority.front() == '[';
  const std::size_t host_end = bracketed ? authority.find(']') : authority.find(':');
  if (bracketed && host_end == std::string_view::npos) return false;
  const std::size_t port_colon = bracketed ? host_end + 1 : host_end;
  const std::string_view host = authority.substr(0, port_colon);
  if (port_colon < authority.size()) {
    if (authority[port_colon] != ':' || !is_port(authority.substr(port_colon + 1))) return false;
  }
  return bracketed ? is_ipv6_literal(host) : is_registered_name(host);
}

bool is_email_local_char(char c) {
  static constexpr std::string_view kSpecials = "!#$%&'*+/=?^_`{|}~-.";
  return is_alnum(c) || kSpecials.find(c) != std::string_view::npos;
}

bool is_valid_email_local_part(std::string_view local) {
  if (local.empty() || local.size() > kMaxEmailLocalBytes) return false;
  if (local.front() == '.' || local.back() == '.') return false;
  if (local.find("..") != std::string_view::npos) return false;
  for (const char c : local) {
    if (!is_email_local_char(c)) return false;
  }
  return true;
}

bool is_valid_domain_label(std::string_view label) {
  if (label.empty() || label.size() > kMaxDomainLabelBytes) return false;
  if (label.front() == '-' || label.back() == '-') return false;
  for (const char c : label) {
    if (!is_alnum(c) && c != '-') return false;
  }
  return true;
}

bool is_valid_email_domain(std::string_view domain) {
  if (domain.find('.') == std::string_view::npos) return false;
  while (true) {
    const std::size_t dot = domain.find('.');
    if (!is_valid_domain_label(domain.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    domain.remove_prefix(dot + 1);
  }
}

// The path of `url`: without query and fragment, and without "scheme://authority" or
// "//authority" when present.
std::string_view url_path(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  std::size_t authority_start = std::string_view::npos;
  if (url.substr(0, 2) == "//") {
    authority_start = 2;
  } else if (const std::size_t separator = url.find("://"); separator != std::string_view::npos) {
    const std::string_view scheme = url.substr(0, separator);
    bool is_scheme = !scheme.empty() && is_alpha(scheme.front());
    for (const char c : scheme) {
      is_scheme = is_scheme && (is_alnum(c) || c == '+' || c == '-' || c == '.');
    }
    if (is_scheme) authority_start = separator + 3;
  }
  if (authority_start == std::string_view::npos) return url;
  const std::size_t path_start = url.find('/', authority_start);
  return path_start == std::string_view::npos ? std::string_view() : url.substr(path_start);
}

}  // namespace

namespace {

// Percent-encodes every byte but the unreserved ones and `keep`.
std::string encode_except(std::string_view text, std::string_view keep) {
  std::string encoded;
  encoded.reserve(text.size());
  for (const char c : text) {
    if (is_unreserved(c) || keep.find(c) != std::string_view::npos) {
      encoded += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      encoded += '%';
      encoded += kHexDigits[byte >> 4];
      encoded += kHexDigits[byte & 0x0F];
    }
  }
  return encoded;
}

}  // namespace

std::string url_encode(std::string_view text) { return encode_except(text, ""); }

std::string query_value_encode(std::string_view text) { return encode_except(text, ",:/@"); }

std::optional<std::string> url_decode(std::string_view text, bool plus_is_space) {
  std::string decoded;
  decoded.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (text.size() - i < 3) return std::nullopt;
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      decoded += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      decoded += (plus_is_space && c == '+') ? ' ' : c;
    }
  }
  return decoded;
}

bool is_absolute_http_url(std::string_view url) {
  for (const char c : url) {
    if (is_forbidden_url_byte(c)) return false;
  }
  std::size_t scheme_length = 0;
  if (starts_with_ignoring_case(url, "http://")) {
    scheme_length = 7;
  } else if (starts_with_ignoring_case(url, "https://")) {
    scheme_length = 8;
  } else {
    return false;
  }
  const std::string_view rest = url.substr(scheme_length);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  return is_valid_authority(authority);
}

bool is_valid_email(std::string_view address) {
  if (address.size() > kMaxEmailBytes) return false;
  const std::size_t at = address.find('@');
  if (at == std::string_view::npos || address.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  return is_valid_email_local_part(address.substr(0, at)) && is_valid_email_domain(address.substr(at + 1));
}

std::string url_extension(std::string_view url) {
  std::string_view segment = url_path(url);
  if (const std::size_t slash = segment.rfind('/'); slash != std::string_view::npos) {
    segment.remove_prefix(slash + 1);
  }
  const std::size_t dot = segment.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == segment.size()) return "";
  std::string extension;
  for (const char c : segment.substr(dot + 1)) {
    if (!is_alnum(c)) return "";
    extension += ascii::to_lower(c);
  }
  return extension;
}

}  // namespace cal

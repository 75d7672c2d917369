// URL and e-mail helpers for the REST layer: percent-encoding of query components and
// practical validity checks for the URLs and addresses users store on events and venues.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cal {

// Percent-encodes `text` for use in a query component: RFC 3986 unreserved characters
// (A-Z a-z 0-9 - . _ ~) are kept, every other byte becomes %XX with upper-case hex digits.
std::string url_encode(std::string_view text);

// Like url_encode(), but keeps the characters RFC 3986 allows in a query that no form decoder
// reads as a delimiter (, : / @): a comma list stays as short as the client sent it, which
// keeps URLs the service writes into headers (Link) short.
std::string query_value_encode(std::string_view text);

// Decodes %XX escapes (either hex case) and, when plus_is_space is true, '+' as a space
// (application/x-www-form-urlencoded). Returns std::nullopt when a '%' is not followed by two
// hex digits. The result is raw bytes: it may contain NUL or invalid UTF-8.
std::optional<std::string> url_decode(std::string_view text, bool plus_is_space);

// True for an absolute http:// or https:// URL (scheme case-insensitive) with a non-empty host
// made of letters, digits, '-', '.', '_' or non-ASCII bytes (or a bracketed IPv6 literal), an
// optional all-digit port, and no spaces, control characters or backslashes anywhere.
bool is_absolute_http_url(std::string_view url);

// Practical e-mail address check (not full RFC 5322): at most 254 bytes, exactly one '@', a
// local part of 1-64 bytes of letters, digits and !#$%&'*+/=?^_`{|}~.- without leading,
// trailing or doubled dots, and a domain of at least two dot-separated labels of 1-63 letters,
// digits or hyphens (no leading/trailing hyphen). No spaces or quoted local parts.
bool is_valid_email(std::string_view address);

// Lower-case extension of the last path segment of `url` ("jpg" for
// "https://x/a/b.JPG?x=1"), ignoring the query and fragment and never looking at the host.
// Returns "" when the segment has no '.', ends with '.', starts with its only '.' (".htaccess"),
// or the extension contains anything but ASCII letters and digits.
std::string url_extension(std::string_view url);

}  // namespace cal

// URL slugs for events and venues: turns free-form (UTF-8) titles into short, lower-case ASCII
// path segments, and checks that byte strings are well-formed UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cal {

// Longest slug slugify() returns, in bytes.
inline constexpr std::size_t kMaxSlugBytes = 190;
// Longest result slug_with_suffix() returns, in bytes.
inline constexpr std::size_t kMaxSuffixedSlugBytes = 200;

// Returns a slug made only of [a-z0-9-]: ASCII letters lower-cased, common Latin-1 Supplement
// and Latin Extended-A letters transliterated (é→e, ü→u, ß→ss, æ→ae, ø→o, Œ→oe, Þ→th, ...),
// every run of other characters (including invalid UTF-8) collapsed to one '-', no leading or
// trailing '-'. At most kMaxSlugBytes long: cut at the last '-' that fits when there is one,
// else at kMaxSlugBytes. Returns "" when the text has no letter or digit (callers fall back).
// Never throws except std::bad_alloc.
std::string slugify(std::string_view text);

// Returns `base` when n <= 1, else "base-n". `base` is shortened (never inside a UTF-8
// character, trailing '-' removed) so that the whole result is at most kMaxSuffixedSlugBytes.
std::string slug_with_suffix(std::string_view base, int n);

// True when `bytes` is well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates
// (U+D800..U+DFFF), nothing above U+10FFFF, no truncated or stray continuation bytes.
bool is_valid_utf8(std::string_view bytes);

}  // namespace cal

// Integers from text: the one parser of ids and integer parameters, so every place refuses the
// same junk (signs where none belong, spaces, trailing bytes) and the same overflow.
#pragma once

#include <optional>
#include <string_view>

namespace cal {

// An id written as decimal digits only ("42", "007"): its value, which may be 0 (callers that
// need a positive id check that). nullopt for empty text, any sign, space or other byte, and
// for a value beyond the 64-bit range.
std::optional<long long> parse_id(std::string_view text);

// An integer with an optional single leading '+' or '-' ("-3", "+3", "3"). nullopt for empty
// text, a sign alone, space or any other byte, and a value beyond the 64-bit range.
std::optional<long long> parse_integer(std::string_view text);

}  // namespace cal

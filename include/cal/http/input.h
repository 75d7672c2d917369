// Parsers of request input (query strings, form bodies, JSON bodies) into one neutral shape: a
// RapidJSON object whose members are strings, arrays of strings or one-level objects of strings
// (form/query), or any JSON (JSON bodies). Pure functions, so fuzzers and unit tests call them.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cal {

// Parses `a=1&b[]=2&b[]=3&c[k]=v` (PHP conventions: `+` is a space, a repeated plain name keeps
// the last value, `b[]` appends, `c[k]` sets a key) into members of `out`, which must be an
// object. Indexed lists as `qs` and `@wordpress/url` write them (`b[0]=2&b[1]=3`) are arrays too:
// ordered by index, gaps closed up, a repeated index keeps its last value, `b[]` takes the index
// after the highest so far. A field with any other key (`c[k]`) is an object; mixed with indices
// (`b[0]=1&b[x]=2`) it stays an object, which list parameters refuse. Names whose value is not valid UTF-8
// (or has a broken %-escape) are appended to `invalid_names` and stored as "". Pairs with an empty name are
// skipped.
void parse_form(std::string_view text, rapidjson::Document& out, std::vector<std::string>& invalid_names);

// The same from already decoded (name, value) pairs, e.g. the fields of a multipart body: names
// with brackets as above; a value that is not valid UTF-8 is reported and stored as "".
void build_form(const std::vector<std::pair<std::string, std::string>>& pairs, rapidjson::Document& out,
                std::vector<std::string>& invalid_names);

enum class JsonBodyError { kNone, kMalformed, kInvalidUtf8, kNotAnObject };

// Parses a JSON request body into `out` (iteratively, so deep nesting cannot exhaust the stack).
// An empty or all-blank body is an empty object. Only an object is accepted at the top level.
JsonBodyError parse_json_body(std::string_view text, rapidjson::Document& out);

}  // namespace cal

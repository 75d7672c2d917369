// Entity tags and If-None-Match matching.
#include "cal/core/text/etag.h"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("strong ETags are quoted body hashes") {
  const std::string a = cal::strong_etag("{\"a\":1}");
  CHECK(a.size() == 34);
  CHECK(a.front() == '"');
  CHECK(a.back() == '"');
  CHECK(a == cal::strong_etag("{\"a\":1}"));
  CHECK(a != cal::strong_etag("{\"a\":2}"));
}

TEST_CASE("a strong ETag is the body's XXH3-128 in canonical form") {
  // Known answers from the xxhash package's own implementation (python3-xxhash,
  // xxhash.xxh3_128_hexdigest(body)): a tag that changed between builds or CPUs would make every
  // client's cached copy miss.
  CHECK(cal::strong_etag("x") == "\"5c7401c0ec22eeeeeaf06c6480b2cd11\"");
  const std::string record = "{\"id\":1,\"t\":\"" + std::string(5000, 'a') + "\"}";
  CHECK(cal::strong_etag(record) == "\"ec020b155327b8d9a7b08b7fc326f9df\"");
}

TEST_CASE("If-None-Match matches lists, wildcards and weak forms") {
  const std::string tag = cal::strong_etag("x");
  struct Case {
    std::string header;
    bool match;
  };
  const Case cases[] = {
      {tag, true}, {"\"other\", " + tag, true}, {"W/" + tag, true}, {"*", true}, {"\"other\"", false},
      {"", false}, {tag.substr(1), false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.header);
    CHECK(cal::if_none_match(c.header, tag) == c.match);
  }
}

TEST_CASE("If-Match compares strongly and tells the wildcard apart") {
  const std::string tag = cal::strong_etag("x");
  struct Case {
    std::string header;
    bool match;
    bool any;
  };
  const Case cases[] = {
      {tag, true, false},         {"\"other\" ,\t" + tag, true, false},
      {"W/" + tag, false, false}, {"*", false, true},
      {" * ", false, true},       {"\"other\"", false, false},
      {"", false, false},         {tag.substr(1), false, false},
      {"\"a\", *", false, true},  {tag + "x", false, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.header);
    CHECK(cal::if_match(c.header, tag) == c.match);
    CHECK(cal::if_match_any(c.header) == c.any);
  }
}

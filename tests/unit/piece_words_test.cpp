// The index words remembered per search piece (src/store/piece_words.h): a remembered answer is
// extended only when the vocabulary's writes since are exactly the words added after it.
#include "store/piece_words.h"

#include <doctest/doctest.h>

namespace {

using cal::PieceWords;

const PieceWords::Known kKnown{{3, 9}, 40, 12};

}  // namespace

TEST_CASE("piece words: nothing written since keeps the answer") {
  const auto now = PieceWords::extended(kKnown, 40, {});
  REQUIRE(now);
  CHECK(now->ids == std::vector<long long>{3, 9});
  CHECK(now->writes == 40);
  CHECK(now->max_id == 12);
}

TEST_CASE("piece words: words added after it extend it, those holding the piece join") {
  const auto now = PieceWords::extended(kKnown, 43, {{13, false}, {15, true}, {20, false}});
  REQUIRE(now);
  CHECK(now->ids == std::vector<long long>{3, 9, 15});
  CHECK(now->writes == 43);
  CHECK(now->max_id == 20);
}

TEST_CASE("piece words: a write the added words do not account for sends it back to the scan") {
  SUBCASE("a word written below its largest id (an earlier id committed later), changed or deleted") {
    CHECK_FALSE(PieceWords::extended(kKnown, 42, {{13, true}}));
    CHECK_FALSE(PieceWords::extended(kKnown, 41, {}));
  }
  SUBCASE("fewer writes than words (a source further behind)") {
    CHECK_FALSE(PieceWords::extended(kKnown, 39, {}));
    CHECK_FALSE(PieceWords::extended(kKnown, 40, {{13, true}}));
  }
  SUBCASE("words not above its largest id, or out of order") {
    CHECK_FALSE(PieceWords::extended(kKnown, 41, {{12, true}}));
    CHECK_FALSE(PieceWords::extended(kKnown, 42, {{15, true}, {13, true}}));
  }
}

TEST_CASE("piece words: kept per piece, bounded in pieces and in words") {
  PieceWords words(2, 3);
  words.keep("ab", kKnown);
  words.keep("many", PieceWords::Known{{1, 2, 3, 4}, 40, 12});
  CHECK(words.find("ab"));
  CHECK_FALSE(words.find("many"));
  words.keep("cd", kKnown);
  CHECK(words.find("cd"));
  words.keep("ef", kKnown);  // a third piece: the others are forgotten
  CHECK(words.find("ef"));
  CHECK_FALSE(words.find("ab"));
  CHECK_FALSE(words.find("cd"));
}

// What a plan remembers for a while (src/store/recent_marks.h): a number per set of ids, in any
// order, for as long as it is kept, and everything forgotten when the bound is passed.
#include "store/recent_marks.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using cal::RecentMarks;

TEST_CASE("recent marks: a number is recalled for the same ids in any order") {
  RecentMarks marks(std::chrono::seconds(60), 8);
  CHECK_FALSE(marks.recalled({3, 1}));
  marks.mark({3, 1}, 984);
  REQUIRE(marks.recalled({1, 3}));
  CHECK(*marks.recalled({1, 3}) == 984);
  CHECK(marks.marked({3, 1}));
  CHECK_FALSE(marks.recalled({1}));
  marks.mark({1, 3}, 5001);
  CHECK(*marks.recalled({3, 1}) == 5001);
}

TEST_CASE("recent marks: a mark older than kept is not recalled") {
  RecentMarks marks(std::chrono::seconds(0), 8);
  marks.mark({7}, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK_FALSE(marks.recalled({7}));
}

TEST_CASE("recent marks: marking past the bound forgets the others") {
  RecentMarks marks(std::chrono::seconds(60), 2);
  marks.mark({1}, 10);
  marks.mark({2}, 20);
  marks.mark({3}, 30);
  CHECK_FALSE(marks.recalled({1}));
  CHECK_FALSE(marks.recalled({2}));
  CHECK(*marks.recalled({3}) == 30);
}

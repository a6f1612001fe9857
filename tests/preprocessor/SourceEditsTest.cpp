// Insertions nest: at one offset closings come first (innermost first), then openings
// (outermost first), whatever order they were added in.
#include "SourceEdits.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace vcmon::preprocessor {
namespace {

TEST(SourceEdits, NestedConstructsSharingAnEndNest) {
  SourceEdits edits;
  // `a+g(x)` (order 1) holds `g(x)` (order 2); both end at offset 6. Added in any order.
  edits.close(6, 1, "]1");
  edits.open(2, 2, "2[");
  edits.close(6, 2, "]2");
  edits.open(0, 1, "1[");
  EXPECT_EQ(edits.apply("a+g(x)"), "1[a+2[g(x)]2]1");
}

TEST(SourceEdits, OpeningsAtOneOffsetGoOutermostFirst) {
  SourceEdits edits;
  edits.open(0, 5, "<inner>");
  edits.open(0, 3, "<outer>");
  edits.close(3, 5, "</inner>");
  edits.close(3, 3, "</outer>");
  EXPECT_EQ(edits.apply("abc"), "<outer><inner>abc</inner></outer>");
}

TEST(SourceEdits, ClosingComesBeforeOpeningAtOneOffset) {
  SourceEdits edits;
  edits.open(1, 2, "(");
  edits.close(1, 1, ")");
  EXPECT_EQ(edits.apply("ab"), "a)(b");
}

TEST(SourceEdits, NoEditsLeavesTheTextAlone) {
  EXPECT_EQ(SourceEdits().apply("int x;\n"), "int x;\n");
}

TEST(SourceEdits, OffsetPastTheEndIsRejected) {
  SourceEdits edits;
  edits.open(4, 0, "x");
  EXPECT_THROW(edits.apply("abc"), std::out_of_range);
}

} // namespace
} // namespace vcmon::preprocessor

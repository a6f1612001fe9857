// The calling-context tree on its own: a child is found again through the last-child cache and
// through the index, and a full tree folds new contexts into their parent.
#include "core/ContextTree.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace vcmon::runtime {
namespace {

using tables::SiteKind;

TEST(ContextTree, FindsEachChildAgainWhicheverWasFoundLast) {
  ContextTree tree;
  tree.reserve(64);
  ContextNode& root = tree.root();
  ContextNode& a = tree.child(root, 7, SiteKind::Call);
  ContextNode& b = tree.child(root, 9, SiteKind::Loop);
  ContextNode& under_a = tree.child(a, 9, SiteKind::Loop);
  EXPECT_NE(&a, &b);
  EXPECT_NE(&b, &under_a); // the same site under another parent is another context
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(&tree.child(root, 7, SiteKind::Call), &a);
    EXPECT_EQ(&tree.child(root, 9, SiteKind::Loop), &b);
    EXPECT_EQ(&tree.child(a, 9, SiteKind::Loop), &under_a);
  }
  EXPECT_EQ(tree.size(), 4u);
  EXPECT_EQ(under_a.parent, a.index);
  EXPECT_EQ(under_a.site, 9u);
  EXPECT_EQ(under_a.kind, SiteKind::Loop);
  EXPECT_EQ(root.parent, ContextTree::kRoot);
}

TEST(ContextTree, AFullTreeAnswersWithTheParent) {
  ContextTree tree;
  tree.reserve(3);
  ContextNode& root = tree.root();
  ContextNode& a = tree.child(root, 1, SiteKind::Procedure);
  ContextNode& b = tree.child(a, 2, SiteKind::Call);
  EXPECT_EQ(&tree.child(b, 3, SiteKind::Procedure), &b);
  EXPECT_EQ(&tree.child(root, 4, SiteKind::Procedure), &root);
  EXPECT_EQ(&tree.child(a, 2, SiteKind::Call), &b); // existing contexts are still found
  EXPECT_EQ(tree.size(), 3u);
}

// Thousands of siblings: every one is found again (the index, not a list walk, finds them).
TEST(ContextTree, ManySiblingsAreFoundAgain) {
  ContextTree tree;
  tree.reserve(10'000);
  ContextNode& root = tree.root();
  std::vector<ContextNode*> added;
  for (std::uint32_t site = 0; site < 5000; ++site) {
    added.push_back(&tree.child(root, site, SiteKind::Call));
  }
  for (std::uint32_t site = 0; site < 5000; ++site) {
    ASSERT_EQ(&tree.child(root, site, SiteKind::Call), added[site]) << site;
  }
  EXPECT_EQ(tree.size(), 5001u);
}

} // namespace
} // namespace vcmon::runtime

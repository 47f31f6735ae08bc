// The identities the simplifier's passes outside the rule tables rely on, proven for every
// value with Coq (issue 33, item 2): simplifier/proofs/digits.v (merging, flipping and matching
// digits, digits.h) and congruence.v (each operation of Congruence). digit_proof_test and the
// congruence tests check that the code computes what the lemmas state; these check the lemmas.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/simplifier/rule_coq.h"
#include "tests/support/scratch.h"

namespace idxmap {
namespace {

const std::filesystem::path kProofs =
    std::filesystem::path(IDXMAP_SOURCE_DIR) / "simplifier" / "proofs";

// coqc writes its outputs beside the file: check a copy in a scratch directory, not the sources.
std::string checkCopy(const std::string& name) {
  const std::filesystem::path copy = scratch::Directories::instance().make("idxmap_lemmas") / name;
  std::filesystem::copy_file(kProofs / name, copy);
  return rule_coq::check(copy);
}

TEST(LemmaProof, DigitIdentitiesHoldForAllValues) { EXPECT_EQ(checkCopy("digits.v"), ""); }

TEST(LemmaProof, CongruenceFactsHoldForAllValues) { EXPECT_EQ(checkCopy("congruence.v"), ""); }

TEST(LemmaProof, PreludeOfTheRuleProofsChecks) { EXPECT_EQ(checkCopy("prelude.v"), ""); }

// coqc says no to a lemma that is false: the digit merge with the wider digit's modulus off.
TEST(LemmaProof, CoqRejectsAWrongLemma) {
  const std::filesystem::path file =
      scratch::Directories::instance().make("idxmap_lemmas") / "wrong.v";
  std::ofstream(file) << "Require Import ZArith Lia.\nOpen Scope Z_scope.\n"
                         "Lemma merge : forall x a b b' c : Z, 1 <= a -> 1 <= b -> 1 <= b' ->\n"
                         "  c * ((x / a) mod b) + c * b * ((x / (a * b)) mod b') =\n"
                         "  c * ((x / a) mod (b * b' + 1)).\n"
                         "Proof. intros. rewrite <- Z.div_div by lia. rewrite Z.rem_mul_r by lia."
                         " ring. Qed.\n";
  EXPECT_NE(rule_coq::check(file), "");
}

}  // namespace
}  // namespace idxmap

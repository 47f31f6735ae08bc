(* What every rule proof in this folder may use (simplifier/proofs/README.md). *)
Require Import ZArith Lia.
Open Scope Z_scope.

(* A multiple of a positive g is g times its quotient by g. *)
Lemma multiple_of : forall g c : Z, 0 < g -> (g | c) -> c = g * (c / g).
Proof.
  intros g c Hg Hd. apply Z.div_exact; [lia |]. apply Z.mod_divide; [lia | exact Hd].
Qed.

(* gcd(gcd(a, b), c) divides each of a, b and c. *)
Lemma gcd3_divides : forall a b c : Z,
  (Z.gcd (Z.gcd a b) c | a) /\ (Z.gcd (Z.gcd a b) c | b) /\ (Z.gcd (Z.gcd a b) c | c).
Proof.
  intros a b c. split; [| split].
  - eapply Z.divide_trans; [apply Z.gcd_divide_l | apply Z.gcd_divide_l].
  - eapply Z.divide_trans; [apply Z.gcd_divide_l | apply Z.gcd_divide_r].
  - apply Z.gcd_divide_r.
Qed.

(* The identities simplifier/digits.h rewrites sums with, for every value of every variable and
   constant. D(x, a, b) = (x floordiv a) mod b is written (x / a) mod b; b = ∞ (no mod) is the
   lemma's own form. Coq's / and mod are floored, as the IR's. *)
Require Import ZArith Lia.
Open Scope Z_scope.

(* merge: c * D(x, a, b) + c * b * D(x, a * b, b') = c * D(x, a, b * b'). *)
Lemma merge : forall x a b b' c : Z, 1 <= a -> 1 <= b -> 1 <= b' ->
  c * ((x / a) mod b) + c * b * ((x / (a * b)) mod b') = c * ((x / a) mod (b * b')).
Proof.
  intros. rewrite <- Z.div_div by lia. rewrite Z.rem_mul_r by lia. ring.
Qed.

(* merge with b' = ∞: c * D(x, a, b) + c * b * D(x, a * b, ∞) = c * D(x, a, ∞). *)
Lemma merge_unbounded : forall x a b c : Z, 1 <= a -> 1 <= b ->
  c * ((x / a) mod b) + c * b * (x / (a * b)) = c * (x / a).
Proof.
  intros. rewrite <- Z.div_div by lia.
  rewrite (Z.div_mod (x / a) b) at 3 by lia. ring.
Qed.

(* flip, the quotient: x floordiv a = -((-x - 1) floordiv a) - 1. *)
Lemma flip_quotient : forall x a : Z, 1 <= a -> x / a = - ((- x - 1) / a) - 1.
Proof.
  intros. assert (Hq : (- x - 1) / a = - (x / a) - 1).
  { symmetry. apply Z.div_unique with (r := a - 1 - x mod a).
    - left. pose proof (Z.mod_pos_bound x a). lia.
    - rewrite (Z.div_mod x a) at 1 by lia. ring. }
  lia.
Qed.

(* flip, a digit: D(x, a, b) = b - 1 - D(-x - 1, a, b). *)
Lemma flip_digit : forall x a b : Z, 1 <= a -> 1 <= b ->
  (x / a) mod b = b - 1 - ((- x - 1) / a) mod b.
Proof.
  intros. assert (Hq : (- x - 1) / a = - (x / a) - 1) by (pose proof (flip_quotient x a); lia).
  rewrite Hq. set (q := x / a).
  assert (Hm : (- q - 1) mod b = b - 1 - q mod b).
  { symmetry. apply Z.mod_unique with (q := - (q / b) - 1).
    - left. pose proof (Z.mod_pos_bound q b). lia.
    - rewrite (Z.div_mod q b) at 1 by lia. ring. }
  lia.
Qed.

(* folded: D(y + L floordiv a, lo, b) = D(a * y + L, a * lo, b): a partial quotient. *)
Lemma folded : forall y L a lo b : Z, 1 <= a -> 1 <= lo ->
  ((y + L / a) / lo) mod b = ((a * y + L) / (a * lo)) mod b.
Proof.
  intros. rewrite <- Z.div_div by lia. rewrite Z.mul_comm, Z.div_add_l by lia. reflexivity.
Qed.

(* shifted: D(x, lo, b) = D(x', lo, b) when lo * b divides x - x' (each of its coefficients). *)
Lemma shifted : forall x' k lo b : Z, 1 <= lo -> 1 <= b ->
  ((x' + lo * b * k) / lo) mod b = (x' / lo) mod b.
Proof.
  intros. replace (x' + lo * b * k) with (b * k * lo + x') by ring.
  rewrite Z.div_add_l by lia. rewrite Z.add_comm, Z.mul_comm, Z.mod_add by lia. reflexivity.
Qed.

(* destrided: D(g * y + r, g * lo, b) = D(y, lo, b) for 0 <= r < g, with b or without. *)
Lemma destrided_unbounded : forall y r g lo : Z, 1 <= lo -> 0 <= r < g ->
  (g * y + r) / (g * lo) = y / lo.
Proof.
  intros. rewrite <- Z.div_div by lia. rewrite Z.mul_comm, Z.div_add_l by lia.
  rewrite (Z.div_small r g), Z.add_0_r by lia. reflexivity.
Qed.

Lemma destrided : forall y r g lo b : Z, 1 <= lo -> 0 <= r < g ->
  ((g * y + r) / (g * lo)) mod b = (y / lo) mod b.
Proof. intros. rewrite destrided_unbounded by lia. reflexivity. Qed.

(* sub-is-mod: c * D(x, a, ∞) - c * b * D(x, a * b, ∞) = c * D(x, a, b). *)
Lemma sub_is_mod : forall x a b c : Z, 1 <= a -> 1 <= b ->
  c * (x / a) - c * b * (x / (a * b)) = c * ((x / a) mod b).
Proof.
  intros. rewrite <- Z.div_div by lia. rewrite (Z.mod_eq (x / a) b) by lia. ring.
Qed.

(* sub-is-mod of x itself: c * x - c * a * D(x, a, ∞) = c * D(x, 1, a). *)
Lemma sub_is_mod_base : forall x a c : Z, 1 <= a ->
  c * x - c * a * (x / a) = c * ((x / 1) mod a).
Proof. intros. rewrite Z.div_1_r, (Z.mod_eq x a) by lia. ring. Qed.

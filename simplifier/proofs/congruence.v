(* The facts simplifier/congruence.cpp derives, for every value: x is congruent to r modulo m
   when x = m * k + r for some integer k (m = 0: x is exactly r; m = 1: nothing is known).
   One lemma per operation of Congruence, in its order. Coq's / and mod are floored, as the
   IR's. *)
Require Import ZArith Lia.
Open Scope Z_scope.

Definition congruent (m r x : Z) : Prop := exists k, x = m * k + r.

(* of: a negative modulus is its opposite, a remainder is reduced modulo a positive one. *)
Lemma of_opposite : forall m r x, congruent m r x -> congruent (- m) r x.
Proof. intros m r x [k Hk]. exists (- k). lia. Qed.

Lemma of_reduced : forall m r x, 0 < m -> congruent m r x -> congruent m (r mod m) x.
Proof.
  intros m r x Hm [k Hk]. exists (k + r / m). rewrite Hk, (Z.div_mod r m) at 1 by lia. ring.
Qed.

(* operator+: residues add, modulo the moduli's gcd. *)
Lemma add : forall m1 r1 x m2 r2 y, congruent m1 r1 x -> congruent m2 r2 y ->
  congruent (Z.gcd m1 m2) (r1 + r2) (x + y).
Proof.
  intros m1 r1 x m2 r2 y [k1 H1] [k2 H2].
  destruct (Z.gcd_divide_l m1 m2) as [u Hu]. destruct (Z.gcd_divide_r m1 m2) as [v Hv].
  set (g := Z.gcd m1 m2) in *. exists (u * k1 + v * k2). rewrite H1, H2, Hu, Hv. ring.
Qed.

(* operator*: a multiple by k, modulo m * k. *)
Lemma mul : forall m r x k, congruent m r x -> congruent (m * k) (r * k) (x * k).
Proof. intros m r x k [j Hj]. exists j. rewrite Hj. ring. Qed.

(* floorDiv: (m * k + r) / d = (m / d) * k + r / d when d divides m (an exact value too: d
   divides 0). *)
Lemma floor_div : forall m r x d, 0 < d -> (d | m) -> congruent m r x ->
  congruent (m / d) (r / d) (x / d).
Proof.
  intros m r x d Hd [u Hu] [k Hk]. exists k. subst m. rewrite Z.div_mul by lia.
  rewrite Hk. replace (u * d * k + r) with (u * k * d + r) by ring.
  rewrite Z.div_add_l by lia. ring.
Qed.

(* mod: x mod n = x - n * q keeps x's residue modulo gcd(m, n). *)
Lemma modulo : forall m r x n, 0 < n -> congruent m r x -> congruent (Z.gcd m n) r (x mod n).
Proof.
  intros m r x n Hn [k Hk].
  destruct (Z.gcd_divide_l m n) as [u Hu]. destruct (Z.gcd_divide_r m n) as [v Hv].
  set (g := Z.gcd m n) in *. rewrite Z.mod_eq by lia. set (q := x / n).
  exists (u * k - v * q). rewrite Hk at 1. rewrite Hv at 1. rewrite Hu. ring.
Qed.

(* mod of an exact value: exactly its remainder. *)
Lemma modulo_exact : forall r x n, congruent 0 r x -> congruent 0 (r mod n) (x mod n).
Proof. intros r x n [k Hk]. exists 0. rewrite Hk. replace (0 * k + r) with r by ring. ring. Qed.

(* intersect: two facts about one x that contradict (residues apart by a non-multiple of the
   moduli's gcd) have no x. *)
Lemma intersect_contradiction : forall m1 r1 m2 r2 x, congruent m1 r1 x -> congruent m2 r2 x ->
  (Z.gcd m1 m2 | r2 - r1).
Proof.
  intros m1 r1 m2 r2 x [k1 H1] [k2 H2].
  destruct (Z.gcd_divide_l m1 m2) as [u Hu]. destruct (Z.gcd_divide_r m1 m2) as [v Hv].
  exists (u * k1 - v * k2). lia.
Qed.

(* intersect, the Chinese remainder theorem: for any k with m1 * k congruent to r2 - r1 modulo m2
   (the code's k, from the inverse of m1 / g modulo m2 / g), x is r1 + m1 * k modulo lcm. *)
Lemma intersect_crt : forall m1 r1 m2 r2 x k, congruent m1 r1 x -> congruent m2 r2 x ->
  congruent m2 (m1 * k) (r2 - r1) -> congruent (Z.lcm m1 m2) (r1 + m1 * k) x.
Proof.
  intros m1 r1 m2 r2 x k [k1 H1] [k2 H2] [j Hj].
  assert (D1 : (m1 | x - (r1 + m1 * k))) by (exists (k1 - k); nia).
  assert (D2 : (m2 | x - (r1 + m1 * k))) by (exists (k2 + j); nia).
  destruct (Z.lcm_least m1 m2 _ D1 D2) as [q Hq]. exists q. lia.
Qed.

(* tighten: the least value at or above lo, and the greatest at or below hi, with x's residue. *)
Lemma tighten_low : forall m r x lo, 0 < m -> congruent m r x -> lo <= x ->
  lo + (r - lo) mod m <= x.
Proof.
  intros m r x lo Hm [k Hk] Hlo.
  assert (E : (x - lo) mod m = (r - lo) mod m).
  { replace (x - lo) with ((r - lo) + k * m) by lia. apply Z.mod_add. lia. }
  pose proof (Z.mod_le (x - lo) m). lia.
Qed.

Lemma tighten_high : forall m r x hi, 0 < m -> congruent m r x -> x <= hi ->
  x <= hi - (hi - r) mod m.
Proof.
  intros m r x hi Hm [k Hk] Hhi.
  assert (E : (hi - x) mod m = (hi - r) mod m).
  { replace (hi - x) with ((hi - r) + (- k) * m) by lia. apply Z.mod_add. lia. }
  pose proof (Z.mod_le (hi - x) m). lia.
Qed.

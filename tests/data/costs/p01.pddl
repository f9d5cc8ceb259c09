; Two roads from depot a to depot c: a direct one of length 10, and one through b of
; length 2 + 3. The shortest plan drives the direct road (cost 12); the cheapest goes
; through b (cost 7).
(define (problem haulage-costs-01)
  (:domain haulage-costs)
  (:objects a b c - depot t1 - truck c1 - crate s0 s1 - level)
  (:init
    (road a b) (road b a) (road b c) (road c b) (road a c) (road c a)
    (= (road-length a b) 2) (= (road-length b a) 2)
    (= (road-length b c) 3) (= (road-length c b) 3)
    (= (road-length a c) 10) (= (road-length c a) 10)
    (at t1 a) (at c1 a) (room t1 s1) (one-less s0 s1)
    (= (total-cost) 0))
  (:goal (and (at c1 c)))
  (:metric minimize (total-cost))
)

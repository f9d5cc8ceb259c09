; Two roads from a to c: a direct one of length 10, and one through b of length 2 + 3.
(define (problem transport-costs-p01)
  (:domain transport-costs)
  (:objects a b c - location truck - vehicle parcel - package s0 s1 - size)
  (:init
    (road a b) (road b a) (road b c) (road c b) (road a c) (road c a)
    (= (road-length a b) 2) (= (road-length b a) 2)
    (= (road-length b c) 3) (= (road-length c b) 3)
    (= (road-length a c) 10) (= (road-length c a) 10)
    (at truck a) (at parcel a) (capacity truck s1) (capacity-predecessor s0 s1)
    (= (total-cost) 0))
  (:goal (and (at parcel c)))
  (:metric minimize (total-cost))
)

(define (problem lift-01)
 (:domain miconic)
 (:objects 
    w1 w2 w3 - passenger
    f1 f2 f3 - floor
    )
 (:init 
    (lift-at f2)
    (origin w1 f1)
    (destin w1 f3)
    (origin w2 f3)
    (destin w2 f1)
    (origin w3 f2)
    (destin w3 f3)
    (above f1 f2)
    (above f1 f3)
    (above f2 f3)
)
 (:goal  (and (served w1)
   (served w2)
   (served w3))))

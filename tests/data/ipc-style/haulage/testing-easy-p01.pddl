(define (problem haulage-01)
 (:domain haulage)
 (:objects 
    t1 - truck
    c1 c2 - crate
    d1 d2 d3 - depot
    s0 s1 s2 - level
    )
 (:init (room t1 s1)
    (one-less s0 s1)
    (one-less s1 s2)
    (at c1 d1)
    (at c2 d2)
    (at t1 d2)
    (road d1 d2)
    (road d2 d3)
    (road d2 d1)
    (road d3 d2)
    )
 (:goal  (and 
    (at c1 d2)
    (at c2 d1))))

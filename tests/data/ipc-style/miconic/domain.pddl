; An elevator serving passengers between floors (genplan's built-in miconic domain,
; laid out by hand for the reader tests: comments, blank lines, tabs).
(define (domain miconic)
  (:requirements :strips :typing)
  (:types floor - object
          passenger - object
         )

(:predicates 
(lift-at ?floor - floor)
;; where the elevator is now

(above ?lower - floor  ?upper - floor)
;; ?upper is somewhere above ?lower
;; static

(origin ?who - passenger ?floor - floor)
;; where ?who waits
;; static

(destin ?who - passenger ?floor - floor)
;; where ?who wants to go
;; static

(boarded ?who - passenger)
;; ?who is in the elevator

(served ?who - passenger)
;; ?who got out at their destination
)


;;going up or down one move at a time

(:action up
  :parameters (?from - floor ?to - floor)
  :precondition (and (lift-at ?from) (above ?from ?to))
  :effect (and (not (lift-at ?from)) (lift-at ?to)))


(:action down
  :parameters (?from - floor ?to - floor)
  :precondition (and (lift-at ?from) (above ?to ?from))
  :effect (and (not (lift-at ?from)) (lift-at ?to)))

;;getting in and out

(:action board
  :parameters (?f - floor ?p - passenger)
  :precondition (and (origin ?p ?f)
		     (lift-at ?f))
  :effect (boarded ?p))

(:action depart
  :parameters (?f - floor ?p - passenger)
  :precondition (and (lift-at ?f) (boarded ?p)
		     (destin ?p ?f))
  :effect (and (served ?p)
	       (not (boarded ?p))))
)




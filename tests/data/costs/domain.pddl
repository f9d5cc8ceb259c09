; genplan's haulage test domain (tests/data/ipc-style/haulage) with action costs, written for
; genplan's plan-cost tests: driving costs the road's length, loading and unloading cost 1.
(define (domain haulage-costs)
  (:requirements :typing :action-costs)
  (:types
        level depot movable - object
        truck crate - movable
  )
  (:predicates
     (road ?from ?to - depot)
     (at ?m - movable ?d - depot)
     (aboard ?c - crate ?t - truck)
     (room ?t - truck ?l - level)
     (one-less ?smaller ?larger - level)
  )
  (:functions
     (road-length ?from ?to - depot) - number
     (total-cost) - number
  )
  (:action drive
    :parameters (?t - truck ?from ?to - depot)
    :precondition (and (road ?from ?to) (at ?t ?from))
    :effect (and (at ?t ?to) (not (at ?t ?from))
                 (increase (total-cost) (road-length ?from ?to))))
  (:action load
    :parameters (?t - truck ?d - depot ?c - crate ?smaller ?larger - level)
    :precondition (and (at ?c ?d) (at ?t ?d) (room ?t ?larger) (one-less ?smaller ?larger))
    :effect (and (aboard ?c ?t) (not (at ?c ?d)) (room ?t ?smaller) (not (room ?t ?larger))
                 (increase (total-cost) 1)))
  (:action unload
    :parameters (?t - truck ?d - depot ?c - crate ?smaller ?larger - level)
    :precondition (and (aboard ?c ?t) (at ?t ?d) (room ?t ?smaller) (one-less ?smaller ?larger))
    :effect (and (at ?c ?d) (not (aboard ?c ?t)) (room ?t ?larger) (not (room ?t ?smaller))
                 (increase (total-cost) 1)))
)

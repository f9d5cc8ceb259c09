; Trucks carry crates between depots along roads. A truck's free room is one of a chain
; of levels (one-less s0 s1) (one-less s1 s2) ...: loading a crate takes it one level down,
; unloading gives it back. Written for genplan's reader tests.
(define (domain haulage)
  (:requirements :typing)
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

  (:action drive
    :parameters (?t - truck ?from ?to - depot)
    :precondition (and
        (road ?from ?to)
        (at ?t ?from)
      )
    :effect (and
        (at ?t ?to)
        (not (at ?t ?from))
      )
  )

 (:action load
    :parameters (?t - truck ?d - depot ?c - crate ?smaller ?larger - level)
    :precondition (and
        (at ?c ?d)
        (at ?t ?d)
        (room ?t ?larger)
        (one-less ?smaller ?larger)
      )
    :effect (and
        (aboard ?c ?t)
        (not (at ?c ?d))
        (room ?t ?smaller)
        (not (room ?t ?larger))
      )
  )

  (:action unload
    :parameters (?t - truck ?d - depot ?c - crate ?smaller ?larger - level)
    :precondition (and
        (aboard ?c ?t)
        (at ?t ?d)
        (room ?t ?smaller)
        (one-less ?smaller ?larger)
      )
    :effect (and
        (at ?c ?d)
        (not (aboard ?c ?t))
        (room ?t ?larger)
        (not (room ?t ?smaller))
      )
  )

)
(define (domain blocksworld)
 (:requirements :strips)
 (:predicates (clear ?b) (ontable ?b) (handempty) (holding ?b) (on ?b ?c))

 (:action pick-up
    :parameters (?b)
    :precondition (and (ontable ?b) (clear ?b) (handempty))
    :effect
      (and (holding ?b)
           (not (ontable ?b))
           (not (clear ?b))
           (not (handempty))))

 (:action put-down
    :parameters (?b)
    :precondition (holding ?b)
    :effect
    	  (and (ontable ?b)
            (clear ?b)
            (handempty)
            (not (holding ?b))))

 (:action stack
    :parameters (?b ?c)
    :precondition (and (clear ?c) (holding ?b))
    :effect
    	  (and (on ?b ?c)
    	  	   (clear ?b)
    	  	   (handempty)
    	  	   (not (clear ?c))
    	  	   (not (holding ?b))))

 (:action unstack
    :parameters (?b ?c)
    :precondition (and (clear ?b) (on ?b ?c) (handempty))
    :effect
    	  (and (holding ?b)
            (clear ?c)
            (not (on ?b ?c))
            (not (clear ?b))
            (not (handempty))))
)
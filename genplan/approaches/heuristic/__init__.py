"""LLM-written heuristics for greedy best-first search (Corrêa, Pereira, Seipp, *Classical Planning
with LLM-Generated Heuristics: Challenging the State of the Art with Python Code*, NeurIPS 2025).

The model writes ``make_heuristic(objects, init, goal) -> h`` for a domain, several times
(:mod:`.candidates`); each candidate is checked in the sandbox on states of known plans
(:mod:`.probes`), optionally revised from counterexamples, searched with on training problems by
greedy best-first search inside the sandbox child (:mod:`.gbfs`, :mod:`.harness`), and the best
(:mod:`.selection`) solves the evaluation problems. The approach is :class:`.approach.HeuristicApproach`.
"""

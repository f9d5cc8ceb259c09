"""AutoToS (Cao, Katz, Kokel, Srinivas, Sohrabi, *Automating Thought of Search*, AAAI 2025).

The model writes two search components for a domain, ``successor_states(state, objects)`` and
``is_goal(state, goal)`` (Thought of Search); genplan tests them against the PDDL model, feeds
failures back (:mod:`.protocol`), and solves each evaluation problem by BFS over them
(:mod:`.evaluate`). The approach is :class:`.approach.AutoToS`.
"""

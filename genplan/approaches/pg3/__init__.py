"""PG3, PE and PC: lifted decision lists learned by policy search (Yang et al., IJCAI 2022).

Modules: :mod:`.policy` (decision lists and their text form), :mod:`.matching` (a policy's action
in a state), :mod:`.execution` (a policy's plan), :mod:`.heuristic` (h_add), :mod:`.planning`
(policy-guided planning), :mod:`.scores` (PG3, PE, PC), :mod:`.search` (greedy best-first search
in policy space), :mod:`.learning` (the three put together), :mod:`.settings`, and
:mod:`.approach` (the run's books: the only module that knows the approaches' seam).
"""

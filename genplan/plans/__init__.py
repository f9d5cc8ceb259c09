"""Stage 2, plans: plan syntax, VAL, the STRIPS simulator and the plan checker.

Uses :mod:`genplan.pddl` only.
"""

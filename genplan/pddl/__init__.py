"""Stage 1, PDDL: domains, problems, problem sets, problem generation and name obfuscation.

Imports nothing from the other stages of genplan.
"""

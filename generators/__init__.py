"""Seeded problem generators, one module per built-in domain (loaded by ``genplan.pddl.generate``).

``v1/`` keeps version 1 of the generators whose output changed in version 2, unchanged, for the
runs made on them (see ``genplan.pddl.generate``).
"""

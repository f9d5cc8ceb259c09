"""Seeded problem generators, one module per built-in domain (loaded by ``genplan.pddl.generate``)."""

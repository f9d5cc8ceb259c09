"""Generalized plans (Silver et al., AAAI 2024): the model writes one ``get_plan`` program per domain.

Prompting (Sec. 4.1) in :mod:`.prompts`, the synthesis loop with automated debugging (Sec. 4.2)
in :mod:`.synthesize`, running and checking programs in :mod:`.checking` and :mod:`.evaluate`,
a run end to end in :mod:`.runs`, and saved programs as solvers in :mod:`.solver`.
"""

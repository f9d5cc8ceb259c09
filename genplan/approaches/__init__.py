"""Stage 4, approaches: each way a language model helps solve a PDDL domain, one folder each.

An approach uses the lower stages (:mod:`genplan.pddl`, :mod:`genplan.plans`,
:mod:`genplan.sandbox`, :mod:`genplan.llm`) and never another approach.
"""

"""The run seam: the books every approach keeps, kept once.

A stage between the model and sandbox stages (:mod:`genplan.llm`, :mod:`genplan.sandbox`) and
the approaches: the run record (:mod:`.record`), one status vocabulary for plan verdicts
(:mod:`.status`), run folders and saving (:mod:`.folders`), measured observations reused on
replay (:mod:`.observations`), problem keys (:mod:`.keys`), progress (:mod:`.progress`) and
settings dataclasses (:mod:`.settings`).
"""

"""Run requests: every value of a run, parsed once, and the one composer of runs.

A stage between the approaches (:mod:`genplan.approaches`, stage 4) and the experiments
(:mod:`genplan.experiments`, stage 5) and the command line:
:class:`~genplan.requests.request.RunRequest` holds every value of one run (each default
written once, beside its field), :func:`~genplan.requests.request.parse_request` is the one
parser (from flags or a grid cell), and :func:`~genplan.requests.compose.compose` the one way a
run is put together and run (:mod:`.models` chooses its model).
"""

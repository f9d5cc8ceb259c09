"""LAMA-first (Richter and Westphal, JAIR 2010, through Fast Downward) as an approach that asks no
model, so a grid puts the planner's coverage, plan costs and times beside the model-based
approaches' (Silver et al. 2024 compare against it, Sec. 5.1). The approach is
:class:`.approach.LamaFirst`.
"""

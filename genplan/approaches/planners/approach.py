"""The LLM-as-planner methods behind the :class:`~genplan.approaches.base.Approach` seam.

Each method is registered under its own name with its own settings (defaults from its paper):
``io``, ``io-cot``, ``react``, ``react-select``, ``toi-bfs``, ``toi-dfs``, ``boomerang``
(Gonzalez-Pumariaga et al., *Query-Efficient Planning with Language Models*) and ``symplanner``
(Xiong et al.). All call the model per problem against a counted world model
(:mod:`genplan.plans.world_model`) and share the runner (:mod:`.runner`).

Statuses besides ``solved``: ``budget-exhausted`` (the query budget ran out), ``step-limit`` (the
method's decisions ran out), ``no-plan`` (the frontier emptied, every branch was pruned, or the
answer held no plan), and for a returned plan that fails the check, ``plan-syntax`` or
``plan-semantics``.
"""

from __future__ import annotations

import statistics
from functools import partial
from typing import Any, ClassVar

from genplan.approaches.base import Approach, RunRecord, RunSession, settings_label
from genplan.approaches.planners import settings as s
from genplan.approaches.planners.boomerang import boomerang
from genplan.approaches.planners.direct import Demonstration, solve_directly
from genplan.approaches.planners.react import react, react_select
from genplan.approaches.planners.runner import Method, run_planner
from genplan.approaches.planners.symplanner import symplanner
from genplan.approaches.planners.toi import toi_bfs, toi_dfs
from genplan.pddl.problem_sets import DomainProblems


def planner_label(name: str, settings: Any) -> str:
    """The approach name, then each setting changed from its default: ``symplanner+rollouts-8+
    beam-width-2+diverse-generation`` (``no-<flag>`` for a default-on flag turned off); see
    :func:`~genplan.runs.settings.settings_label`, which every approach's label is."""
    return settings_label(settings, name)


class PlannerApproach(Approach[DomainProblems, Any]):
    """What every LLM-as-planner approach shares; subclasses name the method and its settings."""

    name: ClassVar[str]
    summary: ClassVar[str]
    settings_type: ClassVar[type]
    uses_world_model: ClassVar[bool] = True

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """The per-problem function for ``settings``."""
        raise NotImplementedError

    def describe(self, record: RunRecord) -> list[str]:
        """Problem set, budget, and the per-problem costs (LLM calls, queries, optimal plans)."""
        details = record.details
        budget = details.get("budget")
        if record.world_model_queries is None:
            queried = "no world model (the plan is checked at the end only)"
        else:
            queried = f"world-model query budget {budget if budget is not None else 'none'} per problem"
        lines = [f"Problem set: {details.get('problem_set', 'default')}; {queried}"]
        results = record.problems
        if results:
            calls = statistics.mean(r.llm_calls or 0 for r in results)
            queries = [r.world_model_queries for r in results if r.world_model_queries is not None]
            shown = f"; mean world-model queries {statistics.mean(queries):.1f}" if queries else ""
            lines.append(f"Per problem: mean LLM calls {calls:.1f}{shown}")
            known = [r for r in results if "optimal_length" in r.details]
            if known:
                optimal = sum(bool(r.details.get("optimal")) for r in known)
                lines.append(f"Optimal plans: {optimal} of {len(known)} problems with a known optimal length")
        return lines

    def solve(self, session: RunSession, problems: DomainProblems, settings: Any) -> RunRecord:
        """Solve every evaluation problem with the method (see :mod:`.runner`).

        Raises:
            genplan.llm.LLMError: the backend failed; the folder keeps the recorded conversation.
            ConfigurationError: a demonstration needs Fast Downward and it is missing.
        """
        return run_planner(
            session,
            problems,
            self.method(settings, problems),
            budget=getattr(settings, "budget", None),
            uses_world_model=self.uses_world_model,
            details={"method": self.summary},
        )


class IO(PlannerApproach):
    """I/O: the whole plan in one answer, no world model."""

    name: ClassVar[str] = "io"
    summary: ClassVar[str] = "the whole plan in one answer (I/O, Gonzalez-Pumariaga et al.)"
    settings_type: ClassVar[type] = s.IOSettings
    uses_world_model: ClassVar[bool] = False
    chain_of_thought: ClassVar[bool] = False

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """I/O with (by default) a demonstration on the smallest training problem."""
        demonstration = (
            Demonstration.of(problems.training[0]) if settings.demonstration and problems.training else None
        )
        return partial(solve_directly, demonstration=demonstration, chain_of_thought=self.chain_of_thought)


class IOCoT(IO):
    """I/O + CoT: the whole plan in one answer, reasoning state by state."""

    name: ClassVar[str] = "io-cot"
    summary: ClassVar[str] = (
        "the whole plan in one answer, with chain of thought (I/O + CoT, Gonzalez-Pumariaga et al.)"
    )
    settings_type: ClassVar[type] = s.IOCoTSettings
    chain_of_thought: ClassVar[bool] = True


class ReAct(PlannerApproach):
    """ReAct: one action per call from the last state reached."""

    name: ClassVar[str] = "react"
    summary: ClassVar[str] = (
        "one action per call, with every observation in context (ReAct, Gonzalez-Pumariaga et al.)"
    )
    settings_type: ClassVar[type] = s.ReActSettings

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """ReAct with the settings' decisions and valid-action lists."""
        return partial(react, steps=settings.steps, valid_actions=settings.valid_actions)


class ReActSelect(PlannerApproach):
    """ReAct-Select: a visited state and an action per call."""

    name: ClassVar[str] = "react-select"
    summary: ClassVar[str] = (
        "a visited state and an action per call (ReAct-Select, Gonzalez-Pumariaga et al.)"
    )
    settings_type: ClassVar[type] = s.ReActSelectSettings

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """ReAct-Select with the settings' decisions and valid-action lists."""
        return partial(react_select, steps=settings.steps, valid_actions=settings.valid_actions)


class ToIBFS(PlannerApproach):
    """Tree of Interaction, beam search."""

    name: ClassVar[str] = "toi-bfs"
    summary: ClassVar[str] = (
        "the model proposes actions and rates states in a beam search (ToI-BFS, Gonzalez-Pumariaga et al.)"
    )
    settings_type: ClassVar[type] = s.ToIBFSSettings

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """ToI-BFS with k proposals and beam width b."""
        return partial(
            toi_bfs,
            iterations=settings.iterations,
            proposals=settings.proposals,
            beam_width=settings.beam_width,
            retries=settings.retries,
        )


class ToIDFS(PlannerApproach):
    """Tree of Interaction, depth-first search."""

    name: ClassVar[str] = "toi-dfs"
    summary: ClassVar[str] = (
        "the model proposes actions and rates states in a depth-first search (ToI-DFS, Gonzalez-Pumariaga et al.)"
    )
    settings_type: ClassVar[type] = s.ToIDFSSettings

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """ToI-DFS with k proposals and the rating threshold."""
        return partial(
            toi_dfs,
            iterations=settings.iterations,
            proposals=settings.proposals,
            min_rating=settings.min_rating,
            retries=settings.retries,
        )


class Boomerang(PlannerApproach):
    """Boomerang: whole plans from the start, rolled out with feedback."""

    name: ClassVar[str] = "boomerang"
    summary: ClassVar[str] = (
        "whole plans from the start, rolled out and fed back (Boomerang, Gonzalez-Pumariaga et al.)"
    )
    settings_type: ClassVar[type] = s.BoomerangSettings

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """Boomerang with the settings' iterations and valid-action list."""
        return partial(boomerang, iterations=settings.iterations, valid_actions=settings.valid_actions)


class SymPlanner(PlannerApproach):
    """SymPlanner with Iterative Correction and Contrastive Ranking."""

    name: ClassVar[str] = "symplanner"
    summary: ClassVar[str] = (
        "beam search over symbolic states with correction and contrastive ranking (SymPlanner)"
    )
    settings_type: ClassVar[type] = s.SymPlannerSettings

    def method(self, settings: Any, problems: DomainProblems) -> Method:
        """SymPlanner with every setting of Algorithm 1."""
        return partial(
            symplanner,
            max_steps=settings.max_steps,
            rollouts=settings.rollouts,
            generations=settings.generations,
            beam_width=settings.beam_width,
            group_size=settings.group_size,
            comparisons_per_option=settings.comparisons_per_option,
            corrections=settings.corrections,
            iterative_correction=settings.iterative_correction,
            contrastive_ranking=settings.contrastive_ranking,
            diverse_generation=settings.diverse_generation,
        )

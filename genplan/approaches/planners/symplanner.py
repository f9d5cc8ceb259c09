"""SymPlanner: a policy proposes actions, the symbolic world model executes and verifies them,
Iterative Correction repairs invalid ones, Contrastive Ranking picks which branches to keep
(Xiong et al., *Deliberate Planning in Language Models with Symbolic Representation*, Sec. 2,
Algorithm 1; prompts of App. A).

A *branch* (the paper's rollout) is a partial plan with the state the world model says it
reaches. Each step, every active branch gets candidate next actions: one, plus up to
``generations - 1`` more while fewer than ``rollouts`` branches were ever created (the authors'
code: ``num_generations``, ``num_rollouts``). Candidates are independent samples of the
generation prompt (``sample=j``, Sec. 2.2: ``a(i) ~ P_pi(. | s, G, Pi)``), or, with
``diverse_generation``, asked one after another with the earlier candidates listed and a
different action asked for (the authors' code's diverse-generation prompt; useful when answers
are deterministic: temperature 0, the ``files`` backend). Identical candidates of one branch are
one candidate.

*Iterative Correction* (Sec. 2.3): an action the world model refuses is asked again with the
typed error (``"Previous invalid actions"``, App. A), up to ``corrections`` times; a candidate
still invalid is pruned. Without IC, invalid candidates are pruned at once.

*Contrastive Ranking* (Sec. 2.4): when more valid candidates than the beam width ``b`` remain,
they are shuffled and compared in groups of ``group_size`` (the prompt's ``Option 1/2/3``), each
candidate in ``comparisons_per_option`` comparisons; the option a comparison concludes for scores
one; the ``b`` best survive. Without CR, each candidate is rated 1-10 on its own (App. A, "Plan
Rating", the paper's ablation, Table 2).

Candidates that reach the goal move to the completed pool and the beam shrinks by one (Alg. 1,
lines 12-15); the search ends when the beam is empty, no candidate survives, or after
``max_steps``; the best completed plan is chosen by CR (``CR(P_d, D, 1)``, line 21).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from genplan.approaches.planners.answers import number_after, option_choice, step_action
from genplan.approaches.planners.session import NO_PLAN, SOLVED_BY_METHOD, STEP_LIMIT, Outcome, Session
from genplan.pddl.domain import Atom
from genplan.plans.world_model import State, action_text


@dataclass(frozen=True)
class Branch:
    """A partial plan: its actions and the state after each (the world model's)."""

    actions: tuple[Atom, ...]
    states: tuple[State, ...]

    @property
    def state(self) -> State:
        """The state the branch reaches."""
        return self.states[-1]


@dataclass(frozen=True)
class Refusal:
    """An action the world model refused (or text that named none): what, its kind, the error."""

    action: str
    kind: str
    message: str


@dataclass(frozen=True)
class Candidate:
    """What generating one candidate gave: the new branch (``None`` when pruned), the refused
    actions met on the way, and the model calls it took."""

    branch: Branch | None
    refused: tuple[Refusal, ...]
    calls: int


def _history(session: Session, branch: Branch) -> str:
    task = session.task
    lines = [f'"Goal": "{task.goal()}"', f'"Initial state": "{task.state(branch.states[0])}"']
    for number, (action, state) in enumerate(zip(branch.actions, branch.states[1:]), 1):
        lines.append(f'"Action {number}": "{action_text(action)}"')
        lines.append(f'"State {number}": "{task.state(state)}"')
    return "\n".join(lines)


def generation_prompt(
    session: Session, branch: Branch, refused: Sequence[Refusal] = (), previous: Sequence[str] = ()
) -> str:
    """The generation prompt (App. A, "Action/State Generation"); the Iterative Correction prompt
    when ``refused`` lists refused actions with their errors; the diverse-generation prompt when
    ``previous`` lists the branch's earlier candidates."""
    number = len(branch.actions) + 1
    parts = [
        "I am solving a planning problem, one action at a time. The environment executes each action and "
        "gives the state it leads to.",
        session.task.environment,
        "The plan so far:\n" + _history(session, branch),
    ]
    if refused:
        listed = ", ".join(f'"Action {number}": "{r.action}" (error: {r.message})' for r in refused)
        parts.append(
            f'Now I need to correct previous invalid actions.\n"Previous invalid actions": {{{listed}}}'
        )
    if previous:
        listed = ", ".join(f'"Action {number}": "{action}"' for action in previous)
        parts.append(f'Now I need to take a different action.\n"Previous generations": {{{listed}}}')
    parts.append(
        f'Propose the next action toward the goal. Answer with one line:\n"Action {number}": "<action>"'
    )
    return "\n\n".join(parts)


def generate(
    session: Session, branch: Branch, sample: int, corrections: int, previous: Sequence[str] = ()
) -> Candidate:
    """One candidate next action for ``branch`` (sample ``sample``), asked again with the typed
    error up to ``corrections`` times while the world model refuses it (Iterative Correction).

    Raises:
        BudgetExhausted: the world model's query budget ran out (only with a budget set).
    """
    refused: list[Refusal] = []
    calls = 0
    for _ in range(corrections + 1):
        answer = session.prompt(generation_prompt(session, branch, refused, previous), sample)
        calls += 1
        text = step_action(answer, len(branch.actions) + 1, session.problem.domain.operators)
        if text is None:
            refused.append(Refusal("(none)", "unparsable", "the answer names no action"))
            continue
        step = session.world.step(branch.state, text)
        if step.error is None and step.action is not None:
            grown = Branch((*branch.actions, step.action), (*branch.states, step.state))
            return Candidate(grown, tuple(refused), calls)
        assert step.error is not None
        refused.append(Refusal(text.strip(), step.error.kind.value, step.error.message))
    return Candidate(None, tuple(refused), calls)


def comparison_prompt(session: Session, options: list[Branch]) -> str:
    """The Contrastive Ranking prompt (App. A): options are partial plans with their future state."""
    task = session.task
    listed = ",\n".join(
        f'"Option {index}": {{"Actions": "{", ".join(action_text(a) for a in option.actions)}", '
        f'"Future state": "{task.state(option.state)}"}}'
        for index, option in enumerate(options, 1)
    )
    choices = " or ".join(f'"Option {index}"' for index in range(1, len(options) + 1))
    return "\n\n".join(
        [
            "You will be given a goal, an initial state, and candidate partial plans (options) with the future "
            "state each leads to. Evaluate the options by their immediate effects and their utility toward "
            "achieving the goal.",
            session.task.environment,
            f'"Goal": "{task.goal()}"\n"Options": {{\n{listed}\n}}',
            'Follow this exact format in your response:\n"Comparison": an analysis of each option: how it '
            "affects the state and how it contributes to achieving the goal, including its long-term impact.\n"
            f'"Conclusion": the one most effective option: {choices}, with no further explanation.',
        ]
    )


def rating_prompt(session: Session, option: Branch) -> str:
    """The Plan Rating prompt (App. A; SymPlanner without CR)."""
    task = session.task
    plan = ", ".join(action_text(action) for action in option.actions)
    return "\n\n".join(
        [
            "You will be given a goal, an initial state and a partial plan. Rate the partial plan: are its "
            "actions valid, and do they help achieve the goal, directly or by setting up later moves?",
            task.environment,
            f'"Goal": "{task.goal()}"\n"Partial plan": "{plan}"\n"Resulting state": "{task.state(option.state)}"',
            "Answer DIRECTLY with a score from 1 to 10 (1: invalid or counterproductive; 5: valid but not helpful; "
            '10: valid and clearly beneficial), in this format:\n"Rating": <score>',
        ]
    )


def schedule(count: int, group_size: int, per_option: int, rng: random.Random) -> list[list[int]]:
    """Comparison groups over ``count`` options, in random order: each round shuffles the options
    and splits them into groups of ``group_size`` (a lone last option joins a random other one),
    so each option is in ``per_option`` groups and a round has ``ceil(count / group_size)``
    comparisons (the authors' code: ``ceil(cmp_per_opt * N / group_size)``)."""
    size = max(2, min(group_size, count))
    groups: list[list[int]] = []
    for _ in range(per_option):
        order = list(range(count))
        rng.shuffle(order)
        for start in range(0, count, size):
            group = order[start : start + size]
            if len(group) == 1:
                group.append(rng.choice([i for i in range(count) if i != group[0]]))
            groups.append(group)
    return groups


def rank(
    session: Session, options: list[Branch], keep: int, *, contrastive: bool, group_size: int, per_option: int
) -> list[Branch]:
    """The ``keep`` best options, by Contrastive Ranking or by independent ratings."""
    if len(options) <= keep:
        return options
    scores = [0] * len(options)
    if contrastive:
        groups = schedule(len(options), group_size, per_option, session.rng)
        answers = session.gather(
            lambda group: session.prompt(comparison_prompt(session, [options[i] for i in group])), groups
        )
        for group, answer in zip(groups, answers):
            choice = option_choice(answer, len(group))
            if choice is None:
                session.feedback["answer-format"] += 1
                continue
            scores[group[choice - 1]] += 1
            session.note("comparison", options=group, winner=group[choice - 1])
    else:
        answers = session.gather(lambda option: session.prompt(rating_prompt(session, option)), options)
        for index, answer in enumerate(answers):
            found = number_after(answer, "Rating")
            scores[index] = found if found is not None else 5
            session.note("rating", option=index, score=scores[index])
    order = sorted(range(len(options)), key=lambda i: -scores[i])
    return [options[i] for i in order[:keep]]


def symplanner(
    session: Session,
    *,
    max_steps: int,
    rollouts: int,
    generations: int,
    beam_width: int,
    group_size: int,
    comparisons_per_option: int,
    corrections: int,
    iterative_correction: bool,
    contrastive_ranking: bool,
    diverse_generation: bool,
) -> Outcome:
    """Algorithm 1 of SymPlanner on one problem.

    Raises:
        BudgetExhausted: the world model's query budget ran out (only with a budget set).
    """
    world = session.world
    repairs = corrections if iterative_correction else 0
    active = [Branch((), (world.initial_state,))]
    created = 1
    done: list[Branch] = []
    beam = beam_width
    pruned_at: int | None = None
    for step in range(1, max_steps + 1):
        if beam == 0 or not active:
            break
        session.details["steps"] = step
        samples: dict[int, int] = {}
        for index in range(len(active)):
            extra = max(0, min(generations - 1, rollouts - created))
            created += extra
            samples[index] = 1 + extra

        def candidates_of(
            index: int, samples: dict[int, int] = samples, active: list[Branch] = active
        ) -> list[Candidate]:
            made: list[Candidate] = []
            for sample in range(samples[index]):
                seen = [action_text(c.branch.actions[-1]) for c in made if c.branch is not None]
                made.append(
                    generate(session, active[index], sample, repairs, seen if diverse_generation else ())
                )
            return made

        if diverse_generation:
            candidates = [c for made in session.gather(candidates_of, list(range(len(active)))) for c in made]
        else:
            jobs = [
                (active[index], sample) for index in range(len(active)) for sample in range(samples[index])
            ]
            candidates = session.gather(lambda job: generate(session, job[0], job[1], repairs), jobs)
        options: list[Branch] = []
        for candidate in candidates:
            for refusal in candidate.refused:
                session.feedback[refusal.kind] += 1
            session.note(
                "candidate",
                step=step,
                action=action_text(candidate.branch.actions[-1]) if candidate.branch else None,
                refused=[refusal.message for refusal in candidate.refused],
                calls=candidate.calls,
            )
            if candidate.branch is not None and candidate.branch not in options:
                options.append(candidate.branch)
        if not options:
            pruned_at = step
            break
        reached = [option for option in options if world.is_goal(option.state)][:beam]
        done += reached
        beam -= len(reached)
        rest = [option for option in options if not world.is_goal(option.state)]
        active = (
            rank(
                session,
                rest,
                beam,
                contrastive=contrastive_ranking,
                group_size=group_size,
                per_option=comparisons_per_option,
            )
            if beam > 0
            else []
        )
        session.note("beam", step=step, active=len(active), completed=len(done))
    session.details["completed_plans"] = len(done)
    if not done:
        if pruned_at is not None:
            return Outcome(None, NO_PLAN, f"every candidate was pruned at step {pruned_at}")
        return Outcome(None, STEP_LIMIT, f"no plan reached the goal in {max_steps} steps")
    best = rank(
        session,
        done,
        1,
        contrastive=contrastive_ranking,
        group_size=group_size,
        per_option=comparisons_per_option,
    )[0]
    return Outcome([action_text(action) for action in best.actions], SOLVED_BY_METHOD)

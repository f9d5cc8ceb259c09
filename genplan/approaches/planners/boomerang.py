"""Boomerang: the model proposes a whole plan from the start; the world model rolls it out and
returns the partial trajectory and the error; repeat (Gonzalez-Pumariaga et al., Sec. 3.2, Algorithm 2).

Each iteration asks for an action sequence from the starting state (format of App. A.4.3:
``Reflect`` / ``Think`` / ``Action Sequence``); the world model executes it from the initial
state, re-using every query made in earlier iterations (counted once, see
:mod:`genplan.plans.world_model`), and stops at the first invalid action or the goal. A plan that
reaches the goal ends the search; otherwise the visited states and the error are appended to the
conversation (``H_t = H_{t-1} U (xi, error)``) and the next plan is asked for. The search stops
when the query budget (20 in the paper's Blocksworld experiments) or the iterations run out.
"""

from __future__ import annotations

from genplan.approaches.planners.answers import actions_after
from genplan.approaches.planners.prompts import valid_actions_text
from genplan.approaches.planners.session import SOLVED_BY_METHOD, STEP_LIMIT, Outcome, Session
from genplan.llm import Message
from genplan.plans.world_model import Rollout, action_text

INSTRUCTIONS = """You must propose a sequence of actions from the starting state to the goal, given your previous \
interactions with the environment."""

ANSWER_FORMAT = """Always format your response as follows:
Reflect: lessons learned about the rules of the environment. After error feedback, first check that the \
failing action is well formed (see the action format), then why it is invalid in the state where it was \
taken, and which earlier action led to the error.
Think: your reasoning for the next action sequence, using your current and previous reflections.
Action Sequence: <action1>, <action2>, ..., <actionN>

The action sequence always starts from the starting state (the problem's :init) and must end in a state \
where the goal holds."""


def first_prompt(session: Session, valid_actions: bool) -> str:
    """The first message: instructions, the environment, the answer format."""
    parts = [INSTRUCTIONS, session.task.environment]
    if valid_actions:
        world = session.world
        parts.append(
            f"Valid actions in the starting state: {valid_actions_text(world.applicable(world.initial_state))}"
        )
    parts.append(ANSWER_FORMAT)
    return "\n\n".join(parts)


def feedback(session: Session, plan: list[str], rollout: Rollout) -> tuple[str, str]:
    """The feedback message after a failed rollout and its kind (the error kind, or
    ``goal-not-reached``)."""
    task = session.task
    visited = "\n".join(
        f"{index}. {action_text(step.action)} -> {task.state(step.state)}"
        for index, step in enumerate(rollout.steps, 1)
        if step.ok and step.action is not None
    )
    if rollout.error is not None:
        index = (rollout.failing_index or 0) + 1
        error = f"action {index} of your sequence failed: {rollout.error.message}."
        kind = rollout.error.kind.value
    else:
        unmet = " ".join(action_text(atom) for atom in session.world.unmet_goals(rollout.final_state))
        error = f"your sequence of {len(plan)} actions applied without error but did not reach the goal; unmet: {unmet}."
        kind = "goal-not-reached"
    lines = [f"Error Feedback: {error}"]
    lines.append(
        "States Visited (each action that applied, and the state it led to):\n" + (visited or "(none)")
    )
    lines.append("Propose a new action sequence from the starting state, in the same format.")
    return "\n\n".join(lines), kind


def boomerang(session: Session, *, iterations: int, valid_actions: bool) -> Outcome:
    """Algorithm 2 of Gonzalez-Pumariaga et al. on one problem.

    Raises:
        BudgetExhausted: the world model's query budget ran out (the runner records it).
    """
    messages = [Message("user", first_prompt(session, valid_actions))]
    for iteration in range(1, iterations + 1):
        session.details["iterations"] = iteration
        answer = session.ask(messages)
        messages.append(Message("assistant", answer))
        plan = actions_after(answer, "Action Sequence", session.problem.domain.operators)
        if not plan:
            session.feedback["answer-format"] += 1
            session.note("no-plan-in-answer", iteration=iteration)
            messages.append(
                Message(
                    "user",
                    "Error Feedback: your answer has no 'Action Sequence:' line with actions. Answer in the format "
                    "given: Reflect, Think, then Action Sequence: <action1>, <action2>, ...",
                )
            )
            continue
        rollout = session.world.rollout(plan)
        session.note(
            "rollout",
            iteration=iteration,
            plan=plan,
            applied=len([step for step in rollout.steps if step.ok]),
            error=rollout.error.message if rollout.error else None,
            reached_goal=rollout.reached_goal,
            queries=session.world.queries,
        )
        if rollout.reached_goal:
            return Outcome([action_text(action) for action in rollout.applied], SOLVED_BY_METHOD)
        text, kind = feedback(session, plan, rollout)
        session.feedback[kind] += 1
        messages.append(Message("user", text))
    return Outcome(None, STEP_LIMIT, f"no plan reached the goal in {iterations} iterations")

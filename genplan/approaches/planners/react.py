"""ReAct and ReAct-Select: one action per model call, with every observation kept in context
(Gonzalez-Pumariaga et al., Sec. 2, "Leveraging LLMs for Query-Efficient Planning").

*ReAct* (Yao et al., 2022) is the policy ``pi(a_k | phi, H_k, s_k)``: it reasons (``Think``) and
takes one action from the state its last action reached; the world model answers with the next
state or the error. *ReAct-Select* is ``pi(q_k | phi, H_k)``: it picks both a visited state and
an action, so it can return to a better state instead of walking back. Gonzalez-Pumariaga et al. give no prompt
for either; these follow its other prompts (App. A.4: an instruction, the environment, the valid
actions of the current state, a fixed answer format). The conversation grows with every
observation; a run stops at the goal, when the query budget runs out, or after ``steps``
decisions (20 in the paper, App. A.3).
"""

from __future__ import annotations

import re

from genplan.approaches.planners.answers import actions_after, labelled
from genplan.approaches.planners.prompts import valid_actions_text
from genplan.approaches.planners.session import SOLVED_BY_METHOD, STEP_LIMIT, Outcome, Session
from genplan.llm import Message
from genplan.pddl.domain import Atom
from genplan.plans.world_model import State, action_text

REACT_INSTRUCTIONS = """You are acting in an environment to reach a goal, one action at a time. After each action \
you will see what happened."""

REACT_FORMAT = """Always format your response as follows:
Think: your reasoning about the current state, what happened so far, and the next action.
Action: <one action>"""

SELECT_INSTRUCTIONS = """You are searching for a plan in an environment. At each turn you choose a state you have \
already visited and an action to try in it; you will see what happened. Visited states are numbered: S0 is the \
starting state, new states get the next numbers. A plan is the path of actions from S0 to a state where the goal \
holds."""

SELECT_FORMAT = """Always format your response as follows:
Think: your reasoning about which visited state to continue from and which action to try there.
State: S<number>
Action: <one action>"""


def _valid(session: Session, state: State, name: str = "the current state") -> str:
    return f"Valid actions in {name}: {valid_actions_text(session.world.applicable(state))}"


def react(session: Session, *, steps: int, valid_actions: bool) -> Outcome:
    """ReAct on one problem: act from the last state reached.

    Raises:
        BudgetExhausted: the world model's query budget ran out (the runner records it).
    """
    world, task = session.world, session.task
    state = world.initial_state
    opening = [REACT_INSTRUCTIONS, task.environment, f"Current state: {task.state(state)}"]
    if valid_actions:
        opening.append(_valid(session, state))
    opening.append(REACT_FORMAT)
    messages = [Message("user", "\n\n".join(opening))]
    plan: list[Atom] = []
    for decision in range(1, steps + 1):
        session.details["decisions"] = decision
        answer = session.ask(messages)
        messages.append(Message("assistant", answer))
        actions = actions_after(answer, "Action", session.problem.domain.operators)
        if not actions:
            session.feedback["answer-format"] += 1
            session.note("no-action-in-answer", decision=decision)
            messages.append(
                Message(
                    "user", "Observation: your answer has no 'Action:' line with one action. " + REACT_FORMAT
                )
            )
            continue
        step = world.step(state, actions[0])
        session.note(
            "step",
            decision=decision,
            action=actions[0],
            error=step.error.message if step.error else None,
            queries=world.queries,
        )
        if step.error is not None:
            session.feedback[step.error.kind.value] += 1
            messages.append(Message("user", f"Observation: {step.error.message}. The state is unchanged."))
            continue
        assert step.action is not None
        state = step.state
        plan.append(step.action)
        if world.is_goal(state):
            return Outcome([action_text(action) for action in plan], SOLVED_BY_METHOD)
        observation = [f"Observation: {action_text(step.action)} applied. Current state: {task.state(state)}"]
        if valid_actions:
            observation.append(_valid(session, state))
        messages.append(Message("user", "\n".join(observation)))
    return Outcome(None, STEP_LIMIT, f"the goal was not reached in {steps} decisions")


def _path(parents: list[tuple[int, Atom] | None], index: int) -> list[Atom]:
    actions: list[Atom] = []
    while (link := parents[index]) is not None:
        index, action = link
        actions.append(action)
    return actions[::-1]


def react_select(session: Session, *, steps: int, valid_actions: bool) -> Outcome:
    """ReAct-Select on one problem: choose a visited state and an action each turn.

    Raises:
        BudgetExhausted: the world model's query budget ran out (the runner records it).
    """
    world, task = session.world, session.task
    states: list[State] = [world.initial_state]
    parents: list[tuple[int, Atom] | None] = [None]
    opening = [SELECT_INSTRUCTIONS, task.environment, f"S0: {task.state(states[0])}"]
    if valid_actions:
        opening.append(_valid(session, states[0], "S0"))
    opening.append(SELECT_FORMAT)
    messages = [Message("user", "\n\n".join(opening))]
    for decision in range(1, steps + 1):
        session.details["decisions"] = decision
        answer = session.ask(messages)
        messages.append(Message("assistant", answer))
        actions = actions_after(answer, "Action", session.problem.domain.operators)
        chosen = labelled(answer, "State", following=("Action",))
        number = re.search(r"\d+", chosen or "")
        index = int(number.group(0)) if number else len(states) - 1
        if not actions or index >= len(states):
            session.feedback["answer-format"] += 1
            problem = (
                "no 'Action:' line"
                if not actions
                else f"no visited state S{index} (visited: S0 to S{len(states) - 1})"
            )
            messages.append(Message("user", f"Observation: your answer has {problem}. " + SELECT_FORMAT))
            continue
        step = world.step(states[index], actions[0])
        session.note(
            "step",
            decision=decision,
            state=index,
            action=actions[0],
            error=step.error.message if step.error else None,
            queries=world.queries,
        )
        if step.error is not None:
            session.feedback[step.error.kind.value] += 1
            messages.append(Message("user", f"Observation: from S{index}, {step.error.message}."))
            continue
        assert step.action is not None
        if step.state in states:
            known = states.index(step.state)
            messages.append(
                Message(
                    "user",
                    f"Observation: from S{index}, {action_text(step.action)} led to S{known}, visited before.",
                )
            )
            continue
        states.append(step.state)
        parents.append((index, step.action))
        new = len(states) - 1
        if world.is_goal(step.state):
            return Outcome([action_text(action) for action in _path(parents, new)], SOLVED_BY_METHOD)
        observation = [
            f"Observation: from S{index}, {action_text(step.action)} led to a new state S{new}: {task.state(step.state)}"
        ]
        if valid_actions:
            observation.append(_valid(session, step.state, f"S{new}"))
        messages.append(Message("user", "\n".join(observation)))
    return Outcome(None, STEP_LIMIT, f"the goal was not reached in {steps} decisions")

"""Tree of Interaction: the model as a heuristic inside breadth-first (beam) or depth-first search
(Gonzalez-Pumariaga et al., Sec. 3.1, Algorithm 1 ToI-BFS, App. A.6 Algorithm 3 ToI-DFS).

Two model modules (App. A.4.4, A.4.5), each a one-message prompt with no history:

* *Action proposal* ``pi(A | s, phi, k)``: ``k`` distinct actions from the valid actions of state
  ``s``, in one answer (``Think`` / ``Actions: a1, a2``). An answer that names an action outside
  the valid ones, or not ``k`` distinct ones, is asked again with ``Error Feedback`` (up to
  ``retries`` times; the paper's prompt has the field, not the count), then what is valid is used.
  A state expanded again gets an independent sample of the same prompt.
* *State evaluation* ``V(s, phi)``: ``Think`` / ``Rating: sure | maybe | impossible``; each state
  is rated once.

ToI-BFS keeps a beam of ``b`` states: each iteration every beam state in turn proposes ``k``
actions and the world model answers each (a goal ends the search at once), and the beam becomes the best ``b`` of the old beam and the new states
(new ones first among equals). ToI-DFS pops the last state of a stack, proposes ``k`` actions,
and pushes the new states rated at least ``min_rating`` (above the paper's ``v_min``), the best on
top. Both stop when a generated state satisfies the goal (the path to it is the plan), when the
query budget runs out, or after ``iterations``; states already in the tree are not added again.
"""

from __future__ import annotations

from dataclasses import dataclass

from genplan.approaches.planners.answers import actions_after, rating
from genplan.approaches.planners.prompts import actions_text, valid_actions_text
from genplan.approaches.planners.session import NO_PLAN, SOLVED_BY_METHOD, STEP_LIMIT, Outcome, Session
from genplan.pddl.domain import Atom
from genplan.plans.world_model import ActionError, State, action_text

RATINGS = ("impossible", "maybe", "sure")
VALUE = {name: value for value, name in enumerate(RATINGS)}

PROPOSAL_INSTRUCTIONS = """You will propose various options for actions that could be taken in the environment to \
make progress towards the goal."""

EVALUATION_INSTRUCTIONS = """You will evaluate the current state based on its likelihood to be on the path to the \
goal."""


@dataclass(frozen=True)
class Node:
    """A search-tree node: a state, its parent's index and the action from the parent."""

    state: State
    parent: int | None
    action: Atom | None


@dataclass(frozen=True)
class Proposal:
    """The actions a proposal call settled on, and the format errors met on the way."""

    actions: tuple[Atom, ...]
    errors: tuple[str, ...]


def proposal_prompt(session: Session, state: State, count: int, valid: list[Atom], error: str | None) -> str:
    """The action-proposal prompt (App. A.4.4)."""
    task = session.task
    parts = [PROPOSAL_INSTRUCTIONS, task.environment]
    if error:
        parts.append(f"Error Feedback: {error}")
    parts.append(
        f"Number of Actions: {count}\nCurrent State: {task.state(state)}\nValid Actions: {valid_actions_text(valid)}"
    )
    parts.append(
        "Always format your response as follows:\n"
        "Think: your reasoning about which actions will help reach the goal.\n"
        f"Actions: <action1>, ..., <action{count}>\n\n"
        f"'Actions' are exactly {count} different actions taken from the valid actions, comma-separated."
    )
    return "\n\n".join(parts)


def evaluation_prompt(session: Session, state: State, error: str | None) -> str:
    """The state-evaluation prompt (App. A.4.5)."""
    task = session.task
    parts = [EVALUATION_INSTRUCTIONS, task.environment]
    if error:
        parts.append(f"Error Feedback: {error}")
    parts.append(f"Current State: {task.state(state)}\nGoal: {task.goal()}")
    parts.append(
        "Always format your response as follows:\n"
        "Think: your reasoning about whether the current state is on a path to the goal.\n"
        "Rating: <sure/maybe/impossible>\n\n"
        "sure: the current state is definitely on the path to the goal; maybe: it might be; impossible: it is "
        "definitely not."
    )
    return "\n\n".join(parts)


def propose(session: Session, state: State, count: int, sample: int, retries: int) -> Proposal:
    """Ask for ``count`` distinct valid actions in ``state`` (sample ``sample`` of the prompt)."""
    valid = session.world.applicable(state)
    wanted = min(count, len(valid))
    if wanted == 0:
        return Proposal((), ())
    chosen: list[Atom] = []
    errors: list[str] = []
    error: str | None = None
    for _ in range(retries + 1):
        answer = session.prompt(proposal_prompt(session, state, wanted, valid, error), sample)
        named = actions_after(answer, "Actions", session.problem.domain.operators) or []
        chosen, bad = [], []
        for text in named:
            parsed = session.world.parse(text)
            if isinstance(parsed, ActionError) or parsed not in valid:
                bad.append(text.strip())
            elif parsed not in chosen:
                chosen.append(parsed)
        if not bad and len(chosen) == wanted:
            break
        if bad:
            error = f"the actions you proposed included ones that are not valid actions: {', '.join(bad)}"
        elif not named:
            error = "your answer has no 'Actions:' line"
        else:
            error = f"you proposed {len(chosen)} different valid actions instead of {wanted}"
        errors.append(error)
    return Proposal(tuple(chosen[:wanted]), tuple(errors))


def evaluate(session: Session, state: State, retries: int) -> tuple[str, int]:
    """The state's rating (``maybe`` when no answer gave one) and the format errors met."""
    error: str | None = None
    for attempt in range(retries + 1):
        answer = session.prompt(evaluation_prompt(session, state, error))
        found = rating(answer, RATINGS)
        if found is not None:
            return found, attempt
        error = "your answer has no 'Rating:' line with sure, maybe or impossible"
    return "maybe", retries + 1


class Tree:
    """The search tree of one problem: nodes, their ratings, how often each was expanded."""

    def __init__(self, root: State):
        self.nodes = [Node(root, None, None)]
        self.index = {root: 0}
        self.ratings: dict[int, str] = {}
        self.expansions: dict[int, int] = {}

    def path(self, node: int) -> list[str]:
        """The plan from the root to ``node``."""
        actions: list[str] = []
        while (parent := self.nodes[node].parent) is not None:
            action = self.nodes[node].action
            assert action is not None
            actions.append(action_text(action))
            node = parent
        return actions[::-1]


def _expand(session: Session, tree: Tree, node: int, proposal: Proposal) -> tuple[list[int], int | None]:
    """Query the world model with a proposal; the new nodes, and a goal node if one was reached."""
    for error in proposal.errors:
        session.feedback["answer-format"] += 1
        session.note("proposal-error", node=node, error=error)
    session.note("expand", node=node, actions=actions_text(proposal.actions))
    new: list[int] = []
    for action in proposal.actions:
        step = session.world.step(tree.nodes[node].state, action)
        if step.error is not None:
            session.feedback[step.error.kind.value] += 1
            continue
        if step.state in tree.index:
            continue
        tree.nodes.append(Node(step.state, node, action))
        tree.index[step.state] = len(tree.nodes) - 1
        new.append(len(tree.nodes) - 1)
        if session.world.is_goal(step.state):
            return new, len(tree.nodes) - 1
    return new, None


def _rate(session: Session, tree: Tree, nodes: list[int], retries: int) -> None:
    todo = [node for node in nodes if node not in tree.ratings]
    answers = session.gather(lambda node: evaluate(session, tree.nodes[node].state, retries), todo)
    for node, (found, errors) in zip(todo, answers):
        tree.ratings[node] = found
        session.feedback["answer-format"] += errors
        session.note("rating", node=node, rating=found)


def toi_bfs(session: Session, *, iterations: int, proposals: int, beam_width: int, retries: int) -> Outcome:
    """ToI-BFS (Algorithm 1) on one problem.

    Raises:
        BudgetExhausted: the world model's query budget ran out (the runner records it).
    """
    tree = Tree(session.world.initial_state)
    beam = [0]
    for iteration in range(1, iterations + 1):
        session.details["iterations"] = iteration

        new: list[int] = []
        for node in beam:
            sample = tree.expansions.get(node, 0)
            proposal = propose(session, tree.nodes[node].state, proposals, sample, retries)
            tree.expansions[node] = sample + 1
            added, goal = _expand(session, tree, node, proposal)
            if goal is not None:
                return Outcome(tree.path(goal), SOLVED_BY_METHOD)
            new += added
        candidates = new + [node for node in beam if node not in new]
        _rate(session, tree, candidates, retries)
        ranked = sorted(range(len(candidates)), key=lambda i: (-VALUE[tree.ratings[candidates[i]]], i))
        beam = [candidates[i] for i in ranked[:beam_width]]
        session.note("beam", nodes=beam)
    return Outcome(None, STEP_LIMIT, f"the goal was not reached in {iterations} iterations")


def toi_dfs(session: Session, *, iterations: int, proposals: int, min_rating: str, retries: int) -> Outcome:
    """ToI-DFS (Algorithm 3) on one problem.

    Raises:
        BudgetExhausted: the world model's query budget ran out (the runner records it).
    """
    tree = Tree(session.world.initial_state)
    stack = [0]
    for iteration in range(1, iterations + 1):
        session.details["iterations"] = iteration
        if not stack:
            return Outcome(
                None, NO_PLAN, "every state on the stack was expanded or rated below the threshold"
            )
        node = stack.pop()
        proposal = propose(session, tree.nodes[node].state, proposals, tree.expansions.get(node, 0), retries)
        tree.expansions[node] = tree.expansions.get(node, 0) + 1
        added, goal = _expand(session, tree, node, proposal)
        if goal is not None:
            return Outcome(tree.path(goal), SOLVED_BY_METHOD)
        _rate(session, tree, added, retries)
        kept = [n for n in added if VALUE[tree.ratings[n]] >= VALUE[min_rating]]
        order = sorted(range(len(kept)), key=lambda i: (VALUE[tree.ratings[kept[i]]], -i))
        stack.extend(kept[i] for i in order)
        session.note("stack", nodes=list(stack))
    return Outcome(None, STEP_LIMIT, f"the goal was not reached in {iterations} iterations")

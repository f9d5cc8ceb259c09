"""The language model as the planner, per problem, against a counted world model: I/O, I/O + CoT,
ReAct, ReAct-Select, Tree of Interaction (BFS, DFS), Boomerang (Gonzalez-Pumariaga et al.) and SymPlanner."""

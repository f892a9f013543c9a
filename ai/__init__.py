"""The AI: compiled MCTS search, Connect 4 solver, engine process and its client."""

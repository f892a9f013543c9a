"""The network game server and its wire protocol (pure: no pygame)."""

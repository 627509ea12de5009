"""The hub: games in memory and every change to them, one module per capability (see
core.py). Nothing here imports the web framework: the API (`parlour.server.api`) does."""

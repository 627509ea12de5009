"""Parlour: classic tile, card and board games in the browser."""

"""What a game's page link shows where it is pasted (a chat, a forum, a club's page): the
page's title and its Open Graph tags, which the server writes into the page because a
preview is read from the page as sent, before any script runs. A deal link names its
game and board, a seat link says a seat is waiting; what a link carries that is not a
game's own is never echoed back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from pathlib import Path

from parlour.core.game import BadParams, GameSpec
from parlour.core.gameid import parse_game_id
from parlour.server.api.schemas import NewGame

SITE = "Parlour"
TITLE_TAG = f"<title>{SITE}</title>"  # play.html's title, which a preview replaces
GAME_ID_LIMIT = NewGame.model_fields["id"].metadata[0].max_length


@dataclass(frozen=True)
class Preview:
    """A page's title and the sentence a link's preview shows under it."""

    title: str
    description: str

    def head(self, image_url: str) -> str:
        """The tags that replace the page's own title."""
        tags = {"og:site_name": SITE, "og:type": "website", "og:title": self.title,
                "og:description": self.description, "og:image": image_url}
        return "\n".join([
            f"<title>{escape(self.title)} · {SITE}</title>",
            f'<meta name="description" content="{escape(self.description)}">',
            *(f'<meta property="{name}" content="{escape(value)}">'
              for name, value in tags.items()),
            '<meta name="twitter:card" content="summary">',
        ])


def preview(spec: GameSpec, query: Mapping[str, str]) -> Preview:
    """What `/play/GAME?…` shows when pasted: a seat link (`session`), a deal link (`id`)
    or the game alone, whatever else the link says (an id that is not this game's, or
    too long to be one, reads as no id)."""
    title = spec.game.title
    if "session" in query:
        return Preview(f"Join a game of {title}",
                       f"A seat in a game of {title} is waiting for whoever opens this link.")
    deal = query.get("id", "")
    if deal and len(deal) <= GAME_ID_LIMIT:
        try:
            game_id = parse_game_id(spec.game, deal)
        except BadParams:
            pass
        else:
            board = spec.game.summary(game_id.params)
            if game_id.seed is None:
                return Preview(" · ".join(filter(None, [title, board, "a start position"])),
                               f"A start position of {title} to play: whoever opens this "
                               "link starts from it.")
            return Preview(" · ".join(filter(None, [title, board])),
                           f"A deal of {title} to play: whoever opens this link gets "
                           f"{spec.deal_link_note}.")
    return Preview(title, spec.tagline or f"{title}, played in the browser.")


def page_with_preview(path: Path, shown: Preview, image_url: str) -> str:
    """The page at `path`, its title replaced by `shown`'s."""
    return _page(path, path.stat().st_mtime_ns).replace(TITLE_TAG, shown.head(image_url), 1)


@lru_cache(maxsize=4)
def _page(path: Path, modified: int) -> str:
    """The page's text, read once a version (`modified`: an edited page is read again, as a
    static file is served afresh)."""
    text = path.read_text()
    if TITLE_TAG not in text:
        raise ValueError(f"{path.name} has no {TITLE_TAG} for a link's preview to replace")
    return text

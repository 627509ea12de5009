"""Rematches: a finished game's players offer and accept the next game of their series.

The rules are in series.py; here they are carried out under the game's lock. When every
player holding seats has accepted, the rematch is dealt with the same game and options,
its seats rotated (the first move passes on), each player given a new token for their
new seats; it is committed together with the series' places of both games, so that the
old game's pages, told where it went (`handover`), follow it, even after a restart.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable

from parlour.core import work
from parlour.core.gameid import new_seed, stat_group
from parlour.core.session import Session
from parlour.server.hub import records
from parlour.server.hub.live import Live
from parlour.server.hub.messages import Answer, AnswerRematch
from parlour.server.hub.series import (
    answered,
    first_place,
    rotated_kinds,
    rotated_seats,
    tally_with,
)
from parlour.server.hub.tokens import raw_token
from parlour.server.hub.turns import ComputerTurns
from parlour.server.hub.workers import Workers
from parlour.store import SeriesRow, Store, seating_changed, series_saved, together
from parlour.store.seat_tokens import seal, token_digest


class Rematches:
    def __init__(
        self, store: Store, workers: Workers, turns: ComputerTurns,
        keep: Callable[[Live], None], now: Callable[[], float],
    ) -> None:
        self.store = store
        self.workers = workers
        self.turns = turns
        self.keep = keep
        self.now = now

    async def answer(
        self, live: Live, token: str | None, seats: frozenset[int], message: AnswerRematch
    ) -> Answer:
        """Offer a rematch, accept it, refuse it or withdraw one's own offer."""
        assert token is not None  # the hub lets only seat holders act
        offer = live.series.offer
        players = [holder for holder, held in live.holders.items() if held]
        verdict = answered(live.series, live.session, token, message.accept, players)
        if verdict == "withdrawn":
            return "Rematch offer withdrawn"
        if verdict == "refused":
            assert offer is not None
            live.tell(offer.asker, "Your rematch offer was declined")
            return "Rematch declined"
        if verdict == "waiting":
            others = "the other player" if len(players) == 2 else "the other players"
            return (f"Rematch offered: waiting for {others}" if offer is None
                    else f"Accepted: waiting for {others}")
        try:
            await self._start(live)
        except BaseException:
            live.series.offer = None  # not dealt or not saved: the players may offer again
            raise
        return None  # every page moves to the rematch (its view's `rematch.next`)

    async def _start(self, live: Live) -> None:
        """Deal the rematch, seat its players, commit it and its series, keep it live."""
        old = live.session
        spec, seat_count = old.spec, len(old.seats)
        game_id = old.game_id
        if game_id.position is None:  # a new deal like this one (a given position: the same)
            game_id = dataclasses.replace(game_id, seed=new_seed(),
                                          version=spec.game.deal_version)
        start = await self.workers.dealt(spec, game_id, 0, "dealing the rematch", work.deal,
                                         spec.game, game_id)
        # every player accepted in this process, presenting their token: the new token
        # is kept sealed with it (seat_tokens.py), the rematch's seats by its digest
        assert live.series.offer is not None  # the offer everyone accepted
        presented = {key: raw for key in live.series.offer.accepted
                     if (raw := raw_token(key)) is not None}
        new_tokens = {key: secrets.token_urlsafe(18)
                      for key, held in live.holders.items() if held}
        handover = {key: seal(new, presented[key]) for key, new in new_tokens.items()}
        rematch = Live(
            sid=secrets.token_urlsafe(9),
            session=Session(spec, game_id, rotated_kinds(old.seats), start=start),
            mode=live.mode,
            preset=stat_group(spec.game, game_id),  # played here, even after an import
            round=1,
            holders={token_digest(new_tokens[key]): frozenset(rotated_seats(held, seat_count))
                     for key, held in live.holders.items() if held},
        )
        # a seat the computer stood in for, its player gone, keeps its computer
        rematch.session.stand_ins = {(seat - 1) % seat_count: level
                                     for seat, level in old.stand_ins.items()}
        place = live.series.place or first_place(live.sid, seat_count)
        rematch.series.place = SeriesRow(rematch.sid, place.series, place.number + 1,
                                         tally_with(place, old))
        finished = dataclasses.replace(place, next_sid=rematch.sid, handover=handover)
        await self.store.commit(records.created(rematch, self.now(), together(
            seating_changed(rematch.sid, {}, rematch.session.stand_ins),
            series_saved(finished), series_saved(rematch.series.place))))
        live.series.place, live.series.offer = finished, None
        self.keep(rematch)
        self.turns.kick(rematch)


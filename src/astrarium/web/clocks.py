"""The chess clocks of the web table: time charged per turn, and the alarm that hands a seat to a computer at zero.

A table's clock (chosen at creation: minutes, increment, what happens at
zero, and the computer level that takes over) is read through the table
(:meth:`Table.clock_status`, :meth:`Table.time_left`); this unit changes it:
it charges a turn's time when the move is stored, pauses and resumes a seat's
clock when a computer takes the seat or gives it back, and sets the alarm
that hands a seat whose time has run out to a computer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Protocol

from astrarium.web.tables import Later, Table, seat_label

log = logging.getLogger("astrarium.web")


class HandsOver(Protocol):
    """What the clock calls at zero: a computer of ``level`` plays the seat from now on."""

    async def hand_over(self, table: Table, seat: int, level: str, by: int | None = None) -> None: ...


class Clocks:
    """Every table's chess clock: charging turns and the alarms at zero."""

    def __init__(self, later: Later, seats: HandsOver) -> None:
        self._later = later
        self._seats = seats

    @staticmethod
    def used_after_move(table: Table, seat: int) -> float | None:
        """The seconds ``seat``'s clock will have used once its move now is stored (the increment credited), or None when
        its clock does not run."""
        if table.clock is None or not table.clock_counts(seat):
            return None
        return table.seats[seat].clock_used + (time.monotonic() - table.turn_started) - float(table.clock["increment"])

    @staticmethod
    def start_turn(table: Table) -> None:
        """The seat to move starts its turn now."""
        table.turn_started = time.monotonic()

    @staticmethod
    def pause(table: Table, seat: int) -> None:
        """A computer takes ``seat``: its turn so far is on its clock."""
        if table.clock_counts(seat) and table.state.current_player == seat:
            table.seats[seat].clock_used += time.monotonic() - table.turn_started

    @staticmethod
    def resume(table: Table, seat: int) -> None:
        """Its person takes ``seat`` back: if it is to move, its turn starts now."""
        if table.state.current_player == seat:
            table.turn_started = time.monotonic()

    @staticmethod
    def run_out(table: Table, seat: int) -> bool:
        """Whether ``seat``'s clock has run out and the computer plays it to the end."""
        return table.clock is not None and table.clock["at_zero"] == "computer" and table.time_left(seat) <= 0

    @staticmethod
    def cancel(table: Table) -> None:
        """Stop the table's alarm (the server is stopping)."""
        if table.timer is not None:
            table.timer.cancel()

    def arm(self, table: Table) -> None:
        """Set the alarm for the seat to move, if its clock hands it to a computer at zero."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        mover = table.state.current_player
        if table.clock is None or table.clock["at_zero"] != "computer" or mover is None or not table.clock_counts(mover):
            return
        delay = max(0.0, table.time_left(mover))
        table.timer = asyncio.get_running_loop().call_later(delay, self._time_up, table, mover, table.state.move_number)

    def _time_up(self, table: Table, seat: int, move: int) -> None:
        """The alarm: if ``seat`` is still to move after ``move`` and a person plays it, a computer takes it."""
        table.timer = None
        if table.state.move_number != move or table.state.current_player != seat or table.computer_level(seat) is not None:
            return
        assert table.clock is not None
        log.info("game %s: %s ran out of time; a computer plays it", table.id, seat_label(seat))
        self._later(self._seats.hand_over(table, seat, str(table.clock["level"])))

"""A game's rules document as the terminal shows it: Markdown without pictures, tables that are never cut.

Rich draws a Markdown table as a table with one column per table column; when
the columns' longest words do not fit the terminal's width together, it cuts
cells short (``(dawn-heral…``). Such a table is drawn here as a list instead,
one entry a row, each cell beside its column's heading, wrapped at the
terminal's width (a table is drawn as a table when every word of it shows
whole). A picture (``![caption](file.svg)``) cannot be shown in a
terminal, so it is left out rather than shown as a line of text.
"""

from __future__ import annotations

import re
from typing import ClassVar

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Markdown, MarkdownElement, TableElement
from rich.table import Table
from rich.text import Text

#: a Markdown image, ``![caption](address)``, on a line of its own or within a paragraph
IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")


class FittingTable(TableElement):
    """A Markdown table drawn as Rich draws it when it fits the width, otherwise as a list of its rows."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = Table(box=box.SIMPLE, pad_edge=False, style="markdown.table.border", show_edge=True, collapse_padding=True)
        headings = [cell.content.copy() for cell in self.header.row.cells] if self.header and self.header.row else []
        for heading in headings:
            heading.stylize("markdown.table.header")
            table.add_column(heading)
        rows = [[cell.content for cell in row.cells] for row in self.body.rows] if self.body else []
        for row in rows:
            table.add_row(*row)
        if self._whole(console, options, table, [headings, *rows]):
            yield table
            return
        entries = Table.grid(padding=(0, 1))
        entries.add_column(no_wrap=True)
        entries.add_column(overflow="fold")
        for row in rows:
            entries.add_row("•", self._entry(headings, row))
        yield entries

    @staticmethod
    def _whole(console: Console, options: ConsoleOptions, table: Table, cells: list[list[Text]]) -> bool:
        """Whether the table, drawn at this width, shows every word of every cell whole (Rich cuts a word too long for its column)."""
        drawn = "\n".join("".join(segment.text for segment in line) for line in console.render_lines(table, options, pad=False))
        return all(word in drawn for row in cells for cell in row for word in cell.plain.split())

    @staticmethod
    def _entry(headings: list[Text], row: list[Text]) -> Text:
        """One row in a paragraph: the first cell, then each other cell after its column's heading."""
        entry = Text()
        for index, cell in enumerate(row):
            if not cell.plain.strip():
                continue
            if index == 0:
                entry.append_text(cell)
                entry.stylize("bold")
                continue
            entry.append(("; " if index > 1 and entry.plain else " — ") if entry.plain else "")
            if index < len(headings) and headings[index].plain.strip():
                entry.append_text(headings[index])
                entry.append(": ")
            entry.append_text(cell)
        return entry


class RulesMarkdown(Markdown):
    """Markdown whose tables fall back to lists when too wide (see ``FittingTable``)."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {**Markdown.elements, "table_open": FittingTable}


def rules_markdown(text: str) -> Markdown:
    """A rules or how-to-play document for the terminal: pictures left out, no table cut at the console's width."""
    return RulesMarkdown(IMAGE.sub("", text))

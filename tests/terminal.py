"""Drive the real ``astrarium`` program through a pseudo-terminal and read the screen a person sees.

:class:`Terminal` runs the command in a pseudo-terminal of a chosen size
(``pexpect``), feeds everything the program writes to a terminal emulator
(``pyte``), and waits for text with a generous timeout, never for a wall-clock
window. ``screen()`` is the screen as a person sees it at that moment;
``transcript()`` is everything written, without the terminal's control codes.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pexpect
import pyte

#: The longest wait for the program to show something, in seconds (a busy machine is slow, never wrong).
PATIENCE = 120
ASTRARIUM = str(Path(sys.executable).with_name("astrarium"))
CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|\r")


def _as_from_a_shell() -> None:
    """Start the program with Ctrl-C and Ctrl-\\ doing what they do for a command typed at a shell's prompt.

    A test run started in the background of a script inherits these signals ignored, and the program, like
    any, keeps an ignored signal ignored; a person's terminal never starts it so.
    """
    for number in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(number, signal.SIG_DFL)


class Terminal:
    """The program at a terminal of ``rows`` x ``columns``."""

    def __init__(self, args: list[str], rows: int = 24, columns: int = 80, cwd: str | Path | None = None) -> None:
        env = dict(os.environ, TERM="xterm", COLUMNS=str(columns), LINES=str(rows), PROMPT_TOOLKIT_NO_CPR="1", PAGER="less", LESS="")
        self.emulator = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.emulator)
        self.written: list[str] = []
        self.child = pexpect.spawn(
            ASTRARIUM,
            args,
            dimensions=(rows, columns),
            env=env,
            encoding="utf-8",
            timeout=PATIENCE,
            cwd=str(cwd) if cwd else None,
            preexec_fn=_as_from_a_shell,
        )

    def _take(self) -> None:
        text = (self.child.before or "") + (self.child.after if isinstance(self.child.after, str) else "")
        self.written.append(text)
        self.stream.feed(text)

    def expect(self, pattern: str) -> str:
        """Wait until the program writes ``pattern`` (a regular expression); returns what it wrote up to it, without control codes."""
        self.child.expect(pattern)
        before = self.child.before or ""
        self._take()
        return plain(before)

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def interrupt(self) -> None:
        """Ctrl-C, as a person presses it."""
        self.child.sendintr()

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self._take()
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else 128 + (self.child.signalstatus or 0)

    def leave_unsaved(self) -> int:
        """Quit at the prompt, say yes to leaving, save nothing; the program's exit status."""
        self.send("quit")
        self.expect("Leave this unfinished game")
        self.send("y")
        self.expect("Save it first")
        self.send("")
        return self.finish()

    def screen(self) -> list[str]:
        """The screen's lines as a person sees them now (trailing spaces dropped)."""
        return [line.rstrip() for line in self.emulator.display]

    def transcript(self) -> str:
        return plain("".join(self.written))

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def plain(text: str) -> str:
    """``text`` without the terminal's control codes."""
    return CONTROL.sub("", text)

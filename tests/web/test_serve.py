"""``astrarium serve --processes N``: the settings each server process is started with, the option's bounds, and the shared port."""

from __future__ import annotations

import asyncio
import gc
import socket
from pathlib import Path

import pytest

from astrarium.web.serve import COLLECTOR_THRESHOLDS, app_from_environment, listening_socket, main
from astrarium.web.settings import SETTINGS_ENV, Settings, settings_from_environment, settings_to_environment


def test_each_server_process_gets_exactly_the_settings_of_the_command_line(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "games", db_url=None, computer_workers=3, creates_per_minute=7, levels={"easy": "random"})
    again = settings_from_environment(settings_to_environment(settings))
    assert again == settings
    assert isinstance(again.data_dir, Path)


def test_settings_with_a_field_the_server_does_not_know_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown settings colour"):
        settings_from_environment('{"colour": "blue"}')
    with pytest.raises(ValueError, match="JSON object"):
        settings_from_environment("[1, 2]")


@pytest.mark.parametrize("processes", ["0", "-2", "two"])
def test_processes_must_be_a_whole_number_of_at_least_one(processes: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--processes", processes])
    assert "--processes" in capsys.readouterr().err


def test_connections_to_several_server_processes_send_without_delay() -> None:
    """The shared listening socket names TCP, so asyncio turns Nagle's algorithm off on every connection it accepts:
    without that, a position written right after its ack waited 40 ms for the client's delayed acknowledgement."""

    async def accept_one() -> tuple[int, int]:
        listener = listening_socket("127.0.0.1", 0)
        seen: asyncio.Future[tuple[int, int]] = asyncio.get_running_loop().create_future()

        class Report(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                seen.set_result((sock.proto, sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Report, sock=listener)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", listener.getsockname()[1])
            found = await asyncio.wait_for(seen, 10)
            writer.close()
        return found

    proto, nodelay = asyncio.run(accept_one())
    assert proto == socket.IPPROTO_TCP
    assert nodelay == 1


def test_a_port_that_is_taken_is_said_in_words() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit, match=f"cannot listen on 127.0.0.1:{port}"):
            listening_socket("127.0.0.1", port)


def test_a_server_process_collects_cyclic_garbage_in_larger_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of several server processes sets the collector's thresholds as it makes its app (docs/performance.md)."""
    before = gc.get_threshold()
    settings = Settings(data_dir=tmp_path / "games", db_url=None, computer_workers=1)
    monkeypatch.setenv(SETTINGS_ENV, settings_to_environment(settings))
    try:
        app_from_environment()
        assert gc.get_threshold() == COLLECTOR_THRESHOLDS
    finally:
        gc.set_threshold(*before)


def test_astrarium_serve_passes_the_connection_limit_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import astrarium.web.serve as serve_module
    from astrarium.cli import app

    started: dict[str, object] = {}
    monkeypatch.setattr(serve_module, "run", lambda *args, **kwargs: started.update(kwargs))
    result = CliRunner().invoke(app, ["serve", "--connections-per-address", "5"])
    assert result.exit_code == 0, result.output
    assert started["connections_per_address"] == 5
    refused = CliRunner().invoke(app, ["serve", "--connections-per-address", "0"])
    assert refused.exit_code == 2

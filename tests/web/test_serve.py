"""``astrarium serve --processes N``: the settings each server process is started with, and the option's bounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from astrarium.web.serve import main
from astrarium.web.settings import Settings, settings_from_environment, settings_to_environment


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

"""A game's pages and browser code are served from its own package, `games/<game>/site/`.

Board Game Arena keeps each game's rules, client and texts in the game's folder; so do we. The
template ``games/<game>/<file>`` (its rules page, ``rules.html``) and the static file
``games/<game>/<file>`` (its table client, ``table.js``) are looked up in the site folder of the
game the registry knows by that name, when they are asked for, so a game registered later (a
test's toy) is served as well. Nothing here names a game; an unknown game is "not found".
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage
from django.template import Origin
from django.template.loaders.filesystem import Loader as FilesystemLoader
from django.utils._os import safe_join

from games import registry

PREFIX = "games/"
# The rules page is a template, never a static file.
TEMPLATE_PATTERNS = ["*.html"]


def _site_file(name: str) -> Path | None:
    """`games/<game>/<file>` → the file in that game's site folder (None if it is not one)."""
    if not name.startswith(PREFIX):
        return None
    game, _, rest = name[len(PREFIX) :].partition("/")
    try:
        site = registry.get_game(game).site_dir
        return Path(safe_join(site, rest)) if rest else None
    except (KeyError, SuspiciousFileOperation):
        return None


class GameTemplates(FilesystemLoader):
    """Templates named ``games/<game>/…`` from the game's site folder."""

    def get_template_sources(self, template_name: str) -> Iterator[Origin]:
        path = _site_file(template_name)
        if path is not None:
            yield Origin(name=str(path), template_name=template_name, loader=self)


class GameStatic(BaseFinder):
    """Static files named ``games/<game>/…`` from the game's site folder (not its templates)."""

    def check(self, **kwargs: Any) -> list:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str]:
        """As Django's finders: the path, or all of them; nothing found is ``[]``."""
        find_all = find_all or bool(kwargs.get("all"))
        found = _site_file(path)
        if found is None or not found.is_file() or utils.matches_patterns(path, TEMPLATE_PATTERNS):
            return []
        return [str(found)] if find_all else str(found)

    def list(self, ignore_patterns: list[str] | None) -> Iterator[tuple[str, FileSystemStorage]]:
        for spec in registry.games():
            if not spec.site_dir.is_dir():
                continue
            storage = FileSystemStorage(location=spec.site_dir)
            storage.prefix = f"{PREFIX}{spec.name}"  # collectstatic keeps it in the path
            for path in utils.get_files(storage, [*(ignore_patterns or []), *TEMPLATE_PATTERNS]):
                yield path, storage

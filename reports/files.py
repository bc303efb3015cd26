"""Export files: one deterministic name per export, written whole or not at all."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from django.core.files.storage import default_storage

from reports.models import Export


def storage_name(export: Export) -> str:
    """The one file name an export ever has: the same on every attempt."""
    return f"exports/{export.pk:07d}-{export.kind}.{export.extension}"


def write_atomically(name: str, write: Callable[[IO[bytes]], None]) -> None:
    """Write the file `name` through `write(file)`: into a temporary file in the same folder,
    then renamed over the target, so a reader, or a second attempt of the same export, sees no
    file or the whole file, and there is only ever one."""
    path = Path(default_storage.path(name))
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as tmp:
        try:
            write(tmp)
            tmp.flush()
            os.fsync(tmp.fileno())
        except BaseException:
            os.unlink(tmp.name)
            raise
    os.chmod(tmp.name, 0o640)
    os.replace(tmp.name, path)


# A temporary file younger than this may belong to a render still writing it.
_TEMP_GRACE_SECONDS = 60 * 60


def remove_orphans(kept: set[str]) -> int:
    """Delete export files no Export row names any more (a deleted class takes its export rows
    with it, and the classroom app cannot reach into reports to remove their files). Returns how
    many files were removed."""
    folder = Path(default_storage.path("exports"))
    if not folder.is_dir():
        return 0
    removed = 0
    now = time.time()
    for path in folder.iterdir():
        name = f"exports/{path.name}"
        if not path.is_file() or name in kept:
            continue
        if path.name.startswith(".tmp-") and now - path.stat().st_mtime < _TEMP_GRACE_SECONDS:
            continue
        path.unlink(missing_ok=True)
        removed += 1
    return removed

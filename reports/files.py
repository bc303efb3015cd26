"""Export files: one deterministic name per export, written whole or not at all."""

from __future__ import annotations

import os
import tempfile
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

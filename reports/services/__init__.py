"""Every write to export rows. The row is the truth the pages show: it is saved before its task is
sent (`transaction.on_commit`), its status moves queued -> rendering -> ready | failed, and each
step is taken under the row's lock, so running a task twice, or two workers racing after a
redelivery, can neither double a file nor count a part twice.

Files have deterministic names (the export's id) and are written to a temporary file then renamed
over the target, so a render repeated after a killed worker replaces the same single file.

The whole-school ZIP fans out without a Celery chord (the site keeps no result backend): one class
export per class, each counting itself on the parent row when it finishes; the part that
completes the count queues the ZIP task (see `work._count_part`).

Modules: `requests` (what people ask for), `work` (what the workers do), `heartbeat` (a
rendering worker showing it is alive), `sweep` (handing on work a dead worker or a failed send
lost), `queue` (sending the tasks on commit). `from reports import services`.
"""

from reports.services.requests import (
    export_delete_file,
    export_request,
    export_retry,
    parameters_hash,
)
from reports.services.sweep import exports_sweep_stuck
from reports.services.work import (
    export_render,
    export_zip,
    exports_remove_orphan_files,
)

__all__ = [
    "export_delete_file",
    "export_render",
    "export_request",
    "export_retry",
    "export_zip",
    "exports_remove_orphan_files",
    "exports_sweep_stuck",
    "parameters_hash",
]

"""Tell the screens showing an export's status box that its row changed."""

from classroom import push
from reports.models import Export


def status_changed(export: Export) -> None:
    """The export's status box (and its parent's, for a part of a school ZIP) shows the new
    state as soon as the transaction that changed the row commits."""
    topics = [push.export_topic(export.pk)]
    if export.parent_id:
        topics.append(push.export_topic(export.parent_id))
    push.touch_after_commit(*topics)

"""Deep linking: the teacher picks a lesson in the LMS's "add activity" dialog; BotBench answers
with a signed resource link (pylti1p3 signs it) whose custom parameter names the activity,
and, for a Bot-Builders lesson with teach-back, a line item for the teach-back score."""

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException
from pylti1p3.lineitem import LineItem

from classroom.lti.launch import ACTIVITY_PARAM, Refusal
from classroom.lti.storage import DatabaseLaunchDataStorage
from classroom.lti.tool_config import BotBenchToolConf
from classroom.models import GameKind, LtiActivity, LtiCourse, LtiLaunchState, User, Variant

# The choices a teacher has, as (key, game, variant).
CHOICES = {
    "bot_builders_teachback": (GameKind.BOT_BUILDERS, Variant.CLASSROOM),
    "three_laws": (GameKind.THREE_LAWS, Variant.STANDARD),
}
# The line item's scale: the teach-back score is sent as a share of the rubric's maximum, so
# the LMS's column does not depend on the class's rubric version.
SCORE_MAXIMUM = 100
TEACHBACK_TAG = "botbench-teachback"


def stored_deep_link_launch(request, launch_id: str) -> DjangoMessageLaunch:
    try:
        message_launch = DjangoMessageLaunch.from_cache(
            launch_id,
            request,
            BotBenchToolConf(),
            launch_data_storage=DatabaseLaunchDataStorage(),
        )
    except LtiException:
        raise Refusal("replayed") from None
    if not message_launch.is_deep_link_launch():
        raise Refusal("wrong_message")
    return message_launch


def activity_create(*, course: LtiCourse, choice: str, title: str, by: User) -> LtiActivity:
    game, variant = CHOICES[choice]
    activity = LtiActivity(
        course=course,
        game=game,
        variant=variant,
        title=" ".join(title.split())[:120],
        created_by=by,
    )
    activity.score_maximum = SCORE_MAXIMUM if activity.has_teachback else None
    activity.full_clean()
    activity.save()
    return activity


def deep_link_answer(
    request, *, launch_id: str, course: LtiCourse, choice: str, title: str, by: User
) -> tuple[str, str]:
    """The platform's return URL and the signed JWT carrying the chosen activity. The stored
    launch is used once: a second submit finds nothing."""
    message_launch = stored_deep_link_launch(request, launch_id)
    with transaction.atomic():
        deleted, _ = LtiLaunchState.objects.filter(key=launch_id).delete()
        if not deleted:
            raise Refusal("replayed")
        activity = activity_create(course=course, choice=choice, title=title, by=by)
        resource = (
            DeepLinkResource()
            .set_url(request.build_absolute_uri(reverse("lti:launch")))
            .set_title(activity.title)
            .set_custom_params({ACTIVITY_PARAM: str(activity.key)})
        )
        if activity.has_teachback:
            resource.set_lineitem(
                LineItem()
                .set_label(gettext("%(title)s: teach-back") % {"title": activity.title})
                .set_score_maximum(SCORE_MAXIMUM)
                .set_tag(TEACHBACK_TAG)
                .set_resource_id(str(activity.key))
            )
        deep_link = message_launch.get_deep_link()
        token = deep_link.get_response_jwt([resource])
    settings = message_launch.get_launch_data()[
        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
    ]
    return settings["deep_link_return_url"], token

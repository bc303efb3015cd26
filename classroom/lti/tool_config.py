"""Where pylti1p3 finds a platform and a deployment: BotBench's own tables. Unlike django-lti's
DjangoToolConfig, an unknown deployment is refused, never created."""

from pylti1p3.deployment import Deployment
from pylti1p3.tool_config.abstract import ToolConfAbstract

from classroom.lti.keys import tool_registration
from classroom.lti.params import storable
from classroom.models import LtiDeployment, LtiPlatform


class BotBenchToolConf(ToolConfAbstract):
    platform: LtiPlatform | None = None
    deployment: LtiDeployment | None = None

    def check_iss_has_one_client(self, iss):
        return False

    def check_iss_has_many_clients(self, iss):
        return True

    def find_registration_by_issuer(self, iss, *args, **kwargs):
        return None

    def find_registration_by_params(self, iss, client_id, *args, **kwargs):
        if not storable(iss, 255) or (client_id is not None and not storable(client_id, 255)):
            return None
        lookups = {"issuer": iss, "is_active": True}
        if client_id:
            lookups["client_id"] = client_id
        platforms = list(LtiPlatform.objects.select_related("school").filter(**lookups)[:2])
        # An OIDC login without client_id is only unambiguous with one client for the issuer.
        if len(platforms) != 1:
            return None
        self.platform = platforms[0]
        return tool_registration(self.platform)

    def find_deployment(self, iss, deployment_id):
        return None

    def find_deployment_by_params(self, iss, deployment_id, client_id, *args, **kwargs):
        if not all(storable(v, 255) for v in (iss, deployment_id, client_id)):
            return None
        self.deployment = (
            LtiDeployment.objects.select_related("platform")
            .filter(
                platform__issuer=iss,
                platform__client_id=client_id,
                platform__is_active=True,
                deployment_id=deployment_id,
            )
            .first()
        )
        if self.deployment is None:
            return None
        return Deployment().set_deployment_id(deployment_id)

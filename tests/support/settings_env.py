"""The environment variables config/settings.py reads, for the deployment files' tests."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_SOURCE = (ROOT / "config" / "settings.py").read_text()


def env_names_read_by_settings() -> set[str]:
    direct = set(re.findall(r'os\.environ\.get\(\s*"([A-Z0-9_]+)"', SETTINGS_SOURCE))
    helpers = set(re.findall(r'env_(?:bool|int|float|list)\(\s*"([A-Z0-9_]+)"', SETTINGS_SOURCE))
    secrets = set(re.findall(r'env_secret\(\s*"([A-Z0-9_]+)"', SETTINGS_SOURCE))
    return direct | helpers | secrets | {f"{name}_FILE" for name in secrets}

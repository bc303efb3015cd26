"""The test platform served by uvicorn in a thread, on 127.0.0.1 and a port of its own."""

from __future__ import annotations

import threading
import time

import uvicorn

from tests.conftest import free_port

from .app import create_app
from .store import Launch, Store


class PlatformServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.store = Store()
        self.store.base_url = self.url
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> PlatformServer:
        config = uvicorn.Config(
            create_app(self.store),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the test platform did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self._server is not None:
            # A hanging score request must not hold the shutdown.
            self.store.release_hang.set()
            self._server.should_exit = True
            self._thread.join(15)
            self._server = None

    # Addresses a test (or the tool's registration form) needs.

    @property
    def issuer(self) -> str:
        return self.store.issuer

    @property
    def auth_url(self) -> str:
        return f"{self.url}/auth"

    @property
    def token_url(self) -> str:
        return f"{self.url}/token"

    @property
    def jwks_url(self) -> str:
        return f"{self.url}/.well-known/jwks.json"

    def frame_url(self, launch: Launch) -> str:
        """The platform's page that shows `launch` (in an iframe, or as a new-window link)."""
        return f"{self.url}/frame/{launch.hint}"

    def course_url(self, course, person) -> str:
        return f"{self.url}/courses/{course.id}?as={person.id}"

    def gradebook(self, course) -> dict:
        import requests

        response = requests.get(f"{self.url}/courses/{course.id}/gradebook.json", timeout=10)
        response.raise_for_status()
        return response.json()

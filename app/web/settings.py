"""Settings of the pages and the console (environment, prefix ``PAOHUZI_``)."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class WebSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAOHUZI_", env_file=".env", extra="ignore")

    #: whether a viewer who is not a signed-in operator may open a replay with every card
    #: shown (no ``?as=SEAT``). Logs are only sent once a hand has ended, so by default
    #: players may; set false to let them see a hand only from one seat.
    full_view_public: bool = True
    #: how long an operator stays signed in, in hours.
    session_hours: int = Field(default=12, ge=1, le=24 * 30)
    #: send the console cookie only over HTTPS (set true behind TLS).
    cookie_secure: bool = False


@lru_cache(maxsize=1)
def get_web_settings() -> WebSettings:
    return WebSettings()

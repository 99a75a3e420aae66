from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AnyHttpUrl, BaseModel, ConfigDict, Field, StringConstraints

from ..bounds import Text

Code = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
Ruleset = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,31}$")]
Status = Literal["clean", "violations", "invalid"]


class SubscriptionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Text = Field(min_length=1, max_length=100)
    url: AnyHttpUrl = Field(description="Where verdicts are POSTed (http or https)")
    secret: Text | None = Field(
        default=None,
        min_length=16,
        max_length=200,
        description="The HMAC-SHA256 key; made for you when left out (shown once)",
    )
    codes: list[Code] = Field(
        default=[], max_length=100, description="Only verdicts with a finding of these codes"
    )
    rulesets: list[Ruleset] = Field(default=[], max_length=20)
    statuses: list[Status] = Field(default=[], max_length=3)


class SubscriptionOut(BaseModel):
    id: int
    name: str
    url: str
    codes: list[str]
    rulesets: list[str]
    statuses: list[str]
    active: bool
    created_at: datetime


class SubscriptionCreated(SubscriptionOut):
    secret: str = Field(description="The signing secret: shown only now")


class AttemptOut(BaseModel):
    number: int
    at: datetime
    ok: bool
    status_code: int | None
    error: str | None
    duration_ms: int


class DeliveryOut(BaseModel):
    id: int
    subscription_id: int
    game_id: str
    state: Literal["pending", "delivered", "failed"]
    attempts: int
    next_attempt_at: datetime | None
    created_at: datetime
    delivered_at: datetime | None


class DeliveryDetail(DeliveryOut):
    attempts_made: list[AttemptOut]


class DeliveryPage(BaseModel):
    items: list[DeliveryOut]
    next_before: int | None = Field(description="Pass as `before` for the next page")

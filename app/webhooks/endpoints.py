"""``/webhooks``: subscriptions, their deliveries, replays (scope ``admin``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Response

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..dependencies import ReadSession, WriteSession
from ..errors import error_responses
from ..models import DeliveryState, WebhookDelivery, WebhookSubscription
from . import service
from .repository import WebhookRepository
from .schemas import (
    AttemptOut,
    DeliveryDetail,
    DeliveryOut,
    DeliveryPage,
    SubscriptionCreated,
    SubscriptionIn,
    SubscriptionOut,
)

router = APIRouter(tags=["webhooks"])
Admin = Annotated[Principal, Depends(require(Scope.ADMIN))]
RowId = Annotated[int, Path(ge=1, le=2**62)]


def _sub_out(s: WebhookSubscription) -> SubscriptionOut:
    return SubscriptionOut(
        id=s.id,
        name=s.name,
        url=s.url,
        codes=s.codes,
        rulesets=s.rulesets,
        statuses=s.statuses,
        active=s.active,
        created_at=s.created_at,
    )


def _delivery_out(d: WebhookDelivery) -> DeliveryOut:
    return DeliveryOut.model_validate(
        {
            "id": d.id,
            "subscription_id": d.subscription_id,
            "game_id": d.game_id,
            "state": d.state,
            "attempts": d.attempts,
            "next_attempt_at": d.next_attempt_at,
            "created_at": d.created_at,
            "delivered_at": d.delivered_at,
        }
    )


def _detail(session: ReadSession, d: WebhookDelivery) -> DeliveryDetail:
    attempts = [
        AttemptOut(
            number=a.number,
            at=a.at,
            ok=a.ok,
            status_code=a.status_code,
            error=a.error,
            duration_ms=a.duration_ms,
        )
        for a in WebhookRepository(session).attempts(d.id)
    ]
    return DeliveryDetail(**_delivery_out(d).model_dump(), attempts_made=attempts)


@router.post(
    "/webhooks",
    status_code=201,
    response_model=SubscriptionCreated,
    summary="Subscribe a URL to verified verdicts (filters: finding codes, rulesets, statuses)",
    responses=error_responses(401, 403, 422),
)
def create_subscription(
    body: SubscriptionIn, _: Admin, session: WriteSession
) -> SubscriptionCreated:
    sub = service.create_subscription(
        session,
        name=body.name,
        url=str(body.url),
        secret=body.secret,
        codes=body.codes,
        rulesets=body.rulesets,
        statuses=body.statuses,
    )
    return SubscriptionCreated(**_sub_out(sub).model_dump(), secret=sub.secret)


@router.get(
    "/webhooks",
    response_model=list[SubscriptionOut],
    summary="Every subscription",
    responses=error_responses(401, 403),
)
def list_subscriptions(_: Admin, session: ReadSession) -> list[SubscriptionOut]:
    return [_sub_out(s) for s in WebhookRepository(session).subscriptions()]


@router.get(
    "/webhooks/deliveries/{delivery_id}",
    response_model=DeliveryDetail,
    summary="One delivery with every attempt",
    responses=error_responses(401, 403, 404, 422),
)
def get_delivery(delivery_id: RowId, _: Admin, session: ReadSession) -> DeliveryDetail:
    return _detail(session, service.get_delivery(session, delivery_id))


@router.post(
    "/webhooks/deliveries/{delivery_id}/replay",
    status_code=202,
    response_model=DeliveryDetail,
    summary="Send a failed or delivered delivery again (a new round of attempts)",
    responses=error_responses(401, 403, 404, 409, 422),
)
def replay_delivery(delivery_id: RowId, _: Admin, session: WriteSession) -> DeliveryDetail:
    return _detail(session, service.replay(session, delivery_id))


@router.get(
    "/webhooks/{subscription_id}",
    response_model=SubscriptionOut,
    summary="One subscription",
    responses=error_responses(401, 403, 404, 422),
)
def get_subscription(subscription_id: RowId, _: Admin, session: ReadSession) -> SubscriptionOut:
    return _sub_out(service.get_subscription(session, subscription_id))


@router.delete(
    "/webhooks/{subscription_id}",
    status_code=204,
    response_class=Response,
    summary="Remove a subscription and its deliveries",
    responses=error_responses(401, 403, 404, 422),
)
def delete_subscription(subscription_id: RowId, _: Admin, session: WriteSession) -> Response:
    repo = WebhookRepository(session)
    repo.delete_subscription(service.get_subscription(session, subscription_id))
    return Response(status_code=204)


@router.get(
    "/webhooks/{subscription_id}/deliveries",
    response_model=DeliveryPage,
    summary="A subscription's deliveries, newest first (filter by state: failed ones to replay)",
    responses=error_responses(401, 403, 404, 422),
)
def list_deliveries(
    subscription_id: RowId,
    _: Admin,
    session: ReadSession,
    state: Annotated[DeliveryState | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
) -> DeliveryPage:
    service.get_subscription(session, subscription_id)
    items = WebhookRepository(session).deliveries(subscription_id, state, limit, before)
    return DeliveryPage(
        items=[_delivery_out(d) for d in items],
        next_before=items[-1].id if len(items) == limit else None,
    )

"""Every table, for Alembic's autogenerate and for the repositories."""

from .api_key import ApiKey
from .base import Base
from .decision import DecisionRow
from .finding import FindingRow
from .hand_log import HandLog, LogPlayer
from .verdict import VerdictRow, VerdictStatus
from .webhook import DeliveryState, WebhookAttempt, WebhookDelivery, WebhookSubscription

__all__ = [
    "ApiKey",
    "Base",
    "DecisionRow",
    "DeliveryState",
    "FindingRow",
    "HandLog",
    "LogPlayer",
    "VerdictRow",
    "VerdictStatus",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookSubscription",
]

"""Every table, for Alembic's autogenerate and for the repositories."""

from .api_key import ApiKey
from .base import Base
from .case import Case, CaseEvent, CaseEvidence, CaseReport
from .decision import DecisionCount
from .fairplay import FairplayFeatures, FairplayPair, FairplayPlayer, FairplayScan
from .finding import FindingRow
from .hand_log import HandLog, LogPlayer
from .operator import Operator
from .player_case import PlayerCase, PlayerCaseEvent
from .security import AppSecret, OperatorSession, SignInThrottle
from .verdict import VerdictRow, VerdictStatus
from .webhook import DeliveryState, WebhookAttempt, WebhookDelivery, WebhookSubscription

__all__ = [
    "ApiKey",
    "AppSecret",
    "Base",
    "Case",
    "CaseEvent",
    "CaseEvidence",
    "CaseReport",
    "DecisionCount",
    "DeliveryState",
    "FairplayFeatures",
    "FairplayPair",
    "FairplayPlayer",
    "FairplayScan",
    "FindingRow",
    "HandLog",
    "LogPlayer",
    "Operator",
    "OperatorSession",
    "PlayerCase",
    "PlayerCaseEvent",
    "SignInThrottle",
    "VerdictRow",
    "VerdictStatus",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookSubscription",
]

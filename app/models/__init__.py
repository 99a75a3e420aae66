"""Every table, for Alembic's autogenerate and for the repositories."""

from .api_key import ApiKey
from .base import Base
from .decision import DecisionRow
from .fairplay import FairplayFeatures, FairplayPair, FairplayPlayer, FairplayScan
from .finding import FindingRow
from .hand_log import HandLog, LogPlayer
from .verdict import VerdictRow, VerdictStatus

__all__ = [
    "ApiKey",
    "Base",
    "DecisionRow",
    "FairplayFeatures",
    "FairplayPair",
    "FairplayPlayer",
    "FairplayScan",
    "FindingRow",
    "HandLog",
    "LogPlayer",
    "VerdictRow",
    "VerdictStatus",
]

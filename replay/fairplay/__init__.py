"""Fair-play analytics: colluding pairs and all-seeing players across many hands.

Pure, standard library only, never imports ``app``. ``features.extract(log)`` reads
what the detectors need from one hand in one replay pass; ``rank.scan`` runs every
detector over many hands' features and ranks suspicious pairs and players with the
hands and steps that carry the evidence. One module per statistic: ``feed`` (feed
matrix), ``wait`` (feeding the wait), ``flow`` (point flow, permutation null),
``passes`` (passed claims favouring a partner), ``quality`` (decision quality with
hidden information), ``coplay`` (co-play lift). See docs/fairplay.md.
"""

from .features import FEATURES_VERSION, HandFeatures, extract
from .rank import Report, scan

__all__ = ["FEATURES_VERSION", "HandFeatures", "Report", "extract", "scan"]

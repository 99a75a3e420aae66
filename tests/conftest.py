import sys
from pathlib import Path

# tests/builder.py is imported as a plain module by the rule tests.
sys.path.insert(0, str(Path(__file__).parent))

import json
import os
import sys
from pathlib import Path

import pytest

LAB_D = Path(__file__).resolve().parent.parent
REPOSITORY = LAB_D.parent.parent
sys.path.insert(0, str(LAB_D))


@pytest.fixture
def committed():
    """A committed run's results.json, by folder name under bench/results/."""
    def load(name):
        return json.loads((REPOSITORY / "bench" / "results" / name / "results.json").read_text())
    return load

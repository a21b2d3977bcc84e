"""Shared fixtures: where the project and the offline mirror are."""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def find_mirror() -> Path | None:
    """REAGREE_MIRROR, else ../shared/mirror beside the checkout (CI always has it)."""
    candidates = [os.environ.get("REAGREE_MIRROR"), ROOT.parent / "shared" / "mirror"]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate).resolve()
    return None


@pytest.fixture(scope="session")
def mirror() -> Path:
    found = find_mirror()
    if found is None:
        pytest.skip("no offline mirror of the papers' data: set REAGREE_MIRROR=/path/to/mirror "
                    "or put the shared/ folder (with mirror/) beside this checkout to run the end-to-end tests")
    return found

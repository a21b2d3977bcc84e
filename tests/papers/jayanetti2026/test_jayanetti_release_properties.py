"""Property test of jayanetti2026's release reader (jayanetti2026.release): on generated
tables in the released file's layout, the majority columns are read as written."""

import tempfile
from pathlib import Path

import pandas as pd
from hypothesis import HealthCheck, given, settings, strategies as st

from jayanetti2026 import release

SETTINGS = settings(
    max_examples=100, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@settings(SETTINGS, max_examples=30)
@given(data=st.data())
def test_released_majority_is_read_as_released(data):
    """The ``released`` tie rule scores against the release's own majority columns: what
    ``read_release`` gives for them is exactly the file's cells (normalised), tie or not."""
    n_units = data.draw(st.integers(1, 12))
    columns = {}
    for framing, (suffix, categories, _) in release.FRAMINGS.items():
        for column in [*release.RATERS.values(), release.MAJORITY_COLUMN]:
            cells = data.draw(st.lists(st.sampled_from(categories), min_size=n_units, max_size=n_units))
            # the reader strips and lower-cases; write some cells in the release's other spellings
            columns[column + suffix] = [data.draw(st.sampled_from([c, c.upper(), f" {c}"])) for c in cells]
    columns[release.TEXT] = [f"tweet {i}" for i in range(n_units)]
    columns[release.TRANSLATED] = [f"tweet {i}" for i in range(n_units)]
    columns[release.URL] = [f"https://twitter.com/u/status/{1000 + i}" for i in range(n_units)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "majorityvote.tsv"
        pd.DataFrame(columns).to_csv(path, sep="\t", index=False)
        read = release.read_release(path)
    for framing, (suffix, _, _) in release.FRAMINGS.items():
        written = [c.strip().lower() for c in columns[release.MAJORITY_COLUMN + suffix]]
        assert read.ratings[framing].labels()[release.MAJORITY].tolist() == written, framing

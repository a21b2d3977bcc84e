"""When a tweet was posted, read from its id.

What this module decides:

- **Snowflake ids.** Since 4 November 2010 every tweet id is a 64-bit "snowflake": the
  bits above the lowest 22 count milliseconds since Twitter's epoch, 1288834974657 ms
  after the Unix epoch (2010-11-04T01:42:54.657Z; twitter-archive/snowflake,
  ``IdWorker.scala``); the low 22 bits are worker and sequence numbers. So
  ``(id >> 22) + 1288834974657`` is the id's creation time in Unix milliseconds (UTC).
- **Older ids carry no time.** Ids issued before the scheme were sequential and below
  about 3e10; read as snowflakes they would all land within seconds of the epoch. An id
  under 10**13 (14 digits; under 2.4 seconds after the epoch) is refused, naming it, and
  so is anything that is not a non-negative decimal integer: ids stay text
  (``reagree.io.annotations``) and are parsed here exactly, never through a float.
- **Months.** A posting period is printed by month ("Oct. 2013 - Aug. 2014"), so a month
  is written as the integer ``YYYYMM`` (201310), which a claim compares exactly (its
  printed precision is 0.5). ``posting_months`` gives the first and the last month of a
  set of ids, in UTC.
"""

from __future__ import annotations

import re
from typing import Iterable

import numpy as np

TWITTER_EPOCH_MS = 1288834974657
TIMESTAMP_SHIFT = 22
SMALLEST_SNOWFLAKE = 10**13
_DIGITS = re.compile(r"[0-9]+")

__all__ = ["created_at", "month_number", "posting_months"]


def created_at(ids: Iterable[object]) -> np.ndarray:
    """Creation times (``datetime64[ms]``, UTC) of tweet ids given as text or integers;
    ValueError naming the first id that is not a snowflake id."""
    millis = []
    for tweet_id in ids:
        text = str(tweet_id).strip()
        if not _DIGITS.fullmatch(text):
            raise ValueError(f"tweet id {tweet_id!r} is not a decimal integer")
        number = int(text)
        if number < SMALLEST_SNOWFLAKE:
            raise ValueError(
                f"tweet id {text} is older than Twitter's snowflake ids (November 2010) and carries no time"
            )
        if number >= 2**63:
            raise ValueError(f"tweet id {text} is larger than a 63-bit snowflake id")
        millis.append((number >> TIMESTAMP_SHIFT) + TWITTER_EPOCH_MS)
    return np.asarray(millis, dtype="int64").astype("datetime64[ms]")


def month_number(times: np.ndarray) -> np.ndarray:
    """``YYYYMM`` integers of ``datetime64`` times (UTC)."""
    months = np.asarray(times).astype("datetime64[M]").astype("int64")  # months since 1970-01
    return (1970 + months // 12) * 100 + months % 12 + 1


def posting_months(ids: Iterable[object]) -> tuple[int, int]:
    """The first and the last month (``YYYYMM``) in which the tweets ``ids`` were posted;
    ValueError for no ids."""
    times = created_at(ids)
    if times.size == 0:
        raise ValueError("no tweet ids to date")
    first, last = month_number(np.array([times.min(), times.max()]))
    return int(first), int(last)

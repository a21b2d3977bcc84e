"""Tweet ids dated by their snowflake bits (reagree.methods.snowflake), against published
id/time pairs."""

import numpy as np
import pytest

from reagree.methods.snowflake import created_at, month_number, posting_months


def test_published_ids_give_their_published_times():
    # twitter-snowflake-to-date (npm) README: "1233161576649121792" -> Date(2020-02-27T22:46:45.564Z)
    # Twitter API v1.1 Tweet object example: id 1050118621198921728, "created_at": "Wed Oct 10 20:19:24 +0000 2018"
    times = created_at(["1233161576649121792", 1050118621198921728])
    assert times[0] == np.datetime64("2020-02-27T22:46:45.564")
    assert times[1].astype("datetime64[s]") == np.datetime64("2018-10-10T20:19:24")


def test_the_epoch_and_the_shift_by_hand():
    # time bits 2,400,000 ms after the epoch, worker and sequence bits all set: the low bits never count
    tweet_id = (2_400_000 << 22) | (2**22 - 1)
    assert created_at([tweet_id])[0] == np.datetime64(1288834974657 + 2_400_000, "ms")


def test_months_are_written_yyyymm():
    times = np.array(["2013-10-28T12:35", "2014-08-22T13:41", "1999-12-31T23:59"], dtype="datetime64[ms]")
    assert month_number(times).tolist() == [201310, 201408, 199912]
    assert posting_months(["1233161576649121792", "1050118621198921728"]) == (201810, 202002)


@pytest.mark.parametrize(
    "bad, message",
    [
        ("20", "older than Twitter's snowflake ids"),
        ("1.68E+18", "not a decimal integer"),
        ("", "not a decimal integer"),
        (str(2**63), "larger than a 63-bit"),
    ],
)
def test_ids_that_carry_no_time_are_refused_by_name(bad, message):
    with pytest.raises(ValueError, match=message):
        created_at([bad])


def test_no_ids_no_period():
    with pytest.raises(ValueError, match="no tweet ids"):
        posting_months([])

"""A table's event reaches every receiver even when one fails; the failure is logged with its
traceback (gameplay.signals.announce, used for match_finished and turn_due)."""

from __future__ import annotations

import logging

from django.dispatch import Signal

from gameplay.signals import announce


def test_a_failing_receiver_is_logged_and_the_others_still_hear(caplog):
    signal = Signal()
    heard: list[dict] = []

    def broken(sender, **kwargs):
        raise RuntimeError("a receiver's bug")

    def listening(sender, **kwargs):
        heard.append(kwargs)

    signal.connect(broken, weak=False)
    signal.connect(listening, weak=False)
    with caplog.at_level(logging.ERROR, logger="gameplay.signals"):
        announce(signal, "turn_due", "t1", user_id=7)
    assert heard and heard[0]["table_ref"] == "t1" and heard[0]["user_id"] == 7
    [record] = [r for r in caplog.records if r.name == "gameplay.signals"]
    assert "turn_due receiver" in record.getMessage() and "t1" in record.getMessage()
    assert record.exc_info and record.exc_info[0] is RuntimeError

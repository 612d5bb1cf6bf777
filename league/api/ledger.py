"""`GET /api/events/<slug>/ledger/`: the event's ledger in JSON, what `ledger.csv` holds.

The zero-sum payouts of every counting result, one row per seat per deal, in round, table, deal
and seat order (`league.services.ledger.ledger_rows`, the CSV's and the ledger page's rows),
paginated like every API list. Readable by whoever may read the CSV: anyone who may see the
event (a draft: its organizers); a duplicate section still being played is left out as there.
Deals count from 0 here, as records and the round's deals do (the CSV counts from 1 for people).
A fixed number of queries: the event, the count and the page (and, in a duplicate event,
whether the reader organizes and plays).
"""

from __future__ import annotations

from django.db.models import QuerySet
from rest_framework import generics, serializers

from league.api.views import EventScopedMixin
from league.models import LedgerEntry
from league.services.ledger import ledger_rows, withheld_from


class LedgerRowSerializer(serializers.Serializer):
    """One seat's score and payout in one deal of a counting result (the CSV's columns, and
    the fixture's id)."""

    round = serializers.IntegerField(source="round__number")
    table = serializers.IntegerField(source="fixture__number")
    fixture_id = serializers.IntegerField()
    deal = serializers.IntegerField(help_text="the deal of the match, from 0")
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    player = serializers.CharField(source="player__name")
    score = serializers.IntegerField()
    payout = serializers.IntegerField(help_text="zero-sum over the deal's seats")


class EventLedger(EventScopedMixin, generics.ListAPIView):
    """The event's ledger: every seat's score and payout in every deal of its counting
    results, in round, table, deal and seat order (as `ledger.csv`, deals from 0)."""

    serializer_class = LedgerRowSerializer

    def get_queryset(self) -> QuerySet[LedgerEntry]:
        if self.fake():
            return LedgerEntry.objects.none()
        event = self.readable_event()
        return ledger_rows(event, withheld=withheld_from(self.request.user, event))

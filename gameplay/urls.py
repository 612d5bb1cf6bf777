"""HTTP routes of the gameplay app."""

from django.urls import path

from gameplay import (
    converters,  # noqa: F401  (registers <table_id:...>)
    lobby_views,
    meeting_views,
    play_now,
    rematch_views,
    replay_views,
    rules_views,
    summary_views,
    turn_views,
    views,
)

app_name = "gameplay"

urlpatterns = [
    path("play/now/", play_now.play_now, name="play-now"),
    path("tables/<table_id:table_id>/", views.table, name="table"),
    path("tables/<table_id:table_id>/record.json", views.table_record, name="table_record"),
    path("tables/<table_id:table_id>/replay/", replay_views.table_replay, name="replay"),
    path(
        "tables/<table_id:table_id>/analysis.json",
        replay_views.table_analysis,
        name="table_analysis",
    ),
    path(
        "tables/<table_id:table_id>/replay.json",
        replay_views.table_replay_json,
        name="replay_json",
    ),
    # A finished deal's summary (gameplay/summary_views.py, docs/tables.md "End of a deal").
    path(
        "tables/<table_id:table_id>/summary.json",
        summary_views.deal_summary,
        name="deal_summary",
    ),
    # The lobby's pages (gameplay/lobby_views.py, docs/lobby.md).
    path("play/", lobby_views.play, name="play"),
    # Meeting people: seeks and challenges (gameplay/meeting_views.py, docs/lobby.md).
    path("play/seek/", meeting_views.seek, name="seek"),
    path("play/seek/<table_id:seek_id>/cancel/", meeting_views.cancel_seek, name="seek-cancel"),
    path("play/challenge/", meeting_views.challenge, name="challenge"),
    path(
        "play/challenges/<table_id:challenge_id>/<str:action>/",
        meeting_views.answer,
        name="challenge-answer",
    ),
    path("tables/<table_id:table_id>/join/", lobby_views.join, name="join"),
    path("tables/<table_id:table_id>/leave/", lobby_views.leave, name="leave"),
    path("tables/<table_id:table_id>/rematch/", lobby_views.rematch, name="rematch"),
    path("tables/<table_id:table_id>/decline/", rematch_views.decline, name="decline"),
    path("games/", lobby_views.my_games, name="my-games"),
    # Turn-based play (gameplay/turn_views.py, docs/tables.md "Turn-based tables").
    path(
        "tables/<table_id:table_id>/claim-timeout/",
        turn_views.claim_timeout,
        name="claim-timeout",
    ),
    path("play/vacation/", turn_views.vacation_view, name="vacation"),
    # How to play: the games, and each game's rules page (gameplay/rules_views.py).
    path("rules/", rules_views.rules_index, name="rules-index"),
    path("games/<slug:game>/", rules_views.rules_page, name="rules"),
]

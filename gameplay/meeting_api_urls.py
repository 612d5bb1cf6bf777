"""/api/seeks/… and /api/challenges/… (gameplay/meeting_api.py); config/urls.py mounts them
before the league's /api/ routes."""

from django.urls import path

from gameplay import (
    converters,  # noqa: F401  (registers <table_id:...>, whose alphabet seek ids share)
    meeting_api,
)

app_name = "meeting-api"

urlpatterns = [
    path("seeks/", meeting_api.SeekList.as_view(), name="seeks"),
    path("seeks/<table_id:seek_id>/", meeting_api.SeekDetail.as_view(), name="seek"),
    path("challenges/", meeting_api.ChallengeList.as_view(), name="challenges"),
    path(
        "challenges/<table_id:challenge_id>/",
        meeting_api.ChallengeDetail.as_view(),
        name="challenge",
    ),
    path(
        "challenges/<table_id:challenge_id>/accept/",
        meeting_api.ChallengeAccept.as_view(),
        name="accept",
    ),
    path(
        "challenges/<table_id:challenge_id>/decline/",
        meeting_api.ChallengeDecline.as_view(),
        name="decline",
    ),
]

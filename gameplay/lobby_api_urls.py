"""/api/tables/…: the lobby's HTTP API (lobby-api.md); config/urls.py mounts it before the
league's /api/ routes."""

from django.urls import path

from gameplay import (
    converters,  # noqa: F401  (registers <table_id:...>)
    lobby_api,
    rematch_api,
)

app_name = "tables-api"

urlpatterns = [
    path("", lobby_api.TableList.as_view(), name="tables"),
    # Before <table_id>: "offers" is no table's id (ids are hex).
    path("offers/", rematch_api.RematchOffers.as_view(), name="offers"),
    path("<table_id:table_id>/", lobby_api.TableDetail.as_view(), name="table"),
    path("<table_id:table_id>/join/", lobby_api.TableJoin.as_view(), name="join"),
    path("<table_id:table_id>/leave/", lobby_api.TableLeave.as_view(), name="leave"),
    path(
        "<table_id:table_id>/claim-timeout/",
        lobby_api.TableClaimTimeout.as_view(),
        name="claim-timeout",
    ),
    path("<table_id:table_id>/rematch/", rematch_api.TableRematch.as_view(), name="rematch"),
    path("<table_id:table_id>/decline/", rematch_api.TableDecline.as_view(), name="decline"),
]

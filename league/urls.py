from django.urls import path

from league import (
    views,
    views_duplicate,
    views_help,
    views_import,
    views_ledger,
    views_notices,
    views_organizer,
    views_people,
    views_print,
    views_ratings,
    views_registration,
    views_results,
    views_schedule,
)
from league.profile import views as profile_views

app_name = "league"

urlpatterns = [
    path("events/", views.event_list, name="events"),
    path("events/new/", views_organizer.event_create, name="event_create"),
    path("events/<slug:slug>/", views.event_detail, name="event"),
    path("events/<slug:slug>/edit/", views_organizer.event_edit, name="event_edit"),
    path("events/<slug:slug>/publish/", views_organizer.event_publish, name="event_publish"),
    path("events/<slug:slug>/close/", views_organizer.event_close, name="event_close"),
    path("events/<slug:slug>/entries/", views_organizer.entries, name="entries"),
    # the people of an event (docs/league.md, "Roles", "Registration", "Entries")
    path("events/<slug:slug>/delete/", views_people.event_delete, name="event_delete"),
    path("events/<slug:slug>/organizers/", views_people.organizers, name="organizers"),
    path(
        "events/<slug:slug>/organizers/<int:user_id>/remove/",
        views_people.organizer_remove,
        name="organizer_remove",
    ),
    path("events/<slug:slug>/registration/", views_people.registration_page, name="registration"),
    path(
        "events/<slug:slug>/registration/invitation/",
        views_people.invitation,
        name="invitation",
    ),
    path(
        "events/<slug:slug>/registration/check-in/",
        views_people.check_in_window,
        name="check_in_window",
    ),
    path(
        "events/<slug:slug>/entries/import/",
        views_import.entries_import,
        name="entries_import",
    ),
    path("events/<slug:slug>/signup/", views_registration.signup, name="signup"),
    path("events/<slug:slug>/signup/leave/", views_registration.leave, name="signup_leave"),
    path(
        "events/<slug:slug>/signup/check-in/",
        views_registration.check_in,
        name="signup_check_in",
    ),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/",
        views_organizer.entry_action,
        name="entry_action",
    ),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/claim/",
        views_organizer.claim_invite,
        name="claim_invite",
    ),
    path("events/<slug:slug>/rounds/new/", views_organizer.round_generate, name="round_generate"),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    # paper for play over the table: one score sheet per table (docs/league.md, "Printing")
    path(
        "events/<slug:slug>/rounds/<int:number>/sheets/",
        views_print.round_sheets,
        name="round_sheets",
    ),
    # duplicate events: a draft round's sections, their deal sets; the printable hand records
    path(
        "events/<slug:slug>/rounds/<int:number>/sections/",
        views_organizer.round_sections,
        name="round_sections",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/sections/<int:section>/deals/",
        views_organizer.section_deals,
        name="section_deals",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/hands/",
        views_print.round_hands,
        name="round_hands",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/action/",
        views_organizer.round_action,
        name="round_action",
    ),
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/result/",
        views_results.result_enter,
        name="result",
    ),
    # score grids: the live check as it is typed; results from the table (docs/league.md)
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/result/check/",
        views_results.result_check,
        name="result_check",
    ),
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/submit/",
        views_results.table_submit,
        name="table_submit",
    ),
    path(
        "events/<slug:slug>/submissions/<int:submission_id>/",
        views_results.submission_action,
        name="submission_action",
    ),
    # the schedule: a fixture's page (asynchronous events: propose, accept, open), a round's times
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/",
        views_schedule.fixture_detail,
        name="fixture",
    ),
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/action/",
        views_schedule.fixture_action,
        name="fixture_action",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/schedule/",
        views_schedule.round_schedule,
        name="round_schedule",
    ),
    # duplicate events: a deal's travellers, the round's as CSV (docs/league.md, "Travellers")
    path(
        "events/<slug:slug>/rounds/<int:number>/deals/<int:deal>/",
        views_duplicate.traveller,
        name="traveller",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/travellers.csv",
        views_duplicate.travellers_csv,
        name="travellers_csv",
    ),
    path("events/<slug:slug>/standings/", views.standings, name="standings"),
    path("events/<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/ledger.csv", views.ledger_csv, name="ledger_csv"),
    # the ledger as a page, and how the standings work (docs/league.md, "Ledger", "Help")
    path("events/<slug:slug>/ledger/", views_ledger.ledger, name="ledger"),
    path("events/<slug:slug>/help/", views_help.event_help, name="event_help"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    path("players/<int:player_id>/report/", profile_views.report_player, name="report"),
    path("notices/", views_notices.notice_list, name="notices"),
    path("notices/read-all/", views_notices.notice_read_all, name="notices_read_all"),
    path("notices/settings/", views_notices.notice_settings, name="notice_settings"),
    path("notices/unsubscribe/", views_notices.unsubscribe, name="unsubscribe"),
    path("notices/<int:notice_id>/", views_notices.notice_open, name="notice_open"),
    path("notices/<int:notice_id>/read/", views_notices.notice_read, name="notice_read"),
    path("ratings/", views_ratings.ratings_index, name="ratings_index"),
    path("ratings/<str:game>/", views_ratings.ratings_leaderboard, name="ratings"),
]

from django.urls import path

from league.pages import (
    bracket,
    entries_import,
    event_help,
    event_ledger,
    events,
    fixtures,
    leaderboards,
    notices,
    organizer,
    people,
    printing,
    push,
    result_entry,
    signup,
    travellers,
)
from league.profile import views as profile_views

app_name = "league"

urlpatterns = [
    path("events/", events.event_list, name="events"),
    path("events/new/", organizer.event_create, name="event_create"),
    path("events/<slug:slug>/", events.event_detail, name="event"),
    path("events/<slug:slug>/edit/", organizer.event_edit, name="event_edit"),
    path("events/<slug:slug>/publish/", organizer.event_publish, name="event_publish"),
    path("events/<slug:slug>/close/", organizer.event_close, name="event_close"),
    path("events/<slug:slug>/entries/", organizer.entries, name="entries"),
    # the people of an event (docs/league.md, "Roles", "Registration", "Entries")
    path("events/<slug:slug>/delete/", people.event_delete, name="event_delete"),
    path("events/<slug:slug>/organizers/", people.organizers, name="organizers"),
    path(
        "events/<slug:slug>/organizers/<int:user_id>/remove/",
        people.organizer_remove,
        name="organizer_remove",
    ),
    path("events/<slug:slug>/registration/", people.registration_page, name="registration"),
    path(
        "events/<slug:slug>/registration/invitation/",
        people.invitation,
        name="invitation",
    ),
    path(
        "events/<slug:slug>/registration/check-in/",
        people.check_in_window,
        name="check_in_window",
    ),
    path(
        "events/<slug:slug>/entries/import/",
        entries_import.entries_import,
        name="entries_import",
    ),
    path("events/<slug:slug>/signup/", signup.signup, name="signup"),
    path("events/<slug:slug>/signup/leave/", signup.leave, name="signup_leave"),
    path(
        "events/<slug:slug>/signup/check-in/",
        signup.check_in,
        name="signup_check_in",
    ),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/",
        organizer.entry_action,
        name="entry_action",
    ),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/claim/",
        organizer.claim_invite,
        name="claim_invite",
    ),
    path("events/<slug:slug>/rounds/new/", organizer.round_generate, name="round_generate"),
    path("events/<slug:slug>/rounds/<int:number>/", events.round_detail, name="round"),
    path("events/<slug:slug>/bracket/", bracket.bracket_page, name="bracket"),
    # paper for play over the table: one score sheet per table (docs/league.md, "Printing")
    path(
        "events/<slug:slug>/rounds/<int:number>/sheets/",
        printing.round_sheets,
        name="round_sheets",
    ),
    # duplicate events: a draft round's sections, their deal sets; the printable hand records
    path(
        "events/<slug:slug>/rounds/<int:number>/sections/",
        organizer.round_sections,
        name="round_sections",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/sections/<int:section>/deals/",
        organizer.section_deals,
        name="section_deals",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/hands/",
        printing.round_hands,
        name="round_hands",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/action/",
        organizer.round_action,
        name="round_action",
    ),
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/result/",
        result_entry.result_enter,
        name="result",
    ),
    # score grids: the live check as it is typed; results from the table (docs/league.md)
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/result/check/",
        result_entry.result_check,
        name="result_check",
    ),
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/submit/",
        result_entry.table_submit,
        name="table_submit",
    ),
    path(
        "events/<slug:slug>/submissions/<int:submission_id>/",
        result_entry.submission_action,
        name="submission_action",
    ),
    # the schedule: a fixture's page (asynchronous events: propose, accept, open), a round's times
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/",
        fixtures.fixture_detail,
        name="fixture",
    ),
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/action/",
        fixtures.fixture_action,
        name="fixture_action",
    ),
    # absences (docs/league.md "Absences"): mark seats absent, or take a no-show's back
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/absent/",
        fixtures.fixture_absent,
        name="fixture_absent",
    ),
    path(
        "events/<slug:slug>/tables/<int:fixture_id>/absent/undo/",
        fixtures.fixture_absent_undo,
        name="fixture_absent_undo",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/schedule/",
        fixtures.round_schedule,
        name="round_schedule",
    ),
    # duplicate events: a deal's travellers, the round's as CSV (docs/league.md, "Travellers")
    path(
        "events/<slug:slug>/rounds/<int:number>/deals/<int:deal>/",
        travellers.traveller,
        name="traveller",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/travellers.csv",
        travellers.travellers_csv,
        name="travellers_csv",
    ),
    path("events/<slug:slug>/standings/", events.standings, name="standings"),
    path("events/<slug:slug>/standings.csv", events.standings_csv, name="standings_csv"),
    path("events/<slug:slug>/ledger.csv", events.ledger_csv, name="ledger_csv"),
    # the ledger as a page, and how the standings work (docs/league.md, "Ledger", "Help")
    path("events/<slug:slug>/ledger/", event_ledger.ledger, name="ledger"),
    path("events/<slug:slug>/help/", event_help.event_help, name="event_help"),
    path("players/<int:player_id>/", events.player_detail, name="player"),
    path("players/<int:player_id>/report/", profile_views.report_player, name="report"),
    path("notices/", notices.notice_list, name="notices"),
    path("notices/read-all/", notices.notice_read_all, name="notices_read_all"),
    path("notices/settings/", profile_views.notice_settings, name="notice_settings"),
    path("notices/unsubscribe/", notices.unsubscribe, name="unsubscribe"),
    path("notices/push/subscribe/", push.push_subscribe, name="push_subscribe"),
    path("notices/push/unsubscribe/", push.push_unsubscribe, name="push_unsubscribe"),
    path("notices/<int:notice_id>/", notices.notice_open, name="notice_open"),
    path("notices/<int:notice_id>/read/", notices.notice_read, name="notice_read"),
    path("ratings/", leaderboards.ratings_index, name="ratings_index"),
    path("ratings/<str:game>/", leaderboards.ratings_leaderboard, name="ratings"),
]

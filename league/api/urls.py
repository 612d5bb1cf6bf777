"""/api/…: events and everything under them, players. See the schema at /api/schema/."""

from django.urls import path

from league.api import absences, ledger, people, ratings, round_deals, schedule, views

app_name = "league-api"

EVENT = "events/<slug:slug>/"

urlpatterns = [
    path("events/", views.EventList.as_view(), name="events"),
    path(EVENT, views.EventDetail.as_view(), name="event"),
    path(f"{EVENT}publish/", views.EventPublish.as_view(), name="event-publish"),
    path(f"{EVENT}close/", views.EventClose.as_view(), name="event-close"),
    path(f"{EVENT}entries/", views.EntryList.as_view(), name="entries"),
    # the people of an event (league/api/people.py)
    path(f"{EVENT}entries/import/", people.EntryImport.as_view(), name="entries-import"),
    path(f"{EVENT}entries/<int:entry_id>/", people.EntryDetail.as_view(), name="entry"),
    path(
        f"{EVENT}entries/<int:entry_id>/reinstate/",
        people.EntryReinstate.as_view(),
        name="entry-reinstate",
    ),
    path(
        f"{EVENT}entries/<int:entry_id>/claim-invitation/",
        people.EntryClaimInvitation.as_view(),
        name="entry-claim-invitation",
    ),
    path(f"{EVENT}organizers/", people.OrganizerList.as_view(), name="organizers"),
    path(f"{EVENT}organizers/<int:user_id>/", people.OrganizerDetail.as_view(), name="organizer"),
    path(f"{EVENT}registration/", people.Registration.as_view(), name="registration"),
    path(
        f"{EVENT}registration/invitation/",
        people.RegistrationInvitation.as_view(),
        name="registration-invitation",
    ),
    path(f"{EVENT}check-in-window/", people.CheckInWindow.as_view(), name="check-in-window"),
    path(f"{EVENT}signup/", people.SignUp.as_view(), name="signup"),
    path(f"{EVENT}signup/check-in/", people.SelfCheckIn.as_view(), name="signup-check-in"),
    path(
        f"{EVENT}entries/<int:entry_id>/check-in/",
        views.EntryCheckIn.as_view(),
        name="entry-check-in",
    ),
    path(
        f"{EVENT}entries/<int:entry_id>/withdraw/",
        views.EntryWithdraw.as_view(),
        name="entry-withdraw",
    ),
    path(f"{EVENT}rounds/", views.RoundList.as_view(), name="rounds"),
    path(f"{EVENT}rounds/<int:number>/", views.RoundDetail.as_view(), name="round"),
    path(f"{EVENT}rounds/<int:number>/swap/", views.RoundSwap.as_view(), name="round-swap"),
    path(
        f"{EVENT}rounds/<int:number>/sections/",
        views.RoundSections.as_view(),
        name="round-sections",
    ),
    path(
        f"{EVENT}rounds/<int:number>/sections/<int:section>/deals/",
        views.SectionDeals.as_view(),
        name="section-deals",
    ),
    path(
        f"{EVENT}rounds/<int:number>/deals/", round_deals.RoundDeals.as_view(), name="round-deals"
    ),
    path(
        f"{EVENT}rounds/<int:number>/publish/", views.RoundPublish.as_view(), name="round-publish"
    ),
    path(
        f"{EVENT}rounds/<int:number>/schedule/",
        schedule.RoundSchedule.as_view(),
        name="round-schedule",
    ),
    path(
        f"{EVENT}fixtures/<int:fixture_id>/proposals/",
        schedule.FixtureProposals.as_view(),
        name="fixture-proposals",
    ),
    path(
        f"{EVENT}fixtures/<int:fixture_id>/proposals/<int:proposal_id>/accept/",
        schedule.ProposalAccept.as_view(),
        name="proposal-accept",
    ),
    path(
        f"{EVENT}fixtures/<int:fixture_id>/open/",
        schedule.FixtureOpen.as_view(),
        name="fixture-open",
    ),
    path(f"{EVENT}fixtures/", views.FixtureList.as_view(), name="fixtures"),
    path(f"{EVENT}fixtures/<int:fixture_id>/", views.FixtureDetail.as_view(), name="fixture"),
    path(
        f"{EVENT}fixtures/<int:fixture_id>/record/",
        views.FixtureRecord.as_view(),
        name="fixture-record",
    ),
    path(
        f"{EVENT}fixtures/<int:fixture_id>/result/",
        views.FixtureResult.as_view(),
        name="fixture-result",
    ),
    path(
        f"{EVENT}fixtures/<int:fixture_id>/absent/",
        absences.FixtureAbsence.as_view(),
        name="fixture-absent",
    ),
    path(f"{EVENT}standings/", views.Standings.as_view(), name="standings"),
    path(f"{EVENT}ledger/", ledger.EventLedger.as_view(), name="ledger"),
    path("players/", views.PlayerList.as_view(), name="players"),
    path("players/<int:player_id>/", views.PlayerDetail.as_view(), name="player"),
    path(
        "players/<int:player_id>/ratings/", ratings.PlayerRatings.as_view(), name="player-ratings"
    ),
    path("ratings/<str:game>/", ratings.GameRatings.as_view(), name="ratings"),
]

"""Entries end to end: importing many (with the duplicate check), claim invitations by e-mail,
undoing a withdrawal, removing an entry, deleting a draft, the confirmation pages, withdrawals
before play listed apart, and the API and the form agreeing on defaults."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.errors import LeagueError
from league.models import ClaimInvitation, Entry, Event, Player, Round
from league.services import entry_import
from league.services import events as event_services
from league.services import rounds as round_services
from league.services.entry_import import DuplicateNames, ImportProblems, ImportRow
from league.services.results import record_result
from league.services.standings import standings_rows
from tests.organizers.conftest import api, enter, make_event, seat

pytestmark = pytest.mark.django_db

CSV = "name,club,country,e-mail\nAna,Circolo Roma,it,ana@example.org\nBruno,,FR,\nCarla\n"


@pytest.fixture
def cup(olga) -> Event:
    return make_event(olga, "Import cup")


def names(event: Event) -> list[str]:
    return sorted(Entry.objects.filter(event=event).values_list("player__name", flat=True))


# --- parsing ----------------------------------------------------------------------------------


def test_a_pasted_list_and_a_csv_with_a_header_read_alike():
    rows = entry_import.parse_text(CSV)
    assert [(r.name, r.club, r.country, r.email) for r in rows] == [
        ("Ana", "Circolo Roma", "IT", "ana@example.org"),
        ("Bruno", "", "FR", ""),
        ("Carla", "", "", ""),
    ]
    pasted = entry_import.parse_text("Ana\tCircolo Roma\tIT\n\n# a comment\nBruno")
    assert [(r.name, r.club) for r in pasted] == [("Ana", "Circolo Roma"), ("Bruno", "")]


def test_every_problem_of_a_list_is_told_at_once():
    with pytest.raises(ImportProblems) as refused:
        entry_import.parse_text("Ana,,Italy\nana\nBo,,,not-an-address\n,club\n" + "x" * 61)
    problems = refused.value.problems
    assert (
        "line 1: Italy is not a country: give its two-letter ISO 3166 code, such as IT, DE or JP."
        in problems
    )
    assert any("ana is on line 1 already" in p for p in problems)
    assert any("not-an-address is no e-mail address" in p for p in problems)
    assert any("line 4: a player needs a name" in p for p in problems)
    assert any("longer than 60 characters" in p for p in problems)
    with pytest.raises(ImportProblems, match="empty"):
        entry_import.parse_text("\n  \n")


# --- the duplicate check ----------------------------------------------------------------------


def test_the_page_asks_before_entering_a_name_an_existing_player_holds(client, olga, cup):
    ana = Player.objects.create(name="ana", club="Old club")
    client.force_login(olga)
    url = reverse("league:entries_import", args=[cup.slug])
    page = client.post(url, {"text": CSV})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Which player do you mean?" in html and "enter ana" in html
    assert names(cup) == []  # nothing entered before the organizer decides
    rows = html.split('name="rows" value="')[1].split('"')[0].replace("&quot;", '"')
    line = json.loads(rows)[0]["line"]

    renamed = client.post(
        url,
        {"step": "confirm", "rows": rows, f"choice_{line}": "rename", f"rename_{line}": "Ana B."},
    )
    assert renamed.status_code == 302
    assert names(cup) == ["Ana B.", "Bruno", "Carla"]
    made = Player.objects.get(name="Ana B.")
    assert (made.club, made.country) == ("Circolo Roma", "IT")
    assert Entry.objects.get(event=cup, player=made).email == "ana@example.org"
    assert Player.objects.get(pk=ana.pk).club == "Old club"


def test_the_page_enters_the_existing_player_when_told_so(client, olga, cup):
    ana = Player.objects.create(name="ana")
    client.force_login(olga)
    url = reverse("league:entries_import", args=[cup.slug])
    upload = SimpleUploadedFile("players.csv", CSV.encode(), content_type="text/csv")
    html = client.post(url, {"file": upload}).content.decode()
    rows = html.split('name="rows" value="')[1].split('"')[0].replace("&quot;", '"')
    line = json.loads(rows)[0]["line"]
    done = client.post(url, {"step": "confirm", "rows": rows, f"choice_{line}": "use"})
    assert done.status_code == 302
    assert names(cup) == ["Bruno", "Carla", "ana"]
    assert Entry.objects.get(event=cup, player=ana).checked_in  # as the entries form does
    assert not Player.objects.filter(name="Ana").exclude(pk=ana.pk).exists()


def test_a_rename_to_another_existing_name_is_asked_again(client, olga, cup):
    Player.objects.create(name="ana")
    Player.objects.create(name="ANA B.")
    client.force_login(olga)
    url = reverse("league:entries_import", args=[cup.slug])
    html = client.post(url, {"text": "Ana"}).content.decode()
    rows = html.split('name="rows" value="')[1].split('"')[0].replace("&quot;", '"')
    again = client.post(
        url, {"step": "confirm", "rows": rows, "choice_1": "rename", "rename_1": "Ana B."}
    )
    assert again.status_code == 400 and "ANA B." in again.content.decode()
    assert names(cup) == []
    damaged = client.post(url, {"step": "confirm", "rows": "[{"})
    assert damaged.status_code == 400 and names(cup) == []
    client.raise_request_exception = False
    deep = client.post(url, {"step": "confirm", "rows": "[" * 100_000})  # json's RecursionError
    assert deep.status_code == 400 and names(cup) == []


def test_the_api_answers_409_with_the_matches_then_imports(olga, cup):
    ana = Player.objects.create(name="ana")
    client = api(olga)
    url = f"/api/events/{cup.slug}/entries/import/"
    asked = client.post(url, {"csv": CSV}, format="json")
    assert asked.status_code == 409
    (match,) = asked.json()["matches"]
    assert (match["name"], match["player"]["id"], match["entered"]) == ("Ana", ana.pk, False)
    assert names(cup) == []
    rows = [{"name": "Ana", "use_existing": True}, {"name": "Bruno", "country": "FR"}]
    done = client.post(url, {"rows": rows}, format="json")
    assert done.status_code == 201, done.content
    assert [e["player"]["name"] for e in done.json()] == ["ana", "Bruno"]
    assert all(e["checked_in"] for e in done.json())
    again = client.post(url, {"rows": [{"name": "ANA", "use_existing": True}]}, format="json")
    assert again.status_code == 400 and "already entered" in again.json()["detail"]
    bad = client.post(url, {"csv": "Zed,,Narnia"}, format="json")
    assert bad.status_code == 400 and "Narnia" in bad.json()["problems"][0]


def test_entering_an_existing_player_by_import_needs_the_role(cora, olga, cup):
    from league.services import organizers

    organizers.add_co_organizer(cup, "cora", by=olga)
    Player.objects.create(name="ana")
    rows = [ImportRow(line=1, name="Ana", use_existing=True)]
    with pytest.raises(Exception, match="organizer role"):
        entry_import.import_entries(cup, rows, by=cora)
    with pytest.raises(DuplicateNames):
        entry_import.import_entries(cup, [ImportRow(line=1, name="ANA")], by=olga)
    assert names(cup) == []


# --- claim invitations ------------------------------------------------------------------------


def test_an_imported_player_is_mailed_one_invitation_to_claim(client, olga, cup, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    entry_import.import_entries(
        cup, entry_import.parse_text("Dina,,,dina@example.org\nEmil\nFio"), by=olga
    )
    dina = Entry.objects.get(event=cup, player__name="Dina")
    client.force_login(olga)
    page = client.get(reverse("league:entries", args=[cup.slug])).content.decode()
    # Invitations wait for a result in a published event of olga's (league.services.claims).
    assert "dina@example.org" in page and "E-mail an invitation to claim" not in page
    players = [e.player for e in Entry.objects.filter(event=cup).order_by("player__name")]
    first = seat(cup, [players], olga)
    record_result(first.fixtures.get(), by=olga, sheet={"deals": [{"scores": [10, 2, 4]}]})
    page = client.get(reverse("league:entries", args=[cup.slug])).content.decode()
    assert "E-mail an invitation to claim" in page
    url = reverse("league:claim_invite", args=[cup.slug, dina.pk])
    assert client.post(url, {"how": "mail"}).status_code == 302
    (sent,) = mail.outbox
    assert sent.to == ["dina@example.org"] and "/accounts/claim/?token=" in sent.body
    token = sent.body.split("token=")[1].split()[0]
    invitation = ClaimInvitation.objects.get(player=dina.player)
    assert token not in invitation.token_hash
    page = client.get(reverse("league:entries", args=[cup.slug])).content.decode()
    assert token not in page and "invitation e-mailed on" in page
    again = client.post(url, {"how": "mail"}, follow=True)
    assert "e-mailed to Dina on" in again.content.decode()
    assert len(mail.outbox) == 1  # one invitation, not one per click
    emil = Entry.objects.get(event=cup, player__name="Emil")  # no address: the link, once
    shown = client.post(reverse("league:claim_invite", args=[cup.slug, emil.pk]))
    assert "claim-link" in shown.content.decode() and len(mail.outbox) == 1
    via_api = api(olga).post(
        f"/api/events/{cup.slug}/entries/{emil.pk}/claim-invitation/", {}, format="json"
    )
    assert via_api.status_code == 201 and "token=" in via_api.json()["link"]


def test_a_name_stored_with_a_line_break_still_gets_its_invitation_mailed(
    client, olga, cup, settings
):
    """Names stored before they were checked may hold one: the subject is one line anyway."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    rows = entry_import.parse_text("Dina,,,dina@example.org\nEmil\nFio")
    entry_import.import_entries(cup, rows, by=olga)
    # Invitations wait for a result in a published event of olga's (league.services.claims).
    players = [e.player for e in Entry.objects.filter(event=cup).order_by("player__name")]
    first = seat(cup, [players], olga)
    record_result(first.fixtures.get(), by=olga, sheet={"deals": [{"scores": [10, 2, 4]}]})
    Player.objects.filter(name="Dina").update(name="Dina\r\nRossi")
    dina = Entry.objects.get(event=cup, player__name="Dina\r\nRossi")
    client.force_login(olga)
    answer = client.post(reverse("league:claim_invite", args=[cup.slug, dina.pk]), {"how": "mail"})
    assert answer.status_code == 302
    (sent,) = mail.outbox
    assert "Dina Rossi" in sent.subject and "\n" not in sent.subject


# --- withdraw, undo, remove, delete -----------------------------------------------------------


@pytest.fixture
def played(olga) -> Event:
    """A league where ana, bo, cy played round 1; dee entered later and withdrew unplayed."""
    event = make_event(olga, "Played league")
    ana, bo, cy = enter(event, ["ana", "bo", "cy"], olga)
    first = seat(event, [[ana, bo, cy]], olga)
    record_result(first.fixtures.get(), by=olga, sheet={"deals": [{"scores": [10, 2, 4]}]})
    (dee,) = enter(event, ["dee"], olga)
    event_services.withdraw(Entry.objects.get(event=event, player=dee), by=olga)
    return event


def test_withdrawn_before_play_is_listed_apart_and_never_ranked(client, olga, played):
    rows = standings_rows(Event.objects.get(pk=played.pk))
    assert sorted(r["player"] for r in rows) == ["ana", "bo", "cy"]
    page = client.get(played.get_absolute_url()).content.decode()
    before_play = page.split('id="withdrawn-before-play"')[1]
    assert "dee" in before_play
    assert "dee" not in page.split('id="withdrawn-before-play"')[0].split("<h2>Entries")[1]
    client.force_login(olga)
    entries = client.get(reverse("league:entries", args=[played.slug])).content.decode()
    assert "before playing (not ranked)" in entries
    # one who played and withdrew keeps their place in the standings
    event_services.withdraw(Entry.objects.get(event=played, player__name="cy"), by=olga)
    assert "cy" in [r["player"] for r in standings_rows(Event.objects.get(pk=played.pk))]


def test_a_withdrawal_is_confirmed_first_and_can_be_undone(client, olga, played):
    ana = Entry.objects.get(event=played, player__name="ana")
    client.force_login(olga)
    url = reverse("league:entry_action", args=[played.slug, ana.pk])
    asked = client.get(url, {"action": "withdraw"})
    assert "Withdraw ana?" in asked.content.decode()
    assert not Entry.objects.get(pk=ana.pk).withdrawn  # asking changed nothing
    client.post(url, {"action": "withdraw"})
    assert Entry.objects.get(pk=ana.pk).withdrawn_after_round == 1
    client.post(url, {"action": "reinstate"})
    assert not Entry.objects.get(pk=ana.pk).withdrawn
    assert (
        api(olga).post(f"/api/events/{played.slug}/entries/{ana.pk}/reinstate/").status_code == 400
    )


def test_a_knockout_takes_nobody_back_once_a_later_round_is_planned(olga):
    event = make_event(olga, "Cup tie", format="knockout", rounds=2, game="saichugen")
    enter(event, [f"k{n}" for n in range(6)], olga)
    gone = Entry.objects.get(event=event, player__name="k0")
    event_services.withdraw(gone, by=olga)
    round_services.generate_round(event, by=olga)
    with pytest.raises(LeagueError, match="cannot come back"):
        event_services.reinstate(gone, by=olga)


def test_only_an_entry_that_never_played_can_be_removed(client, olga, played):
    client.force_login(olga)
    dee = Entry.objects.get(event=played, player__name="dee")
    ana = Entry.objects.get(event=played, player__name="ana")
    url = reverse("league:entry_action", args=[played.slug, dee.pk])
    assert "cannot be undone" in client.get(url, {"action": "remove"}).content.decode()
    assert Entry.objects.filter(pk=dee.pk).exists()
    client.post(url, {"action": "remove"})
    assert not Entry.objects.filter(pk=dee.pk).exists()
    assert Player.objects.filter(name="dee").exists()  # the player stays
    refused = client.post(
        reverse("league:entry_action", args=[played.slug, ana.pk]),
        {"action": "remove"},
        follow=True,
    )
    assert "withdraw them instead" in refused.content.decode()
    response = api(olga).delete(f"/api/events/{played.slug}/entries/{ana.pk}/")
    assert response.status_code == 400 and Entry.objects.filter(pk=ana.pk).exists()


def test_an_entry_in_a_draft_round_is_removed_only_once_the_draft_is_gone(olga):
    event = make_event(olga, "Draft seats")
    enter(event, ["ana", "bo", "cy"], olga)
    draft = round_services.generate_round(event, by=olga)
    ana = Entry.objects.get(event=event, player__name="ana")
    with pytest.raises(LeagueError, match="discard it first"):
        event_services.remove_entry(ana, by=olga)
    round_services.discard_draft(draft, by=olga)
    event_services.remove_entry(ana, by=olga)
    assert not Entry.objects.filter(pk=ana.pk).exists()


def test_a_draft_event_is_deleted_after_a_confirmation_a_published_one_never(client, olga, cup):
    draft = make_event(olga, "Mistake", publish=False)
    enter(draft, ["ana", "bo", "cy"], olga)
    round_services.generate_round(draft, by=olga)
    client.force_login(olga)
    url = reverse("league:event_delete", args=[draft.slug])
    assert "Delete Mistake?" in client.get(url).content.decode()
    assert Event.objects.filter(pk=draft.pk).exists()
    assert client.post(url)["Location"] == reverse("league:events")
    assert not Event.objects.filter(pk=draft.pk).exists()
    assert not Round.objects.filter(event_id=draft.pk).exists()
    refused = api(olga).delete(f"/api/events/{cup.slug}/")
    assert refused.status_code == 400 and "only a draft event" in refused.json()["detail"]
    assert Event.objects.filter(pk=cup.pk).exists()


def test_every_irreversible_button_leads_to_a_confirmation(client, olga, played):
    """The pages' buttons for publishing, closing, withdrawing, removing, discarding and
    deleting are GET forms to a confirmation page: no button posts them directly."""
    client.force_login(olga)
    event_page = client.get(played.get_absolute_url()).content.decode()
    entries = client.get(reverse("league:entries", args=[played.slug])).content.decode()
    round_services.generate_round(played, by=olga)
    round_page = client.get(reverse("league:round", args=[played.slug, 2])).content.decode()
    for html in (event_page, entries, round_page):
        for form in html.split("<form")[1:]:
            if 'method="post"' in form.split(">")[0]:
                for action in ("withdraw", "remove", "publish", "discard", "close", "delete"):
                    assert f'name="action" value="{action}"' not in form, form[:200]
                for name in ("event_publish", "event_close", "event_delete"):
                    assert reverse(f"league:{name}", args=[played.slug]) not in form.split(">")[0]


# --- defaults ---------------------------------------------------------------------------------


def test_the_api_and_the_form_both_check_entries_in_so_round_one_plans(client, olga, cup):
    client.force_login(olga)
    form = client.get(reverse("league:entries", args=[cup.slug])).content.decode()
    checkbox = form.split('name="checked_in"')[1].split(">")[0]
    assert "checked" in checkbox  # the form offers it ticked
    for name in ("ana", "bo", "cy"):
        response = api(olga).post(
            f"/api/events/{cup.slug}/entries/", {"player": name}, format="json"
        )
        assert response.json()["checked_in"] is True
    response = api(olga).post(f"/api/events/{cup.slug}/rounds/")
    assert response.status_code == 201, response.content

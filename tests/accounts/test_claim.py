"""Claiming a player (lobby-api.md: "a name already held by a player without an account can be
claimed only through an invitation from an organizer of that player's events").

alice organizes a cup in which she entered ana (no account); ana later signs up as "ana-web"
and claims her player through alice's link. charlie organizes nothing of ana's. mallory holds the
organizer role too and wants ana's history: she enters ana in events of her own (issue "Trust
II": any organizer could enter someone else's player in a draft and invite herself to claim it).
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.logging import redact
from league.errors import LeagueError
from league.models import ClaimInvitation, Entry, Event, LedgerEntry, Player
from league.services import claims
from league.services import events as event_services
from league.services.players import bot_player, player_for_user
from tests.league.conftest import make_organizer, play_round

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def cup(make_event):
    """A published Saichugen event of alice's with one round played: six players, no accounts."""
    event = make_event("saichugen", players=6)
    play_round(event, event.organizers.get())
    return event


@pytest.fixture
def ana(cup) -> Player:
    """One of the cup's players, with results, ledger rows and ratings, but no account."""
    return Entry.objects.filter(event=cup).select_related("player").first().player


def newcomer(name: str = "ana-web") -> tuple:
    """A fresh account (its own empty player made at sign-up) and a client logged in as it."""
    user = User.objects.create_user(name, password="pw")
    player_for_user(user)
    client = Client()
    client.force_login(user)
    return user, client


def invite_link(client: Client, cup, player: Player) -> str:
    """The organizer's "Invite to claim" on the entries page: the link shown on the answer."""
    entry = Entry.objects.get(event=cup, player=player)
    response = client.post(f"/events/{cup.slug}/entries/{entry.pk}/claim/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    return re.search(r'value="(http[^"]+)"', response.content.decode()).group(1)


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link.replace("&amp;", "&")).query)["token"][0]


def organizer_client(cup) -> Client:
    client = Client()
    client.force_login(cup.organizers.get())
    return client


# --- the invitation ------------------------------------------------------------------------------


def test_the_entries_page_offers_an_invitation_for_players_without_an_account(cup, ana):
    page = organizer_client(cup).get(f"/events/{cup.slug}/entries/").content.decode()
    assert page.count("Invite to claim") == 6


def test_the_entries_page_costs_the_same_queries_for_any_number_of_players(cup, ana):
    client = organizer_client(cup)
    url = f"/events/{cup.slug}/entries/"
    client.get(url)  # warm: the session, the content types
    with CaptureQueriesContext(connection) as six:
        client.get(url)
    for n in range(6):
        Entry.objects.create(event=cup, player=Player.objects.create(name=f"late-{n}"))
    with CaptureQueriesContext(connection) as twelve:
        page = client.get(url).content.decode()
    assert len(twelve) == len(six)
    # The late ones have no result yet: no invitation is offered for them (it would be refused).
    assert page.count("Invite to claim") == 6
    assert page.count("once they have a result in a published event of yours") == 6


def test_an_invitation_is_an_unguessable_one_time_link_whose_token_is_stored_hashed(cup, ana):
    link = invite_link(organizer_client(cup), cup, ana)
    token = token_of(link)
    assert len(token) >= 40  # 32 random bytes
    invitation = ClaimInvitation.objects.get(player=ana)
    assert invitation.token_hash == hashlib.sha256(token.encode()).hexdigest()
    stored = ClaimInvitation.objects.filter(pk=invitation.pk).values().get()
    assert token not in repr(stored)
    assert token not in redact(f"GET {urlsplit(link).path}?{urlsplit(link).query} HTTP/1.1")
    expires = invitation.expires_at - invitation.created_at
    assert timedelta(days=13, hours=23) < expires <= timedelta(days=14)


def test_only_an_organizer_of_the_players_events_may_invite(cup, ana, charlie):
    with pytest.raises(PermissionDenied):
        claims.invite_to_claim(ana, by=charlie)
    client = Client()
    client.force_login(charlie)
    entry = Entry.objects.get(event=cup, player=ana)
    assert client.post(f"/events/{cup.slug}/entries/{entry.pk}/claim/").status_code == 403
    assert not ClaimInvitation.objects.exists()


def test_players_with_accounts_bots_and_deleted_accounts_cannot_be_invited(cup, ana):
    alice = User.objects.create_user("staff", password="pw", is_staff=True)  # may invite anyone
    bob = User.objects.create_user("bob", password="pw")
    taken = player_for_user(bob)
    gone = Player.objects.create(name="Deleted player 0b0b", deleted_at=timezone.now())
    bot = bot_player("Bot A")
    for player, reason in [(taken, "already has an account"), (gone, "deleted"), (bot, "bot")]:
        Entry.objects.create(event=cup, player=player)
        with pytest.raises(LeagueError, match=reason):
            claims.invite_to_claim(player, by=alice)
    assert not ClaimInvitation.objects.exists()


def test_a_new_invitation_replaces_the_same_organizers_last_one(cup, alice, ana):
    first = claims.invite_to_claim(ana, by=alice)
    second = claims.invite_to_claim(ana, by=alice)
    with pytest.raises(claims.ClaimRefused):
        claims.open_invitation(first.token)
    assert claims.open_invitation(second.token).player == ana


# --- claiming ------------------------------------------------------------------------------------


def test_a_new_account_takes_over_the_player_and_all_its_history(cup, alice, ana):
    history = set(LedgerEntry.objects.filter(player=ana).values_list("pk", flat=True))
    assert history
    token = claims.invite_to_claim(ana, by=alice).token
    user, client = newcomer()
    own = Player.objects.get(user=user)
    page = client.get("/accounts/claim/", {"token": token})
    assert page.status_code == 200 and ana.name in page.content.decode()
    assert token not in page.content.decode().split('name="token"')[0]  # only in the form
    response = client.post("/accounts/claim/", {"token": token})
    assert response.status_code == 302 and response["Location"] == ana.get_absolute_url()
    ana.refresh_from_db()
    assert ana.user == user and not ana.is_bot
    assert set(LedgerEntry.objects.filter(player=ana).values_list("pk", flat=True)) == history
    assert not Player.objects.filter(pk=own.pk).exists()  # the empty one is gone
    assert Player.objects.get(user=user) == ana
    invitation = ClaimInvitation.objects.get()
    assert invitation.used_by == user and invitation.used_at is not None


def test_a_visitor_signs_up_from_the_link_and_comes_back_to_confirm(cup, alice, ana):
    token = claims.invite_to_claim(ana, by=alice).token
    client = Client()
    page = client.get("/accounts/claim/", {"token": token}).content.decode()
    signup = re.search(r'href="(/accounts/signup/\?next=[^"]+)"', page).group(1)
    data = {"username": "ana-web", "email": "", "password1": "a long pass phrase"}
    response = client.post(signup.replace("&amp;", "&"), {**data, "password2": data["password1"]})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/claim/?token=")
    client.post("/accounts/claim/", {"token": token})
    ana.refresh_from_db()
    assert ana.user.username == "ana-web"


def test_an_invitation_works_once(cup, alice, ana):
    token = claims.invite_to_claim(ana, by=alice).token
    _user, client = newcomer()
    client.post("/accounts/claim/", {"token": token})
    _other, second = newcomer("mallory")
    response = second.post("/accounts/claim/", {"token": token})
    assert response.status_code == 410
    assert "used already" in response.content.decode()
    ana.refresh_from_db()
    assert ana.user.username == "ana-web"


def test_an_invitation_expires(cup, alice, ana, settings):
    settings.CLAIM_INVITATION_DAYS = 2
    token = claims.invite_to_claim(ana, by=alice).token
    _user, client = newcomer()
    with time_machine.travel(timezone.now() + timedelta(days=2, minutes=1)):
        response = client.post("/accounts/claim/", {"token": token})
    assert response.status_code == 410 and "expired" in response.content.decode()
    ana.refresh_from_db()
    assert ana.user is None


def test_a_wrong_token_is_a_404_that_changes_nothing(cup, alice, ana):
    claims.invite_to_claim(ana, by=alice)
    _user, client = newcomer()
    assert client.get("/accounts/claim/", {"token": "guess"}).status_code == 404
    assert client.post("/accounts/claim/", {"token": "guess"}).status_code == 404
    assert client.get("/accounts/claim/").status_code == 404
    ana.refresh_from_db()
    assert ana.user is None


def test_an_account_with_a_history_of_its_own_cannot_claim(cup, alice, ana):
    other = Entry.objects.filter(event=cup).exclude(player=ana).first().player
    user = User.objects.create_user("veteran", password="pw")
    Player.objects.filter(pk=other.pk).update(user=user)  # an account that has played
    token = claims.invite_to_claim(ana, by=alice).token
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/claim/", {"token": token})
    assert response.status_code == 400
    assert "history of its own" in response.content.decode()
    ana.refresh_from_db()
    assert ana.user is None and Player.objects.get(user=user) == other
    assert claims.open_invitation(token)  # still usable by the right person


def test_a_bot_account_cannot_claim_a_person(cup, alice, ana):
    user = User.objects.create_user("robo", password="pw", is_bot_account=True)
    token = claims.invite_to_claim(ana, by=alice).token
    with pytest.raises(LeagueError, match="bot account"):
        claims.claim_player(user, token)
    ana.refresh_from_db()
    assert ana.user is None


def test_claiming_needs_a_login(cup, alice, ana):
    token = claims.invite_to_claim(ana, by=alice).token
    response = Client().post("/accounts/claim/", {"token": token})
    assert response.status_code == 200  # the page asks to sign up or log in
    assert "Sign up" in response.content.decode()
    ana.refresh_from_db()
    assert ana.user is None


# --- who vouches: the attacker's side (issue "Trust II") ------------------------------------------


@pytest.fixture
def mallory(db):
    """An organizer with the role, who never ran an event with ana's results."""
    return make_organizer(User.objects.create_user("mallory", password="pw"))


def own_event(organizer, player: Player, *, publish: bool, play: bool = False) -> Event:
    """An event of `organizer`'s with `player` entered (and two more), published or a draft,
    its first round played or not."""
    event = event_services.create_event(
        organizer, name=f"{organizer}'s night", game="saichugen", rounds=2, deals_per_match=1
    )
    if publish:
        event_services.publish_event(event, by=organizer)
    event_services.add_entry(event, player, by=organizer)
    for n in range(2):
        event_services.enter_player(event, by=organizer, name=f"{organizer}-guest-{n}")
    if play:
        play_round(event, organizer)
    return event


def organizer_of(event: Event) -> Client:
    client = Client()
    client.force_login(event.owner)
    return client


@pytest.mark.parametrize("publish", [False, True], ids=["a draft", "published, no result"])
def test_entering_someone_elses_player_in_ones_own_event_is_not_enough(
    cup, alice, ana, mallory, publish
):
    mine = own_event(mallory, ana, publish=publish)
    victims = claims.invite_to_claim(ana, by=alice)
    with pytest.raises(PermissionDenied, match=f"published event in which {ana.name} has a"):
        claims.invite_to_claim(ana, by=mallory)
    # The entries page of her own event says why; the API answers 403 with the reason.
    entry = Entry.objects.get(event=mine, player=ana)
    url = f"/events/{mine.slug}/entries/{entry.pk}/claim/"
    page = organizer_of(mine).post(url, follow=True)
    assert f"published event in which {ana.name} has a result" in page.content.decode()
    answer = organizer_of(mine).post(
        f"/api/events/{mine.slug}/entries/{entry.pk}/claim-invitation/",
        {"email": False},
        content_type="application/json",
    )
    assert answer.status_code == 403 and "published event" in answer.json()["detail"]
    # Nothing changed: alice's invitation is the only one, and it still works.
    assert list(ClaimInvitation.objects.all()) == [victims.invitation]
    assert claims.open_invitation(victims.token).created_by == alice


def test_an_event_the_league_does_not_trust_vouches_for_nothing(cup, ana, charlie, settings):
    """With open organizing anyone may run an event and play ana in it; an event whose owner
    lacks the role is not rated, and it cannot hand ana's history over either."""
    settings.LEAGUE_OPEN_ORGANIZING = True
    own_event(charlie, ana, publish=True, play=True)
    assert LedgerEntry.objects.filter(player=ana, event__owner=charlie).exists()
    with pytest.raises(PermissionDenied):
        claims.invite_to_claim(ana, by=charlie)
    assert not ClaimInvitation.objects.exists()


def test_each_organizers_invitation_lives_on_its_own_and_a_claim_spends_them_all(
    cup, alice, ana, mallory
):
    """mallory also ran a published event in which ana played: both may invite."""
    theirs = own_event(mallory, ana, publish=True, play=True)
    by_alice = claims.invite_to_claim(ana, by=alice)
    by_mallory = claims.invite_to_claim(ana, by=mallory)
    again = claims.invite_to_claim(ana, by=mallory)  # replaces mallory's own only
    assert claims.open_invitation(by_alice.token).created_by == alice
    with pytest.raises(claims.ClaimRefused):
        claims.open_invitation(by_mallory.token)
    assert [e.pk for e in claims.invitation_events(again.invitation)] == [theirs.pk]
    user, client = newcomer()
    client.post("/accounts/claim/", {"token": by_alice.token})
    ana.refresh_from_db()
    assert ana.user == user
    spent = ClaimInvitation.objects.get(token_hash=claims.token_hash(again.token))
    assert spent.used_at is not None and spent.used_by is None  # kept, used by nobody
    _other, second = newcomer("ana-too")
    response = second.post("/accounts/claim/", {"token": again.token})
    assert response.status_code == 410 and "used already" in response.content.decode()


def test_the_claim_page_names_the_events_that_vouch_for_it(cup, alice, ana, mallory):
    draft = own_event(alice, ana, publish=False)  # alice's draft vouches for nothing
    token = claims.invite_to_claim(ana, by=alice).token
    own_event(mallory, ana, publish=True, play=True)  # not alice's: not named on her link
    page = Client().get("/accounts/claim/", {"token": token}).content.decode()
    vouching = page.split('class="vouching-events"')[1].split("</ul>")[0]
    assert f'href="{cup.get_absolute_url()}"' in vouching and cup.name in vouching
    assert draft.name not in vouching and "mallory" not in vouching


def test_staff_may_invite_and_the_page_says_so(cup, ana):
    staff = User.objects.create_user("staff", password="pw", is_staff=True)
    token = claims.invite_to_claim(ana, by=staff).token
    page = Client().get("/accounts/claim/", {"token": token}).content.decode()
    assert "staff made this invitation" in page
    user, client = newcomer()
    client.post("/accounts/claim/", {"token": token})
    ana.refresh_from_db()
    assert ana.user == user


def test_an_invitation_nobody_vouches_for_any_more_cannot_be_used(cup, alice, ana):
    """alice's role is taken away (her cup is trusted no more) after she made the link."""
    token = claims.invite_to_claim(ana, by=alice).token
    alice.user_permissions.clear()
    _user, client = newcomer()
    assert client.get("/accounts/claim/", {"token": token}).status_code == 410
    response = client.post("/accounts/claim/", {"token": token})
    assert response.status_code == 410
    assert "may no longer invite" in response.content.decode()
    ana.refresh_from_db()
    assert ana.user is None

"""Player names and clubs in NFC, as every way in keeps them now (accounts.names), so "Zoë" typed
with a combining diaeresis finds the player saved before as "Zoe" + U+0308; and the country an
ISO 3166 code (django-countries).

Two players whose names become one name (in any case) are not merged, and the unique index
must hold: such a player keeps its name as it is, and the migration prints each one with the
player it would collide with, for a person to rename. A country that is no ISO 3166 code stays
too (shown as its code) and is printed likewise. The look-alike skeletons do not change: they
are made from the NFKC form.
"""

import unicodedata

import django_countries.fields
from django.db import migrations


def nfc(text):
    return unicodedata.normalize("NFC", text)


def names_to_nfc(apps, schema_editor):
    from django_countries import countries

    Player = apps.get_model("league", "Player")
    rows = list(Player.objects.order_by("pk").values_list("pk", "name", "club", "country"))
    holder = {name.lower(): pk for pk, name, _club, _country in rows}
    changed, kept, unknown = [], [], []
    for pk, name, club, country in rows:
        new_name = nfc(name)
        if new_name != name:
            other = holder.get(new_name.lower())
            if other is not None and other != pk:
                kept.append(f"  #{pk} {ascii(name)} would be #{other}'s name {ascii(new_name)}")
                new_name = name
            else:
                holder.pop(name.lower(), None)
                holder[new_name.lower()] = pk
        if new_name != name or nfc(club) != club:
            changed.append(Player(pk=pk, name=new_name, club=nfc(club)))
        if country and countries.alpha2(country) != country:
            unknown.append(f"  #{pk} {ascii(name)}: {country!r}")
    Player.objects.bulk_update(changed, ["name", "club"], batch_size=500)
    if kept:
        print(
            "\nleague 0017: these players keep their names (not in NFC): in NFC they would be "
            "another player's. Rename one of each pair:\n" + "\n".join(kept)
        )
    if unknown:
        print(
            "\nleague 0017: these players' countries are no ISO 3166 code (shown as they "
            "are; correct them in the admin):\n" + "\n".join(unknown)
        )


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0016_player_name_skeleton"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="country",
            field=django_countries.fields.CountryField(
                blank=True, help_text="ISO 3166 code, e.g. IT", max_length=2
            ),
        ),
        migrations.RunPython(names_to_nfc, migrations.RunPython.noop),
    ]

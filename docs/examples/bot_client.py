"""A complete Mediana bot: log in, open a table against built-in bots, play it to the end.

    python bot_client.py http://127.0.0.1:8000 USERNAME PASSWORD [GAME]

HTTP is lobby-api.md, play is table-protocol.md; it plays the first legal action (put your own
strategy in `choose`). Needs only `websockets` (pip install)."""

import asyncio
import json
import sys
import urllib.request

import websockets


def post(url: str, body: dict, token: str = "") -> dict:
    auth = {"Authorization": f"Token {token}"} if token else {}
    headers = {"Content-Type": "application/json", **auth}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def choose(legal: list) -> dict:
    """The first legal action; a template ("choose" N "from" cards) takes the first cards."""
    action = dict(legal[0])
    if "choose" in action:  # discard / give N cards
        action["cards"] = action.pop("from")[: action.pop("choose")]
    if isinstance(action.get("discard"), dict):  # Mediatore's exchange
        discard = action["discard"]["from"][: action["discard"]["choose"]]
        action["discard"], give = discard, action.get("give")
        action["give"] = give and next(c for c in give["from"] if c not in discard)
    return action


async def play(base: str, username: str, password: str, game: str) -> dict:
    token = post(f"{base}/api/token/", {"username": username, "password": password})["token"]
    seats = {"mediatore": 4}.get(game, 3)
    table = post(f"{base}/api/tables/", {"game": game, "bots": seats - 1, "rated": False}, token)
    url = f"{base.replace('http', 'ws', 1)}/ws/tables/{table['table']}/?token={table['token']}"
    async with websockets.connect(url) as socket:
        while True:
            try:
                state = json.loads(await asyncio.wait_for(socket.recv(), 10))
            except TimeoutError:  # nothing heard for a while: ask for the state again
                await socket.send(json.dumps({"type": "sync"}))
                continue
            if state["type"] != "state":
                continue  # an error ("stale" …) is followed by a fresh state
            if state["status"] == "finished":
                return state["result"]
            if state["legal"]:
                act = {"type": "act", "seq": state["seq"], "action": choose(state["legal"])}
                await socket.send(json.dumps({**act, "id": str(state["seq"])}))


if __name__ == "__main__":
    result = asyncio.run(play(*sys.argv[1:4], sys.argv[4] if len(sys.argv) > 4 else "saichugen"))
    print(json.dumps(result["totals"]))

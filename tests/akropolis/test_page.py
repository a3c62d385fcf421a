"""``sneferu replay --html`` of an Akropolis game, in a real headless Chromium (as
tests/test_replay_html.py does for the other games): at every ply every city's SVG hexes
(position, code, level, tile), lakes and newest tile, the site, the points and stones are
what the position holds."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from test_replay_html import browser, write_page  # noqa: F401  (the browser fixture)

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.game import get_game
from sneferu_cli.record.model import GameRecord
from sneferu_cli.record.replay import plies
from sneferu_cli.record.text import GameEntry

DRAWN = """
const q = (sel, root) => [...(root || document).querySelectorAll(sel)];
return {
  ply: Number(document.body.dataset.ply),
  turn: document.getElementById("turn").textContent,
  site: q("#site .place").map(p => p.dataset.tile || null),
  cities: q("#cities .city").map(c => ({
    seat: Number(c.dataset.seat),
    points: Number(c.querySelector(".points").textContent),
    stones: Number(c.querySelector(".stones").textContent),
    scores: q(".scores td", c).map(x => Number(x.textContent)),
    hexes: q("g.hex[data-q]", c).map(h => [Number(h.dataset.q), Number(h.dataset.r), h.dataset.hex,
                                           Number(h.dataset.level), h.dataset.tile]),
    lakes: q("g.lake", c).map(h => [Number(h.dataset.q), Number(h.dataset.r)]),
    newest: q("g.hex.newest", c).map(h => [Number(h.dataset.q), Number(h.dataset.r)]),
    last: c.classList.contains("last"),
  })),
};
"""
"""What the page draws, read back from its elements."""


def drawn_from_data(d: dict[str, Any], ply: int) -> dict[str, Any]:
    """What the page must draw for one ply's page data, in the shape DRAWN reads."""
    return {
        "ply": ply, "turn": d["turn"]["text"], "site": [p["tile"] for p in d["site"]],
        "cities": [{
            "seat": x["seat"], "points": x["points"], "stones": x["stones"],
            "scores": list(x["scores"].values()),
            "hexes": [[h["q"], h["r"], h["hex"], h["level"], h["tile"]] for h in x["hexes"]],
            "lakes": x["lakes"], "newest": sorted(x["newest"] or []),
            "last": d["turn"]["last"] == x["seat"]} for x in d["seats"]],
    }


def akropolis_record(players: int, variant: str, seed: int) -> GameRecord:
    engines = Engine.start_all([Engine(engine_command("random"), name="random")
                                for _ in range(players)])
    try:
        return play_game(engines, seed=seed, time_control=TimeControl(movetime=2000),
                         game=get_game("akropolis"), variant=variant)
    finally:
        Engine.quit_all(engines)


@pytest.mark.parametrize(("players", "variant", "seed"), [(2, "HMBTGa", 71), (4, "hmbtga", 72)])
def test_an_akropolis_page_draws_every_ply_as_the_position_is(browser, tmp_path,  # noqa: F811
                                                              players, variant, seed):
    rec = akropolis_record(players, variant, seed)
    page = write_page(tmp_path, rec, "akropolis")
    html = page.read_text(encoding="utf-8")
    for remote in ("http://", "https://", "<link", " src="):
        assert remote not in html.replace('"http://www.w3.org/2000/svg"', "")
    game = get_game("akropolis")
    want = [drawn_from_data(game.page_data(state), k)
            for k, state in enumerate(plies(GameEntry(rec), game.standard_edition()))]
    last = len(want) - 1
    assert last >= 36
    browser.get(page.as_uri())
    assert browser.title == "Akropolis game"
    body = browser.find_element(By.TAG_NAME, "body")

    def check(k: int) -> None:
        drawn = browser.execute_script(DRAWN)
        for city in drawn["cities"]:
            city["newest"] = sorted(city["newest"])
        assert drawn == want[k]
        assert browser.find_element(By.ID, "ply-label").text == f"Ply {k} of {last}"

    check(0)
    for k in range(1, last + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        check(k)
    body.send_keys(Keys.HOME)
    check(0)
    body.send_keys(Keys.END)
    check(last)
    assert want[last]["turn"].startswith("Game over: 1. seat ")
    assert sum(len(c["newest"]) for c in want[last]["cities"]) == 3 * players
    browser.find_element(By.CSS_SELECTOR, '#moves li[data-ply="9"]').click()
    check(9)
    browser.save_screenshot(str(tmp_path / "akropolis.png"))
    assert (tmp_path / "akropolis.png").stat().st_size > 20_000
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []

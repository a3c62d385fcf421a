"""``sneferu replay --html`` of a Silver & Gold game in a real headless Chromium: at every
ply the page draws each seat's chambers (cards, marked cells, the cells marked in the last
step), its points, the offer, the expedition card and who still decides, as the page data
(SPEC 14.6) says."""

from __future__ import annotations

from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from test_replay_html import browser, write_page  # noqa: F401 (the fixture)

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.record.replay import plies
from sneferu_cli.record.text import GameEntry

DRAWN = """
const q = (e, s) => [...e.querySelectorAll(s)];
const seats = q(document, "#seats .seat").map(x => [
  +x.dataset.seat, +x.querySelector(".points").textContent, x.classList.contains("deciding"),
  q(x, ".chamber").map(c => [+c.dataset.card,
    q(c, ".cell.marked").map(k => k.dataset.cell), q(c, ".cell.last").map(k => k.dataset.cell)])]);
const pattern = document.querySelector("#expedition [data-pattern]");
return {round: +document.getElementById("round-no").textContent,
        turn: +document.getElementById("turn-no").textContent,
        pattern: pattern ? pattern.dataset.pattern : null,
        offer: q(document, "#offer .card").map(c => +c.dataset.card),
        deck: +document.querySelector("#offer [data-deck]").dataset.deck,
        text: document.getElementById("turn").textContent, seats};
"""


def wanted(d: dict[str, Any]) -> dict[str, Any]:
    return {"round": d["round"], "turn": d["turn"],
            "pattern": d["expedition"]["code"] if d["expedition"] else None,
            "offer": [c["number"] for c in d["offer"]], "deck": d["deck"],
            "text": d["turn_state"]["text"],
            "seats": [[x["seat"], x["points"], x["deciding"],
                       [[c["number"], c["marked"], c["last"]] for c in x["cards"] + x["dealt"]]]
                      for x in d["seats"]]}


def test_a_silver_gold_page_draws_every_ply_as_the_position_is(browser, tmp_path):  # noqa: F811
    engines = Engine.start_all([Engine(engine_command("random"), name="random")
                                for _ in range(3)])
    try:
        rec = play_game(engines, seed=5, time_control=TimeControl(movetime=2000), game=GAME)
    finally:
        Engine.quit_all(engines)
    page = write_page(tmp_path, rec, "silver-gold")
    want = [wanted(GAME.page_data(state))
            for state in plies(GameEntry(rec), GAME.standard_edition())]
    assert len(want) > 30  # 28 sealed marking steps (one ply each, SPEC 8.6) and the takes
    browser.get(page.as_uri())
    assert browser.title == "Silver & Gold Pyramids game"
    body = browser.find_element(By.TAG_NAME, "body")
    assert browser.execute_script(DRAWN) == want[0]
    for k in range(1, len(want)):
        body.send_keys(Keys.ARROW_RIGHT)
        assert browser.execute_script(DRAWN) == want[k], k
    assert want[-1]["text"].startswith("Game over: 1. seat ")
    # Somewhere the last step's cells are highlighted and a seat is still to decide.
    assert any(c[2] for w in want for s in w["seats"] for c in s[3])
    assert any(s[2] for w in want for s in w["seats"])
    # Each chamber has its column letters and row numbers; each cell names itself.
    labels = browser.execute_script(
        "const c = document.querySelector('.chamber');"
        "return [[...c.querySelectorAll('.label')].map(x => x.textContent).join(''),"
        " c.querySelector('[data-cell=c3]').title];")
    assert labels == ["abcde12345", "c3"]
    # At the end, every seat's score item by item, summing to its points; a pyramid-point
    # box is not drawn as a card.
    final = GAME.page_data(list(plies(GameEntry(rec), GAME.standard_edition()))[-1])
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#seats .seat')].map(x => ["
        " [...x.querySelectorAll('.score tr[data-item]')].map(r => [r.dataset.item,"
        "  +r.lastChild.textContent]),"
        " +x.querySelector('.score tr.total').lastChild.textContent,"
        " [...x.querySelectorAll('.pts')].map(b => b.dataset.box),"
        " x.querySelectorAll('.pts.card, .done .pts').length]);")
    assert shown == [[list(map(list, x["score"].items())), x["points"],
                      [b["colour"] + str(b["points"]) for b in x["boxes"]], 0]
                     for x in final["seats"]]
    assert any(x["boxes"] for x in final["seats"])
    assert all(sum(x["score"].values()) == x["points"] for x in final["seats"])
    browser.save_screenshot(str(tmp_path / "final.png"))
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []

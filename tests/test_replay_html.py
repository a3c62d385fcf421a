"""``sneferu replay --html``: the page, in a real headless Chromium (Debian's chromium and
chromedriver, driven with selenium), steps through the game with keys, slider and clicks;
a Sneferu game and Imhotep games (sides A and B)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from recgen import random_game
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from support import require_program, run_cli, solo_of

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.game import get_game
from sneferu_cli.games.sneferu.components import Material
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.record.model import GameRecord
from sneferu_cli.record.replay import plies
from sneferu_cli.record.text import GameEntry, format_records

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = require_program(CHROMIUM, "Chromium")
    chromedriver = require_program(CHROMEDRIVER, "ChromeDriver")
    profile = tempfile.TemporaryDirectory()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile.name}", "--window-size=1400,1000"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=opts, service=Service(chromedriver))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    yield driver
    driver.quit()
    profile.cleanup()


def write_page(tmp_path: Path, rec: GameRecord, name: str) -> Path:
    src = tmp_path / f"{name}.rec"
    src.write_text(format_records([rec]), encoding="utf-8")
    out = tmp_path / f"{name}.html"
    r = run_cli("replay", str(src), "--html", str(out))
    assert r.returncode == 0, r.stderr
    return out


def expected(rec: GameRecord) -> list[dict[str, object]]:
    """Per ply: each seat's food and pyramid cells {(level, slot, half): material}."""
    out = []
    for state in plies(GameEntry(rec), standard_edition()):
        g = state.tables.geometry
        seats = []
        for p in state.players:
            cells = {}
            for s, v in enumerate(p.pyramid.stones):
                if v >= 0:
                    key = (g.level_of[s], g.number_of[s])
                    cells[(*key, "left")] = Material(v // 5).name
                    cells[(*key, "right")] = Material(v % 5).name
            seats.append({"food": p.food, "cells": cells})
        out.append({"seats": seats})
    return out


def shown_ply(driver) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-ply"))


def check_ply(driver, want: list[dict[str, object]], k: int) -> None:
    assert shown_ply(driver) == k
    label = driver.find_element(By.ID, "ply-label").text
    assert label == f"Ply {k} of {len(want) - 1}"
    for i, seat in enumerate(want[k]["seats"], start=1):  # type: ignore[arg-type]
        food = driver.find_element(By.CSS_SELECTOR, f'section.seat[data-seat="{i}"] .food')
        assert int(food.text) == seat["food"], (k, i)
    # Every filled cell of seat 1, and the count of filled cells of every seat.
    cells = want[k]["seats"][0]["cells"]  # type: ignore[index]
    for (level, slot, half), material in cells.items():
        cell = driver.find_element(
            By.CSS_SELECTOR, f'.pyramid[data-seat="1"] .cell[data-level="{level}"]'
                             f'[data-slot="{slot}"][data-half="{half}"]')
        assert cell.get_attribute("data-material") == material
    for i, seat in enumerate(want[k]["seats"], start=1):  # type: ignore[arg-type]
        filled = driver.find_elements(By.CSS_SELECTOR, f'.pyramid[data-seat="{i}"] .cell.filled')
        assert len(filled) == len(seat["cells"])


def test_the_page_steps_through_the_game(browser, tmp_path):
    rec = random_game(3, 51, builders="random", retire=0.02)
    page = write_page(tmp_path, rec, "game")
    html = page.read_text(encoding="utf-8")
    for remote in ("http://", "https://", "<link", " src="):
        assert remote not in html  # self-contained: nothing is fetched
    want = expected(rec)
    last = len(want) - 1
    assert last > 20
    browser.get(page.as_uri())
    check_ply(browser, want, 0)
    body = browser.find_element(By.TAG_NAME, "body")
    k = last // 2
    for _ in range(k):
        body.send_keys(Keys.ARROW_RIGHT)
    check_ply(browser, want, k)
    assert want[k]["seats"][0]["cells"], "seat 1 has placed stones by the middle of the game"
    body.send_keys(Keys.ARROW_LEFT)
    check_ply(browser, want, k - 1)
    body.send_keys(Keys.END)
    check_ply(browser, want, last)
    body.send_keys(Keys.HOME)
    check_ply(browser, want, 0)

    # The slider: a real click a quarter along it, then its own arrow keys.
    slider = browser.find_element(By.ID, "slider")
    width = slider.size["width"]
    ActionChains(browser).move_to_element_with_offset(slider, -width // 4, 0).click().perform()
    at = shown_ply(browser)
    assert 0 < at < last // 2
    assert int(slider.get_attribute("value")) == at
    check_ply(browser, want, at)
    slider.send_keys(Keys.ARROW_RIGHT)
    check_ply(browser, want, at + 1)

    # The move list: click a turn to see the position after it.
    browser.find_element(By.CSS_SELECTOR, '#moves li[data-ply="7"]').click()
    check_ply(browser, want, 7)
    current = browser.find_element(By.CSS_SELECTOR, "#moves li.current")
    assert current.text.startswith("7. ")

    browser.save_screenshot(str(tmp_path / "replay.png"))
    assert (tmp_path / "replay.png").stat().st_size > 20_000
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_a_solo_page_shows_ptah_and_the_offer(browser, tmp_path):
    rec = random_game(1, 52, greedy=True)
    browser.get(write_page(tmp_path, rec, "solo").as_uri())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    ptah = browser.find_element(By.ID, "ptah")
    assert ptah.is_displayed()
    total = solo_of(rec.header).against if solo_of(rec.header) else -1
    assert browser.find_element(By.ID, "ptah-body").text.startswith(f"{total} of 21 stones")
    cells = browser.find_elements(By.CSS_SELECTOR, "#offer td[data-stone]")
    assert len(cells) == 28
    boats = browser.find_elements(By.CSS_SELECTOR, '#river .space[data-space="40"] .boat')
    assert len(boats) == 1
    browser.save_screenshot(str(tmp_path / "solo.png"))


def _rgb(css: str) -> tuple[int, ...]:
    """``rgb(r, g, b)`` or ``rgba(...)`` as its three numbers."""
    return tuple(int(float(x)) for x in css[css.index("(") + 1:-1].split(",")[:3])


def test_the_key_explains_colours_and_tiles_and_white_tiles_stand_out(browser, tmp_path):
    """Every tile abbreviation on the river is explained in the key with its tile's name,
    every material with its colour; a Tura (white) quarry's badge has a dark border, so it
    does not vanish on its white space."""
    rec = random_game(2, 53)
    browser.get(write_page(tmp_path, rec, "key").as_uri())
    key = browser.find_element(By.ID, "key-box")
    assert key.is_displayed()
    text = key.text
    for name, colour in (("basalt", "green"), ("Tura limestone", "white"),
                         ("Mokattam limestone", "brown"), ("granite", "black"),
                         ("gold", "yellow")):
        assert f"{name} ({colour})" in text
    shown = {t.text for t in browser.find_elements(By.CSS_SELECTOR, "#river .tile")}
    names = {"F1": "FOOD1", "F2": "FOOD2", "NX": "NOEXTRA", "ST": "SAVETIME",
             "TF": "TIMEFOOD", "SH": "STOREHOUSE"}
    assert shown == set(names)  # the set-up laid every kind of tile
    for short, tile in names.items():
        assert f"{short}\n{tile}: " in text or f"{short} {tile}: " in text, (short, text)
    tura = browser.find_elements(By.CSS_SELECTOR, "#river .space.quarry .tile.mat-T")
    assert len(tura) == 3  # spaces 5, 17 and 29
    for badge in tura:
        style = browser.execute_script(
            "const s = getComputedStyle(arguments[0]); const p = getComputedStyle("
            "arguments[0].parentElement); return [s.borderTopWidth, s.borderTopColor, "
            "s.backgroundColor, p.backgroundColor];", badge)
        width, border, fill, space = style
        assert float(width.removesuffix("px")) >= 1
        darkest = min(sum(_rgb(fill)), sum(_rgb(space)))
        assert darkest - sum(_rgb(border)) > 300, style  # the border is much darker
    browser.save_screenshot(str(tmp_path / "key.png"))
    assert (tmp_path / "key.png").stat().st_size > 20_000


# ------------------------------------------------------------------ Imhotep

DRAWN = """
const q = (sel, root) => [...(root || document).querySelectorAll(sel)];
const stone = x => x.dataset.stone || null;
const byIndex = root => q("[data-index]", root).sort((a, b) => a.dataset.index - b.dataset.index)
  .filter(x => x.dataset.stone).map(stone);
const site = x => document.querySelector('.site[data-site="' + x + '"]');
const p = site("P"), o = site("O");
const sites = {
  M: q("[data-card]", site("M")).map(x => x.dataset.card || null),
  P: p.dataset.side === "A" ? [byIndex(p), q(".edge .st", p).map(stone)]
     : [q(".pyr", p).map(x => [x.dataset.pyramid, byIndex(x)]), q(".edge .st", p).map(stone)],
  T: q(".column", site("T")).map(c => [q(".st", c).map(stone), q(".st.top", c).map(stone)]),
  C: q("[data-row]", site("C")).filter(x => x.dataset.stone)
     .map(x => [Number(x.dataset.row), Number(x.dataset.column), stone(x)]),
  O: [q(".obelisk", o).map(x => Number(x.dataset.height)),
      q("[data-tower] .st", o).map(stone)],
};
const no = document.querySelector("#round .round-no");
return {
  ply: Number(document.body.dataset.ply),
  turn: document.getElementById("turn").textContent,
  round: no ? Number(no.textContent) : 0,
  ships: q("#ships .ship").map(s => [s.dataset.ship, s.dataset.site || null,
                                     q("[data-slot]", s).map(stone)]),
  sites: sites,
  seats: q("#seats .seat").map(s => [Number(s.dataset.seat),
    ...[".score", ".sled", ".quarry"].map(x => Number(s.querySelector(x).textContent)),
    s.querySelector(".cards").dataset.cards, s.classList.contains("deciding")]),
};
"""
"""What the page draws, read back from its elements (stones by their data-stone, figures by
their text)."""


def drawn_from_data(d: dict[str, Any], ply: int) -> dict[str, Any]:
    """What the page must draw for one ply's page data, in the shape DRAWN reads."""
    s = d["sites"]
    p = s["P"]
    if p["side"] == "A":
        slots = len(p["points"])
        pyr: list[Any] = [p["stones"][:slots], p["stones"][slots:]]
    else:
        pyr = [[[x["code"], x["stones"]] for x in p["pyramids"]], p["edge"]]
    o = s["O"]
    return {
        "ply": ply, "turn": d["turn"]["text"], "round": d["round"],
        "ships": [[x["name"], x["site"], x["slots"]] for x in d["ships"]],
        "sites": {
            "M": s["M"]["display"], "P": pyr,
            "T": [[c, c[-1:]] for c in s["T"]["columns"]],
            "C": [[r + 1, c + 1, x] for r, row in enumerate(s["C"]["rows"])
                  for c, x in enumerate(row)],
            "O": [o["heights"], []] if o["side"] == "A" else [o["waiting"], o["towers"]],
        },
        "seats": [[x["seat"], x["score"], x["sled"], x["quarry"],
                   " ".join(c + (f"\u00d7{n}" if n > 1 else "") for c, n in x["cards"].items())
                   or "none", d["turn"]["seat"] == x["seat"]] for x in d["seats"]],
    }


def _sorted_chamber(drawn: dict[str, Any]) -> dict[str, Any]:
    drawn["sites"]["C"] = sorted(drawn["sites"]["C"])
    return drawn


def imhotep_record(players: int, variant: str, seed: int) -> GameRecord:
    """A whole Imhotep game between the bundled random engine (real subprocesses)."""
    engines = Engine.start_all([Engine(engine_command("random"), name="random")
                                for _ in range(players)])
    try:
        return play_game(engines, seed=seed, time_control=TimeControl(movetime=2000),
                         game=get_game("imhotep"), variant=variant)
    finally:
        Engine.quit_all(engines)


@pytest.mark.parametrize(("players", "variant", "seed"),
                         [(3, "AAAAA", 61), (4, "BBBBB", 62), (2, "BABAB", 63)])
def test_an_imhotep_page_draws_every_ply_as_the_position_is(browser, tmp_path, players,
                                                            variant, seed):
    """Step through a recorded Imhotep game with the keys: at every ply the ships (slots,
    stone colours, where docked), the five sites' stones, the market display, each seat's
    score, sled, quarry and cards and whose decision it is are what the position holds;
    then back, to the end and the start, and a click in the move list."""
    rec = imhotep_record(players, variant, seed)
    page = write_page(tmp_path, rec, "imhotep")
    html = page.read_text(encoding="utf-8")
    for remote in ("http://", "https://", "<link", " src="):
        assert remote not in html
    game = get_game("imhotep")
    want = [_sorted_chamber(drawn_from_data(game.page_data(state), k)) for k, state in
            enumerate(plies(GameEntry(rec), game.standard_edition()))]
    last = len(want) - 1
    assert last > 40
    browser.get(page.as_uri())
    assert browser.title == "Imhotep game"
    body = browser.find_element(By.TAG_NAME, "body")

    def check(k: int) -> None:
        assert _sorted_chamber(browser.execute_script(DRAWN)) == want[k]
        assert browser.find_element(By.ID, "ply-label").text == f"Ply {k} of {last}"

    check(0)
    for k in range(1, last + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        check(k)
    body.send_keys(Keys.ARROW_LEFT)
    check(last - 1)
    body.send_keys(Keys.HOME)
    check(0)
    body.send_keys(Keys.END)
    check(last)
    assert want[last]["turn"].startswith("Game over: 1. seat ")
    browser.find_element(By.CSS_SELECTOR, '#moves li[data-ply="9"]').click()
    check(9)
    # The side-B pieces are there when the sides are.
    sides = {site: side for site, side in zip("MPTCO", variant[:5], strict=True)}
    for site, side in sides.items():
        shown = browser.find_element(By.CSS_SELECTOR, f'.site[data-site="{site}"]')
        assert shown.get_attribute("data-side") == side
    body.send_keys(Keys.END)
    if sides["P"] == "B":
        assert len(browser.find_elements(By.CSS_SELECTOR, ".site[data-site=P] .pyr")) == 3
    browser.save_screenshot(str(tmp_path / "imhotep.png"))
    assert (tmp_path / "imhotep.png").stat().st_size > 20_000
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_a_tournament_games_title_does_not_call_its_number_a_round(browser, tmp_path):
    """A tournament's record has [Round "N"] (its game number): the page's title says
    'no. N of the event', not 'round N' beside the game's own 'Round 2 of 6'."""
    rec = imhotep_record(2, "AAAAA", 64)
    rec.header.event, rec.header.round = "club", "7"
    page = write_page(tmp_path, rec, "tournament")
    browser.get(page.as_uri())
    title = browser.find_element(By.ID, "title").text
    assert title.startswith("club · game 1 · no. 7 of the event"), title
    assert "round" not in title.lower()


def test_an_imhotep_page_shows_the_final_scoring(browser, tmp_path):
    """At the end of an Imhotep game the page shows each seat's final scoring by source
    (before + parts = total, the seat's score); before the end it shows none."""
    rec = imhotep_record(3, "AAAAA", 65)
    page = write_page(tmp_path, rec, "final")
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    assert not browser.find_element(By.ID, "final-box").is_displayed()
    body.send_keys(Keys.END)
    assert browser.find_element(By.ID, "final-box").is_displayed()
    rows = browser.find_elements(By.CSS_SELECTOR, "#final tr[data-seat]")
    assert len(rows) == 3
    scores = {r.seat: r.scores["points"] for r in rec.header.result}
    for row in rows:
        cells = [int(td.text.split()[-1]) for td in row.find_elements(By.TAG_NAME, "td")]
        assert cells[0] == int(row.get_attribute("data-seat"))
        assert sum(cells[1:-1]) == cells[-1] == scores[cells[0]]
    body.send_keys(Keys.HOME)
    assert not browser.find_element(By.ID, "final-box").is_displayed()


_BOTTOM = ("return [window.innerHeight, "
           "document.getElementById('key-box').getBoundingClientRect().bottom]")


@pytest.mark.parametrize(("players", "seed"), [(2, 54), (3, 56), (4, 57)])
def test_the_sneferu_key_is_in_view_without_scrolling(browser, tmp_path, players, seed):
    """At 1400 x 1000 (the fixture's window) the key of a Sneferu game of 2, 3 and 4 seats
    is in view at the first ply, the second and the last: it sits above the moves, beside
    the seats (whose pyramids take two rows at 3 and 4 seats)."""
    page = write_page(tmp_path, random_game(players, seed), f"key{players}")
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    assert len(browser.find_elements(By.CSS_SELECTOR, "section.seat")) == players
    for keys in ((Keys.HOME,), (Keys.HOME, Keys.RIGHT), (Keys.END,)):
        body.send_keys(*keys)
        height, bottom = browser.execute_script(_BOTTOM)
        assert 0 < bottom <= height, (keys, bottom, height)


_LAYOUT = """
const holes = [...document.querySelectorAll('#sites .hole')];
const cells = [...document.querySelectorAll('.chamber [data-row="1"]')];
const gaps = cells.slice(1).map((c, i) =>
  c.getBoundingClientRect().left - cells[i].getBoundingClientRect().right);
return [holes.filter(h => h.scrollWidth > h.clientWidth).map(h => h.textContent),
        holes.map(h => h.textContent), gaps];
"""


def test_imhotep_side_b_labels_fit_and_chamber_columns_touch(browser, tmp_path):
    """Side B: the pyramid's bonus labels (CARD, STONES, LOAD) fit their places, and the
    burial chamber's columns sit side by side (adjacent stones look adjacent), at every
    ply of a game."""
    rec = imhotep_record(3, "BBBBB", 66)
    page = write_page(tmp_path, rec, "sideb")
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    labels: set[str] = set()
    widest = 0
    last = len([e for e in rec.events if type(e).__name__ == "Turn"])
    for _ in range(last + 1):
        overflowing, texts, gaps = browser.execute_script(_LAYOUT)
        assert overflowing == []
        labels.update(texts)
        assert all(g <= 4 for g in gaps), gaps
        widest = max(widest, len(gaps) + 1)
        body.send_keys(Keys.RIGHT)
    assert {"CARD", "STONES", "LOAD"} <= labels
    assert widest >= 3


def test_the_page_says_the_last_move(browser, tmp_path):
    """Under whose turn it is, the page says the move that led to the position shown (and
    the draws after it), in every game; nothing at the start."""
    for rec, name in ((random_game(2, 55), "sneferu"), (imhotep_record(2, "AAAAA", 67),
                                                         "imhotep")):
        page = write_page(tmp_path, rec, name)
        browser.get(page.as_uri())
        body = browser.find_element(By.TAG_NAME, "body")
        assert browser.find_element(By.ID, "last-move").text == ""
        turns = [e for e in rec.events if type(e).__name__ == "Turn"]
        for k in (1, 2, len(turns)):
            body.send_keys(Keys.HOME, *[Keys.RIGHT] * k)
            text = browser.find_element(By.ID, "last-move").text
            t = turns[k - 1]
            assert text.startswith(f"Last move: seat {t.seat}: {t.move}"), (k, text)


# Every ply's marked elements (outside the key), each as a short description.
_MARKED = """
const out = [];
for (let k = 0; k < GAME.steps.length; k++) {
  show(k);
  out.push([...document.querySelectorAll('main .last-move')].filter(e => !e.closest('#key-box'))
    .map(e => e.matches('#offer td') ? 'offer ' + e.dataset.column + '.' + e.dataset.row
      : e.matches('.pyramid .slot') ? 'slot ' + e.closest('.pyramid').dataset.seat + ' ' +
          e.dataset.at + ' ' +
          [...e.querySelectorAll('.cell')].map(c => c.dataset.material).join('')
      : e.matches('.ship [data-slot]') ? 'slot ' + e.closest('.ship').dataset.ship + '.' +
          e.dataset.slot + ' ' + (e.dataset.stone || '')
      : e.matches('.ship') ? 'ship ' + e.dataset.ship
      : e.matches('.site') ? 'site ' + e.dataset.site
      : e.matches('.sled') ? 'sled ' + e.closest('.seat').dataset.seat
      : e.matches('.card') ? 'card ' + e.dataset.slot
      : e.matches('[data-pyramid]') ? 'pyramid ' + e.dataset.pyramid
      : e.matches('.pair') ? 'pair' : e.matches('.temple') ? 'temple' : e.outerHTML).sort());
}
return out;
"""


def _sneferu_marks(seat: int, move: str) -> list[str]:
    """What the page marks for a Sneferu move (SPEC 3): the offer place of each buy, and
    each slot placed on, which then holds the placed stone's two materials."""
    out = []
    for step in move.split():
        if step.rstrip("+").replace(".", "").isdigit():
            out.append("offer " + step.rstrip("+"))
        elif "@" in step:
            stone, at = step.rstrip("h").split("@")
            out.append(f"slot {seat} {at} {stone}")
    return sorted(out)


def _imhotep_marks(seat: int, move: str, colour: str, ships: set[str]) -> list[str]:
    """What the page marks for an Imhotep move (SPEC 13.2): the slots a stone went to (of
    the mover's colour after L, HAM, CHI and a LOAD bonus), the ship sailed and its site, the
    sled that took stones, the market card taken, the pyramid or temple chosen. A ship
    is marked while it is drawn (``ships``: not after the round's last ship docked)."""
    words = move.split()
    out = []
    for w in words[1:]:
        if w[:2] not in ships and w[:1].isdigit():
            continue
        if "." in w:
            out.append(f"slot {w} {colour if words[0] in ('L', 'HAM', 'CHI', 'pyr') else ''}")
        elif len(w) == 2 and w[0].isdigit():
            out.append("ship " + w)
        elif w in ("M", "P", "T", "C", "O"):
            out.append("site " + w)
    if words[0] in ("Q", "HAM"):
        out.append(f"sled {seat}")
    if words[0] == "take":
        out.append("pair" if words[1] == "MX" else "card " + words[1])
    if words[0] == "keep":
        out.append("site M")
    if words[0] == "pyr":
        out.append("pyramid " + words[1])
    if words[0] == "temple":
        out.append("temple")
    return sorted(out)


def test_the_page_marks_the_last_move_on_the_board(browser, tmp_path):
    """Sneferu: the offer place bought from and the pyramid slots built on are outlined;
    Imhotep: the ship slots loaded (holding the mover's stone), the ship sailed and the
    site it went to, the sled, the market card, the pyramid or temple chosen. At every
    ply of a game; nothing at the start."""
    colours = "KWBG"
    for rec, name in ((random_game(3, 58, builders="random"), "sneferu"),
                      (imhotep_record(3, "BBBBB", 68), "imhotep"),
                      (imhotep_record(2, "AAAAA", 69), "imhotep")):
        page = write_page(tmp_path, rec, name)
        browser.get(page.as_uri())
        marked = browser.execute_script(_MARKED)
        turns = [e for e in rec.events if type(e).__name__ == "Turn"]
        assert len(marked) == len(turns) + 1
        assert marked[0] == []
        if name == "imhotep":
            game = get_game(name)
            ships = [{x["name"] for x in game.page_data(state)["ships"]}
                     for state in plies(GameEntry(rec), game.standard_edition())]
        kinds = set()
        for k, t in enumerate(turns, start=1):
            want = (_sneferu_marks(t.seat, t.move) if name == "sneferu"
                    else _imhotep_marks(t.seat, t.move, colours[t.seat - 1], ships[k]))
            assert marked[k] == want, (k, t.seat, t.move)
            kinds.add(t.move.split()[0] if name == "imhotep" else "buy")
        if name == "imhotep":
            assert {"Q", "L", "S", "take"} <= kinds, kinds
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.HOME, Keys.RIGHT)
        assert browser.find_elements(By.CSS_SELECTOR, "main .last-move:not(#key-box *)")

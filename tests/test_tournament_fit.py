"""The batch rating fit (SPEC.md 9.6): against a plain-Python MM algorithm and a closed
form, order invariance, anchors, a known population recovered, and ``tournament report
--fit`` through the command line."""

from __future__ import annotations

import csv
import io
import json
import math
import random
import subprocess
import sys

import msgspec
from support import run_cli
from tournament_support import record

from sneferu_cli.record.text import format_records
from sneferu_cli.tournament.fit import ELO, _stages, fit_ratings
from sneferu_cli.tournament.standings import plackett_luce

Game = list[tuple[str, int]]


def random_games(count: int, names: list[str], seed: int, *, ties: bool = True,
                 seats: tuple[int, ...] = (2, 3, 4)) -> list[Game]:
    """``count`` games of random tables and ranks (shared places when ``ties``)."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        table = rng.sample(names, rng.choice(seats))
        if ties:
            ranks = [rng.randint(1, len(table)) for _ in table]
            ranks = [1 + sum(1 for s in ranks if s < r) for r in ranks]  # 1 2 2 4 style
        else:
            ranks = rng.sample(range(1, len(table) + 1), len(table))
        games.append(list(zip(table, ranks, strict=True)))
    return games


def simulate(strength: dict[str, float], count: int, seed: int) -> list[Game]:
    """Four-seat games drawn from a Plackett-Luce model with these Elo strengths: each
    seat's strength in logits plus a Gumbel draw, ranked highest first."""
    rng = random.Random(seed)
    names = list(strength)
    games = []
    for _ in range(count):
        table = rng.sample(names, 4)
        noisy = {n: strength[n] / ELO - math.log(-math.log(rng.random())) for n in table}
        order = sorted(table, key=lambda n: -noisy[n])
        games.append([(n, order.index(n) + 1) for n in table])
    return games


def mm_fit(games: list[Game]) -> dict[str, float]:
    """Hunter's (2004) MM algorithm for Plackett-Luce, written out from SPEC.md 9.5's
    description of a game (every choice, the last included; a place shared by m seats is m
    choices j = 0 .. m-1 with the tied seats weighted 1 - j/m): each engine's strength
    gamma <- (its choices) / sum over the pools it is in of weight / pool. Log-strengths,
    mean 0, in logits."""
    choices: list[list[tuple[str, float]]] = []  # each pool: (engine, weight)
    chosen: dict[str, float] = {}
    for game in games:
        for place in sorted({r for _, r in game}):
            tied = [n for n, r in game if r == place]
            below = [n for n, r in game if r > place]
            for j in range(len(tied)):
                w = 1 - j / len(tied)
                choices.append([(n, w) for n in tied] + [(n, 1.0) for n in below])
            for n in tied:
                chosen[n] = chosen.get(n, 0) + 1
    gamma = dict.fromkeys(chosen, 1.0)
    for _ in range(100_000):
        denominator = dict.fromkeys(gamma, 0.0)
        for pool in choices:
            total = sum(w * gamma[n] for n, w in pool)
            for n, w in pool:
                denominator[n] += w / total
        new = {n: chosen[n] / denominator[n] for n in gamma}
        scale = math.exp(sum(math.log(g) for g in new.values()) / len(new))
        new = {n: g / scale for n, g in new.items()}
        change = max(abs(math.log(new[n] / gamma[n])) for n in gamma)
        gamma = new
        if change < 1e-13:
            break
    return {n: math.log(g) for n, g in gamma.items()}


def test_fit_agrees_with_mm_on_games_with_shared_places():
    games = random_games(80, ["A", "B", "C", "D", "E"], seed=7)
    assert any(len({r for _, r in g}) < len(g) for g in games)  # shared places among them
    fit = fit_ratings(games, ridge=0.0, provisional=0)
    expected = mm_fit(games)
    for name, theta in expected.items():
        assert abs(fit.engines[name].rating / ELO - theta) < 1e-6, name
    assert fit.games == 80


def test_fit_agrees_with_mm_without_shared_places():
    games = random_games(60, ["A", "B", "C", "D"], seed=11, ties=False, seats=(4,))
    fit = fit_ratings(games, ridge=0.0, provisional=0)
    for name, theta in mm_fit(games).items():
        assert abs(fit.engines[name].rating / ELO - theta) < 1e-6, name


def test_two_seats_is_bradley_terry_on_the_elo_scale():
    """A wins 30 of 40 against B: A - B = 400 log10(30/10), the Elo formula's difference
    for a 75% score."""
    games = [[("A", 1), ("B", 2)]] * 30 + [[("A", 2), ("B", 1)]] * 10
    fit = fit_ratings(games, ridge=0.0)
    a, b = fit.engines["A"], fit.engines["B"]
    assert abs(a.rating - b.rating - 400 * math.log10(3)) < 1e-6
    assert abs(a.rating + b.rating) < 1e-9  # no anchor: the mean is 0
    # the interval of a difference of two: sqrt(1/30 + 1/10) logits, half of it each
    assert abs(a.ci - 1.959964 * ELO * math.sqrt(1 / 30 + 1 / 10) / 2) < 1e-3


def test_order_of_games_changes_no_rating():
    games = random_games(10_000, [f"e{i}" for i in range(12)], seed=3)
    first = fit_ratings(games)
    shuffled = games[:]
    random.Random(5).shuffle(shuffled)
    second = fit_ratings([list(reversed(g)) for g in shuffled])
    for name, row in first.engines.items():
        assert abs(row.rating - second.engines[name].rating) <= 0.01
        assert abs(row.ci - second.engines[name].ci) <= 0.01


def test_anchors_are_held_and_place_the_others():
    games = random_games(300, ["A", "B", "C", "D"], seed=9)
    free = fit_ratings(games)
    one = fit_ratings(games, {"A": 1500.0})
    assert one.engines["A"].rating == 1500.0
    assert (one.engines["A"].anchored, one.engines["A"].ci) == (True, 0.0)
    shift = 1500.0 - free.engines["A"].rating
    for name in "BCD":  # one anchor places the others as they stood against it
        assert abs(one.engines[name].rating - free.engines[name].rating - shift) < 1e-4
        assert not one.engines[name].anchored
    two = fit_ratings(games, {"A": 1500.0, "B": 1000.0})
    assert (two.engines["A"].rating, two.engines["B"].rating) == (1500.0, 1000.0)
    assert two.anchors == {"A": 1500.0, "B": 1000.0}


def test_a_known_population_is_recovered():
    strength = {f"s{k}": 100.0 * k - 350 for k in range(8)}  # -350 .. 350 Elo, mean 0
    fit = fit_ratings(simulate(strength, 4000, seed=1))
    got = {n: r.rating for n, r in fit.engines.items()}
    assert sorted(got, key=got.__getitem__) == list(strength)  # the same order
    for name, true in strength.items():
        row = fit.engines[name]
        assert abs(row.rating - true) < 2 * row.ci, (name, row)  # within 4 standard errors
        assert 10 < row.ci < 40
    assert abs(sum(got.values())) < 1e-6


def test_an_engine_that_won_every_game_has_a_finite_rating():
    games = [[("top", 1), ("A", 2), ("B", 3)]] * 5 + random_games(60, ["A", "B", "C"], seed=2,
                                                                  seats=(2, 3))
    fit = fit_ratings(games)
    top = fit.engines["top"]
    assert math.isfinite(top.rating) and math.isfinite(top.ci)
    assert top.rating > max(r.rating for n, r in fit.engines.items() if n != "top")
    assert top.provisional and top.games == 5
    assert not fit.engines["A"].provisional


def test_games_the_fit_leaves_out():
    """One engine in two seats, or a table of one: not fitted (as the online rating)."""
    games = [[("A", 1), ("A", 2)], [("B", 1)], [("A", 1), ("B", 2)], [("A", 2), ("B", 1)]]
    fit = fit_ratings(games)
    assert fit.games == 2
    assert fit.engines["A"].games == 2
    assert abs(fit.engines["A"].rating) < 1e-6


# ------------------------------------------------------------------ command line


def write_records(path: str, seed: int, count: int = 60) -> None:
    rng = random.Random(seed)
    recs = []
    for i in range(count):
        names = rng.sample(["A", "B", "C", "D"], 3)
        recs.append(record(names, [rng.randint(1, 3) for _ in names], deal=i))
    recs.append(record(["A", "E"], [1, 2]))
    with open(path, "w") as f:
        f.write(format_records(recs))


def test_report_fit_text_json_and_csv(tmp_path):
    write_records(str(tmp_path / "a.rec"), 1)
    write_records(str(tmp_path / "b.rec"), 2)
    files = [str(tmp_path / "a.rec"), str(tmp_path / "b.rec")]
    text = run_cli("tournament", "report", *files, "--fit")
    assert text.returncode == 0, text.stderr
    head, *lines = text.stdout.splitlines()
    assert head.split()[-3:] == ["rating", "fit", "faults"]
    e_line = next(line for line in lines if line.split()[1] == "E")
    assert e_line.split()[-2] == "?"  # E played one game: provisional
    assert "(fit: all 122 games at once, Plackett-Luce maximum likelihood" in text.stdout
    data = json.loads(run_cli("tournament", "report", *files, "--fit", "--json").stdout)
    assert data["games"] == 122 and data["fit_anchors"] == {}
    assert data["fit_model"].startswith("Plackett-Luce maximum likelihood")
    rows = {e["name"]: e for e in data["engines"]}
    assert rows["E"]["provisional"] is True and rows["A"]["provisional"] is False
    settled = [e["fit"] for e in data["engines"] if not e["provisional"]]
    assert abs(sum(settled)) < 1e-6  # no anchor: the mean of those not provisional is 0
    direct = fit_ratings([[(e, 1)] for e in ()])  # an empty fit is fine
    assert direct.engines == {}
    table = list(csv.DictReader(io.StringIO(
        run_cli("tournament", "report", *files, "--fit", "--csv").stdout)))
    assert list(table[0])[-5:] == ["fit", "fit_ci", "provisional", "anchored", "faults"]
    by_name = {r["engine"]: r for r in table}
    assert float(by_name["B"]["fit"]) == float(f"{rows['B']['fit']:.6g}")
    assert by_name["E"]["provisional"] == "true"


def test_report_anchors(tmp_path):
    path = str(tmp_path / "a.rec")
    write_records(path, 1)
    out = run_cli("tournament", "report", path, "--anchor", "A=1500", "--anchor", "B=1400",
                  "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rows = {e["name"]: e for e in data["engines"]}
    assert (rows["A"]["fit"], rows["A"]["anchored"], rows["A"]["fit_ci"]) == (1500, True, 0)
    assert rows["B"]["fit"] == 1400 and rows["C"]["anchored"] is False
    assert data["fit_anchors"] == {"A": 1500.0, "B": 1400.0}
    text = run_cli("tournament", "report", path, "--anchor", "A=1500").stdout
    assert "1500.0 =" in text and "placed against A = 1500" in text
    without = run_cli("tournament", "report", path).stdout
    assert "fit" not in without.splitlines()[0]  # without --fit, the standings as they were


def test_report_fit_bad_input(tmp_path):
    path = str(tmp_path / "a.rec")
    write_records(path, 1)
    for args, words in [(["--anchor", "A"], "'A': expected NAME=RATING"),
                        (["--anchor", "A=x"], "'A=x': expected NAME=RATING"),
                        (["--anchor", "A=1", "--anchor", "A=2"], "'A' is anchored twice"),
                        (["--anchor", "Z=3"], "anchor Z: no game of that engine")]:
        out = run_cli("tournament", "report", path, *args)
        assert out.returncode == 2, args
        assert words in out.stderr and "Traceback" not in out.stderr
    no_file = run_cli("tournament", "report", path, str(tmp_path / "none.rec"), "--fit")
    assert no_file.returncode == 2 and "none.rec: cannot read" in no_file.stderr


def test_report_fit_without_scipy_says_what_to_install(tmp_path):
    path = str(tmp_path / "a.rec")
    write_records(path, 1)
    blocked = ("import sys, runpy; sys.modules['scipy'] = None; "
               "runpy.run_module('sneferu_cli', run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", blocked, "tournament", "report", path, "--fit"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert 'the batch fit needs numpy and scipy: pip install "sneferu[rating]"' in out.stderr
    plain = subprocess.run([sys.executable, "-c", blocked, "tournament", "report", path],
                           capture_output=True, text=True, timeout=60)
    assert plain.returncode == 0 and "rating" in plain.stdout  # the rest needs neither


def test_report_takes_the_anchors_of_a_tournament_file(tmp_path):
    path = str(tmp_path / "a.rec")
    write_records(path, 1)
    toml = tmp_path / "t.toml"
    toml.write_text('seats = 3\n[[engine]]\nname = "A"\ncommand = "random"\nanchor = 1500\n'
                    '[[engine]]\nname = "B"\ncommand = "random"\n'
                    '[[engine]]\nname = "C"\ncommand = "random"\nanchor = 1200.5\n')
    out = run_cli("tournament", "report", path, "--config", str(toml), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["fit_anchors"] == {"A": 1500.0, "C": 1200.5}
    over = run_cli("tournament", "report", path, "--config", str(toml), "--anchor", "A=1000",
                   "--json")
    assert json.loads(over.stdout)["fit_anchors"] == {"A": 1000.0, "C": 1200.5}
    toml.write_text('[[engine]]\nname = "A"\ncommand = "random"\nanchor = nan\n')
    bad = run_cli("tournament", "report", path, "--config", str(toml))
    assert bad.returncode == 2 and "anchor: must be a finite number" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_an_anchor_leaves_the_tournament_fingerprint_alone():
    from sneferu_cli.tournament import load_config

    engines = ["name=A command=random", "name=B command=random"]
    plain = load_config(None, {"engine": engines, "seed": 1})
    anchored = msgspec.structs.replace(plain, engines=[
        msgspec.structs.replace(plain.engines[0], anchor=1500.0), plain.engines[1]])
    assert anchored.anchors() == {"A": 1500.0}
    assert anchored.fingerprint() == plain.fingerprint()


def test_the_fit_treats_shared_places_as_the_online_update_does():
    """At equal strengths, the gradient of one game's log-likelihood in the fit (its
    choices from ``_stages``, each seat chosen once but the last held alone) is the online
    update's g_i (SPEC.md 9.5): mu moves by sigma²/c · g_i."""
    for ranks in ([1, 1, 3, 4], [1, 2, 2, 4], [1, 2, 3, 3], [1, 1, 1, 4], [1, 1, 1, 1],
                  [1, 2, 2], [1, 1]):
        k = len(ranks)
        stages = _stages(sorted(ranks))
        last_alone = sorted(ranks).count(max(ranks)) == 1
        grad = [0.0 if last_alone and i == k - 1 else 1.0 for i in range(k)]
        for weights in stages:
            for i, w in enumerate(weights):
                grad[i] -= w / sum(weights)
        mu, sigma, beta = 25.0, 25 / 3, 25 / 6
        c = math.sqrt(k * (sigma**2 + beta**2))
        moved = plackett_luce([(mu, sigma)] * k, sorted(ranks), beta, 0.0001)
        for i, (new_mu, _) in enumerate(moved):
            assert abs((new_mu - mu) * c / sigma**2 - grad[i]) < 1e-12, (ranks, i)

"""``sneferu bench``: it runs and reports; the counts follow from the seed (not its speed)."""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, run_cli

from sneferu_cli.arbiter.bench import instant_engine, pipe_round_trip, time_moves
from sneferu_cli.bench import STEP_ROUNDS
from sneferu_cli.game import GAMES, get_game
from sneferu_cli.games.sneferu.bench import core_build, play_random, run_bench
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.record import read_records
from sneferu_cli.record.model import turn_count
from sneferu_cli.tournament.bench import engine_games_command, tournament_cpu
from sneferu_cli.tournament.runner import WORKER_NAME


def counts(stdout: str) -> dict[str, str]:
    """measure -> count, from the table."""
    rows = {}
    for line in stdout.splitlines()[3:]:
        words = line.split()
        rows[" ".join(words[:-3])] = words[-3]
    return rows


def test_bench_prints_the_table_with_the_python_version():
    r = run_cli("bench", "--games", "3", "--seed", "7", "--rules")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "sneferu bench: 4 players, standard variant, 3 games, seed 7"
    assert lines[1].startswith("python 3.")
    assert lines[2].split() == ["measure", "count", "seconds", "per", "second"]
    rows = counts(r.stdout)
    assert list(rows) == ["random games", "actions in those games", "legal steps generated",
                          "legal_steps() calls", "positions written", "positions read",
                          "random games, game interface"]
    assert rows["random games"] == "3"


def test_the_counts_follow_from_the_seed():
    a = run_cli("bench", "-n", "2", "--seed", "11", "-p", "3", "--builders", "random", "--rules")
    b = run_cli("bench", "-n", "2", "--seed", "11", "-p", "3", "--builders", "random", "--rules")
    c = run_cli("bench", "-n", "2", "--seed", "12", "-p", "3", "--builders", "random", "--rules")
    assert a.returncode == b.returncode == c.returncode == 0, a.stderr + c.stderr
    assert "builders (random) variant" in a.stdout.splitlines()[0]
    assert counts(a.stdout) == counts(b.stdout)
    assert counts(a.stdout) != counts(c.stdout)


def test_the_games_are_the_random_games_of_play_random():
    report = run_bench(players=2, games=4, seed=5)
    rng, actions = random.Random(5), 0
    for _ in range(4):
        state = new_game(2)
        actions += play_random(state, rng)
        assert state.is_over()
    figures = {f.what: f for f in report.figures}
    assert figures["actions in those games"].count == actions
    assert report.sample * STEP_ROUNDS == figures["legal_steps() calls"].count
    assert figures["random games, game interface"].count == 4


def test_bench_rejects_bad_options_in_one_line():
    pos = "standard standard " + "?," * 14 + "? -/-/-/- 10,10,10,10,10,10,10,10,10,10 - " \
        "-,6,0.?,------/-----/----/---/--/-,-,- setup"
    for args in (["--games", "0"], ["--players", "5"], ["--builders", "Nobody", "-p", "1"],
                 ["--perft", pos, "--games", "5"], ["--json"], ["--depth", "2"],
                 ["--perft", pos, "--rules"], ["--rules", "--engine-games", "2"],
                 ["--engine-games", "0"], ["--tournament-games", "0"],
                 ["--rules", "--tournament-games", "2"], ["--perft", pos,
                                                          "--tournament-games", "2"]):
        r = run_cli("bench", *args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("sneferu: ") and len(r.stderr.splitlines()) == 1, r.stderr


ENGINE_ROWS = ["pipe round trip (Python <-> cat)", "pipe round trip (file objects)",
               "move, legal-move engines (instant)",
               "move, own-rules engines (random)", "random game, rules only",
               "random game, game interface", "legal step generated"]


def test_bench_measures_pipes_and_engines_in_the_same_run():
    """Without --rules: after the rules table, each figure per second, the time of one and
    its multiple of the floor (the pipe round trip, 1.0)."""
    r = run_cli("bench", "--games", "3", "--engine-games", "1", "-p", "2", "--seed", "4",
                "--tournament-games", "2", timeout=120)
    assert r.returncode == 0, r.stderr
    rules, engines, tournament = r.stdout.split("\n\n")
    check_tournament_part(tournament, 2, 2)
    assert list(counts(rules)) == ["random games", "actions in those games",
                                   "legal steps generated", "legal_steps() calls",
                                   "positions written", "positions read",
                                   "random games, game interface"]
    lines = engines.splitlines()
    assert re.fullmatch(r"engines: 2 seats, 1 games from seed 4, movetime 60000; "
                        r"load average \d+\.\d\d on \d+ cores", lines[0]), lines[0]
    assert lines[2] == ("legal-move engine: engines/instant.c built with cc; "
                        "own-rules engine: random (Python)")
    lines = lines[engine_head(engines):]
    assert lines[0].split() == ["figure", "per", "second", "time", "each", "x", "floor",
                                "arbiter", "CPU"]
    rows, cpu = {}, {}
    for line in lines[1:]:
        m = re.fullmatch(r"(.+?) +([\d,]+) +([\d,]+\.\d) µs +([\d,]+\.\d)"
                         r"(?: +([\d,]+\.\d) µs)?", line)
        assert m, line
        rows[m.group(1)] = float(m.group(4).replace(",", ""))
        cpu[m.group(1)] = m.group(5)
    assert list(rows) == ENGINE_ROWS
    assert rows[ENGINE_ROWS[0]] == 1.0
    assert [k for k, v in cpu.items() if v is not None] == ENGINE_ROWS[2:4]


def check_tournament_part(text: str, games: int, seats: int) -> None:
    """The tournament figure of ``sneferu bench``: its own CPU per turn, the multiple of
    the floor, the coordinator's and the worker's parts (no speed is asserted)."""
    lines = text.splitlines()
    assert re.fullmatch(rf"tournament: sneferu tournament -j 1, {games} games between "
                        rf"{seats} instant engines at one table \([\d,]+ turns\)",
                        lines[0]), lines[0]
    assert lines[1].split() == ["figure", "own", "CPU", "each", "x", "floor", "coordinator",
                                "worker"]
    m = re.fullmatch(r"tournament turn +([\d,]+\.\d) µs +[\d,]+\.\d +([\d,]+\.\d) µs"
                     r" +([\d,]+\.\d) µs", lines[2])
    assert m, lines[2]
    own, coordinator, worker = (float(g.replace(",", "")) for g in m.groups())
    assert abs(coordinator + worker - own) < 0.15 and coordinator > 0
    assert lines[3].startswith("(the run's processes read from /proc; its engines, "
                               "engines/instant.c built with cc, left out: ")
    assert len(lines) == 4


def test_a_tournaments_own_cpu_leaves_the_engines_out(tmp_path):
    """tournament_cpu runs a real tournament: the turns are those of its records; its own
    processes are the coordinator and the worker (named so), the engines apart."""
    engine, _ = instant_engine(tmp_path)
    m = tournament_cpu(engine, game="sneferu", seats=2, deals=2, seed=3)
    assert m.games == 4
    argv = engine_games_command(engine, game="sneferu", seats=2, deals=2, seed=3,
                                records=str(tmp_path / "t.rec"))
    assert subprocess.run(argv, capture_output=True, timeout=120).returncode == 0
    records = read_records((tmp_path / "t.rec").read_text()).games
    assert m.turns == sum(turn_count(g.record.events) for g in records)
    assert set(m.own) == {"coordinator", WORKER_NAME} and m.own["coordinator"] > 0
    assert m.per_turn == sum(m.own.values()) / m.turns * 1e6


@pytest.mark.parametrize("file_objects", [False, True])
def test_the_floor_is_a_line_through_cat(file_objects):
    assert 0 < pipe_round_trip(50, file_objects=file_objects) < 1e6


@pytest.mark.parametrize("compiler", [True, False])
def test_the_instant_engine_plays_legal_games_in_c_or_python(compiler, tmp_path, monkeypatch):
    """With a C compiler engines/instant.c is built and used; without one (no cc, gcc or
    clang on the PATH), engines/instant.py, and the bench says which."""
    if not compiler:
        monkeypatch.setenv("PATH", str(tmp_path))
    argv, which = instant_engine(Path(tmp_path))
    assert which == ("engines/instant.c built with cc" if compiler
                     else "engines/instant.py (no C compiler found)")
    assert argv[-1].endswith("instant" if compiler else "instant.py")
    turns, seconds, cpu = time_moves(argv, 3, 2, 9, None, standard_edition())
    assert turns > 40 and seconds > 0 and cpu > 0  # (_moves raises if a seat was retired)


def test_bench_says_whether_the_rules_core_is_compiled():
    """The python line names the build the tests import: mypyc-compiled or pure Python."""
    r = run_cli("bench", "--rules", "--games", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].endswith(f", rules core {core_build()}")
    assert core_build() in ("compiled (mypyc)", "pure Python")
    r = run_cli("bench", "--rules", "--games", "1", "--game", "imhotep")  # same build
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].endswith(f", rules core {core_build()}")


def test_every_module_declared_compiled_is_compiled_in_a_compiled_build():
    """Each compiled.txt that hatch_build.py reads (every game's folder, and the layers'
    with a per-move path: the arbiter's, the protocol's, the bindings') names modules that
    are there; in a compiled build (CI) every one is an extension module, in a pure one
    none."""
    compiled = core_build() == "compiled (mypyc)"
    declared = sorted({*(ROOT / "sneferu_cli" / "games").glob("*/compiled.txt"),
                       *(ROOT / "sneferu_cli").glob("*/compiled.txt")})
    assert {"imhotep", "sneferu", "arbiter", "protocol", "rl"} <= {
        p.parent.name for p in declared}
    for path in declared:
        names = [line.split("#", 1)[0].strip() for line in path.read_text().splitlines()]
        for name in filter(None, names):
            assert (path.parent / name).is_file(), (path, name)
            module = (path.parent / name).relative_to(ROOT).with_suffix("").as_posix()
            imported = importlib.import_module(module.replace("/", "."))
            assert (imported.__file__ or "").endswith(".py") != compiled, imported.__file__


# ------------------------------------------------------------------ another game

SNEFERU_ONLY = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'instant.py'}"


def engine_head(table: str) -> int:
    """The index of the engines table's heading, after the lines that say what the figures
    depend on: the machine, the engines, the floor's spread and, only when the rules core
    is pure Python, a line saying so."""
    lines = table.splitlines()
    assert re.fullmatch(r"machine: .+, \d+ cores, (pinned to CPU [\d,]+|not pinned)",
                        lines[1]), lines[1]
    assert lines[2].startswith("legal-move engine: "), lines[2]
    assert re.fullmatch(r"floor: median [\d,]+\.\d µs of 2,000 round trips, 10th to 90th "
                        r"percentile [\d,]+\.\d to [\d,]+\.\d µs", lines[3]), lines[3]
    pure = core_build() == "pure Python"
    assert lines[4].startswith("the rules core is pure Python here") == pure, lines[4]
    return 5 if pure else 4


def engine_rows(table: str) -> dict[str, tuple[float, str | None]]:
    """figure -> (x floor, arbiter CPU or None), from the engines table."""
    rows = {}
    for line in table.splitlines()[engine_head(table) + 1:]:
        m = re.fullmatch(r"(.+?) +([\d,]+) +([\d,]+\.\d) µs +([\d,]+\.\d)"
                         r"(?: +([\d,]+\.\d) µs)?", line)
        assert m, line
        rows[m.group(1)] = (float(m.group(4).replace(",", "")), m.group(5))
    return rows


def test_bench_of_imhotep_measures_its_rules_then_pipes_and_engines():
    """--game imhotep: its rules table, then the floor, a move with four instant
    legal-move engines and four bundled random engines playing Imhotep, and the rules'
    random game and legal-move listing, each against the floor."""
    r = run_cli("bench", "--game", "imhotep", "--games", "3", "--engine-games", "1",
                "--seed", "4", "--tournament-games", "4", timeout=120)
    assert r.returncode == 0, r.stderr
    rules, engines, tournament = r.stdout.split("\n\n")
    check_tournament_part(tournament, 4, 4)
    assert rules.splitlines()[0] == ("sneferu bench --game imhotep: 4 players, AAAAA "
                                     "variant, 3 games, seed 4")
    assert list(counts(rules)) == ["random games", "moves and outcomes", "legal moves listed",
                                   "legal_moves() calls", "positions written",
                                   "positions read"]
    lines = engines.splitlines()
    assert re.fullmatch(r"engines: Imhotep, 4 seats, 1 games from seed 4, movetime 60000; "
                        r"load average \d+\.\d\d on \d+ cores", lines[0]), lines[0]
    rows = engine_rows(engines)
    assert list(rows) == [*ENGINE_ROWS[:6], "legal-move listing, rules only"]
    assert rows[ENGINE_ROWS[0]][0] == 1.0
    assert [k for k, (_, cpu) in rows.items() if cpu is not None] == ENGINE_ROWS[2:4]


def test_bench_of_imhotep_takes_the_sneferu_options_as_errors_and_rules_alone():
    for args in (["--builders", "random"], ["--perft", "x"], ["-p", "1"],
                 ["--rules", "--engine-games", "2"]):
        r = run_cli("bench", "--game", "imhotep", *args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("sneferu: ") and len(r.stderr.splitlines()) == 1, r.stderr
    r = run_cli("bench", "--game", "imhotep", "--rules", "--games", "2", "-p", "2")
    assert r.returncode == 0 and "\n\n" not in r.stdout and "pipe" not in r.stdout


@pytest.mark.parametrize("compiler", [True, False])
def test_the_instant_engine_plays_imhotep_in_c_or_python(compiler, tmp_path, monkeypatch):
    """engines/instant.c and instant.py declare `feature games sneferu imhotep`: they play
    Imhotep from the listed moves (time_moves raises if a seat was refused or retired)."""
    if not compiler:
        monkeypatch.setenv("PATH", str(tmp_path))
    argv, _ = instant_engine(Path(tmp_path))
    imhotep = get_game("imhotep")
    turns, seconds, cpu = time_moves(argv, 3, 2, 9, None, imhotep.standard_edition(),
                                     imhotep)
    assert turns > 40 and seconds > 0 and cpu > 0


def test_a_move_is_one_seats_answer_also_at_a_simultaneous_step(tmp_path, monkeypatch):
    """time_moves counts moves, one per go answered (one pipe round trip each): at a
    simultaneous step of Silver & Gold every deciding seat's move counts, not the step."""
    from sneferu_cli.arbiter import bench
    from sneferu_cli.record.model import Simultaneous, seat_turns, turn_count

    records = []

    def recording(*args, **kwargs):
        records.append(play_game(*args, **kwargs))
        return records[-1]

    play_game = bench.play_game
    monkeypatch.setattr(bench, "play_game", recording)
    argv, _ = instant_engine(Path(tmp_path))
    moves, _, _ = time_moves(argv, 3, 1, 5, None, None, get_game("silver-gold"))
    events = records[0].events
    assert moves == sum(len(seat_turns(e)) for e in events)
    steps = [e for e in events if isinstance(e, Simultaneous)]
    assert moves == turn_count(events) + sum(len(e.turns) - 1 for e in steps) > turn_count(events)


def test_an_engine_that_does_not_play_the_game_is_one_line():
    with pytest.raises(OSError, match="does not play imhotep"):
        time_moves(SNEFERU_ONLY.split(), 2, 1, 1, None, None, get_game("imhotep"))


def test_play_bench_of_imhotep_replays_its_games():
    """sneferu play --bench with --game: the games, then the instant replay of the same
    turns (its engines declare the game), the floor and the overhead."""
    r = run_cli("play", "--bench", "1", "random", "js-random" if shutil.which("node")
                else "random", "random", "--game", "imhotep", "--seed", "3", timeout=120)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert re.fullmatch(r"3 engines \(random, .+, random\), 1 game from seed 3, 60\+1:", out[0])
    played, replayed = (int(re.findall(r"(\d+) turns in", line)[0]) for line in out[1:3])
    assert played == replayed > 20 and "warning" not in r.stdout
    r = run_cli("play", "--bench", "1", "random", SNEFERU_ONLY, "--game", "imhotep")
    assert r.returncode == 2 and "does not play imhotep" in r.stderr
    assert len(r.stderr.splitlines()) == 1


def binding_rows(stdout: str) -> list[list[str]]:
    """The words of each line of the --bindings table after its three heading lines, before
    the floors (OpenSpiel's tic-tac-toe, PettingZoo's tictactoe_v3, the two last lines)."""
    lines = stdout.splitlines()[3:]
    return [line.split() for line in lines[:lines.index(next(
        line for line in lines if line.startswith("tic-tac-toe ")))]]


def check_floor(stdout: str, games: list[str], pygame: bool | None = None) -> None:
    """The --bindings table's floors: tic-tac-toe through its own Python methods and
    through pyspiel; PettingZoo's tictactoe_v3 through its own board and through its AEC
    environment (when pettingzoo.classic imports: it needs pygame); then PettingZoo's and
    OpenSpiel's cost beyond each game's own logic, each floor's last (or PettingZoo's
    floor not measured)."""
    lines = stdout.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("tic-tac-toe ")))
    own, spiel = lines[at:at + 2]
    assert own.split()[:4] == ["tic-tac-toe", "2", "own", "Python"] and own.endswith(" 1.0x")
    assert spiel.split()[:3] == ["tic-tac-toe", "2", "OpenSpiel"]
    assert 5 <= int(own.split()[4].replace(",", "")) <= 9 * 30  # 5 to 9 moves a game
    if pygame is None:
        pygame = importlib.util.find_spec("pygame") is not None
    floors = lines[at + 2:-2]
    if pygame:
        board, zoo = floors
        assert board.split()[:4] == ["tictactoe_v3", "2", "own", "Python"]
        assert board.endswith(" 1.0x") and zoo.split()[:3] == ["tictactoe_v3", "2", "PettingZoo"]
        assert 5 <= int(board.split()[4].replace(",", "")) <= 9 * 30
    else:
        assert floors == []
    for line, way, floor in ((lines[-2], "PettingZoo", "tictactoe_v3"),
                             (lines[-1], "OpenSpiel", "tic-tac-toe")):
        head, _, figures = line.partition(": ")
        assert head == f"{way} beyond the game's own logic, µs a move"
        if way == "PettingZoo" and not pygame:
            figures, _, missing = figures.rpartition(", ")
            assert missing == "(tictactoe_v3 not measured: pettingzoo.classic needs pygame)"
            floor_names = games
        else:
            floor_names = [*games, floor]
        assert [f.rsplit(" ", 1)[0] for f in figures.split(", ")] == floor_names
        assert all(re.fullmatch(r"-?[\d,]+\.\d", f.rsplit(" ", 1)[1])
                   for f in figures.split(", "))


def test_bench_bindings_prints_one_line_per_game_and_way_through_it():
    """SPEC 16.5: every encoded game of the package through the game interface, PettingZoo,
    OpenSpiel and the vectorized environment of 1, 16 and 256 environments, at 4 players or
    its largest table; the steps follow from the seed (the table is bindings_bench's)."""
    from sneferu_cli.rl import encoded_games
    from sneferu_cli.rl.bench import VECTOR_SIZES, bindings_bench, vector_way

    ways = ("game interface", "PettingZoo", "OpenSpiel", *map(vector_way, VECTOR_SIZES))
    assert ways[3:] == ("vector 1", "vector 16", "vector 256")
    r = run_cli("bench", "--bindings", "--games", "2", "--seed", "5", timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "sneferu bench --bindings: 2 random games of each game through each, seed 5"
    assert lines[1].startswith("python 3.")
    assert lines[2].split() == ["game", "players", "through", "steps", "moves", "seconds",
                                "steps/s", "overhead"]
    shipped = [g for g in encoded_games() if GAMES[g.name].startswith("sneferu_cli.")]
    assert "imhotep" in [g.name for g in shipped]
    rows = binding_rows(r.stdout)
    assert [row[:-5] for row in rows] == [
        [g.name, str(min(4, max(g.players))), *way.split()] for g in shipped for way in ways]
    assert all(re.fullmatch(r"(\d+\.\d|inf)x", row[-1]) for row in rows)
    assert [row[-1] for row in rows[::len(ways)]] == ["1.0x"] * len(shipped)
    imhotep = bindings_bench(get_game("imhotep"), 4, 2, seed=5)
    at = [g.name for g in shipped].index("imhotep") * len(ways)
    assert [row[-5:-3] for row in rows[at:at + len(ways)]] == [
        [f"{f.steps:,}", f"{f.moves:,}"] for f in imhotep]
    assert all(f.games == 2 and f.steps == f.moves > 40 for f in imhotep[:3])  # one id a move
    pettingzoo = imhotep[1].steps
    for f, n in zip(imhotep[3:], VECTOR_SIZES, strict=True):
        # as many steps as PettingZoo's, in whole steps of all n environments
        assert f.steps == f.moves and f.steps % n == 0 and pettingzoo <= f.steps
    for row in rows:  # a move is one step or more (a factored encoding's parts)
        steps, moves = (int(n.replace(",", "")) for n in row[-5:-3])
        assert steps >= moves and steps > 0
    other = bindings_bench(get_game("imhotep"), 4, 2, seed=6)
    assert [f.steps for f in other[:3]] != [f.steps for f in imhotep[:3]]
    check_floor(r.stdout, [g.name for g in shipped])


def test_bench_bindings_of_one_game_and_its_errors():
    r = run_cli("bench", "--bindings", "--game", "imhotep", "--games", "1", "-p", "3")
    assert r.returncode == 0, r.stderr
    assert [row[:2] for row in binding_rows(r.stdout)] == [["imhotep", "3"]] * 6
    check_floor(r.stdout, ["imhotep"])
    for args, error in ((["-p", "1"], "1 (the OpenSpiel binding offers two players or more)"),
                        (["--game", "imhotep", "-p", "1"], "1 (Imhotep is for 2 to 4 players)"),
                        (["--rules"], "--rules does not go with --bindings"),
                        (["--engine-games", "2"], "--engine-games does not go with"),
                        (["--perft", "x"], "--perft does not go with")):
        r = run_cli("bench", "--bindings", *args)
        assert r.returncode == 2, args
        assert error in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    with_test_games = ROOT / "tests" / "engines" / "with_test_games.py"
    r = subprocess.run([sys.executable, str(with_test_games), "sneferu", "bench", "--bindings",
                        "--game", "nim"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == ("sneferu: Invalid value for --game: Nim has no action encoding "
                        "(Game.learning) (see 'sneferu bench --help')\n")


def test_bench_bindings_without_the_rl_extra_is_one_line():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "from sneferu_cli.cli import main\n"
            "main(['bench', '--bindings', '--games', '1'])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr == ("sneferu: bench --bindings: the learning-library bindings need the rl "
                        "extra: pip install 'sneferu[rl]' (no module 'pyspiel')\n")


def test_bench_bindings_without_pygame_says_pettingzoos_floor_is_not_measured():
    """PettingZoo's bundled classic environments need pygame, which the rl extra does not
    install: without it the PettingZoo line says the floor was not measured."""
    code = ("import sys; sys.modules['pygame'] = None\n"
            "from sneferu_cli.cli import main\n"
            "main(['bench', '--bindings', '--game', 'imhotep', '--games', '1'])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    check_floor(r.stdout, ["imhotep"], pygame=False)


def test_bench_bindings_counts_a_move_in_parts_once():
    """The test-only sealed-parts: every bid is two steps through the bindings (its tens,
    then its units) and one move; 3 prizes, 2 seats: 6 moves a game."""
    import sealed_rl_game

    from sneferu_cli.rl.bench import bindings_bench
    from sneferu_cli.rl.openspiel import register

    sealed_rl_game.register()
    register()
    figures = bindings_bench(get_game("sealed-parts"), 2, 3, seed=1)
    assert [(f.through, f.games, f.steps, f.moves) for f in figures[:4]] == [
        ("game interface", 3, 18, 18), ("PettingZoo", 3, 36, 18), ("OpenSpiel", 3, 36, 18),
        ("vector 1", 3, 36, 18)]  # the same 36 steps, a game ending every 12
    for f, n in zip(figures[4:], (16, 256), strict=True):
        # whole steps of all n environments, two steps a move (from the same start)
        assert f.steps % n == 0 and f.steps >= 36 and f.moves == f.steps // n // 2 * n

"""The layers above the games import only the game interface (issue 11 and issue 17,
SPEC.md section 12), and no module of sneferu_cli imports itself round a circle.

Every module of ``sneferu_cli`` outside ``sneferu_cli/games/`` is read with ``ast``: its
imports (and the imports in its docstring examples) may not name a game's folder
(``sneferu_cli.games.sneferu``, ``sneferu_cli.games.imhotep`` ...): what a layer needs of
one game comes through an optional member of ``Game``. The imports in code (at the top,
in functions and under ``TYPE_CHECKING`` alike) make a graph of the package's modules,
which must have no cycle.

Every game is laid out alike (issue 27): one flat folder (no subpackage; data folders such
as ``editions/`` only), its grammars ``protocol/<name>-move.lark`` and
``protocol/<name>-position.lark``, its tests in ``tests/<folder>/``; and no new test module
at the top of ``tests/`` reaches into a game's folder (those that still do are listed).
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import sneferu_cli
from sneferu_cli.game import GAMES
from sneferu_cli.grammar import grammar_dir

PACKAGE = Path(sneferu_cli.__file__).parent
TESTS = Path(__file__).resolve().parent
GAME_FOLDERS = tuple(GAMES.values())

_EXAMPLE = re.compile(r"^\s*>>> ((?:from|import) .*)$", re.MULTILINE)


def _absolute(module: str | None, level: int, package: str) -> str:
    """The absolute name of ``from <level dots><module> import ...`` inside ``package``."""
    if level == 0:
        return module or ""
    parts = package.split(".")
    base = parts[:len(parts) - level + 1]
    return ".".join([*base, module] if module else base)


def imported(path: Path, examples: bool = True) -> set[str]:
    """Every module ``path`` imports, in its code and (``examples``) in its docstring
    examples (absolute names; ``from X import name`` counts ``X.name`` when that is a
    module, else ``X``)."""
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"))
    shown = [ast.parse(line) for s in ast.walk(tree)
             if examples and isinstance(s, ast.Constant) and isinstance(s.value, str)
             for line in _EXAMPLE.findall(s.value)]
    names: set[str] = set()
    for t in (tree, *shown):
        for node in ast.walk(t):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node.module, node.level, package)
                names |= {f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base
                          for a in node.names}
    return names


def game_imports(path: Path) -> set[str]:
    """The modules of a game's folder that ``path`` imports."""
    return {n for n in imported(path)
            if any(n == f or n.startswith(f + ".") for f in GAME_FOLDERS)}


def _is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of the package (source, or compiled by mypyc
    in an installed build: an extension module with no .py beside it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def test_nothing_outside_games_imports_a_games_folder():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(("games/", "engines/")):  # the games, and the bundled bots
            continue                                  # (engines/ shipped inside a build)
        names = game_imports(path)
        if names:
            found[rel] = names
    assert found == {}


def module_name(path: Path) -> str:
    """The module a source file is (a package by its ``__init__.py``)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package its code imports (not its examples)."""
    paths = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    return {m: {n for n in imported(p, examples=False) if n in paths and n != m}
            for m, p in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted: every module of one imports every other, round a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_round_a_circle():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_circles_and_only_them():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d", "f"},
             "f": {"e"}}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e", "f"]]
    assert cycles({"x": {"y"}, "y": set()}) == []


def test_the_graph_sees_imports_in_functions_and_under_type_checking():
    graph = import_graph()
    # a function-level import (the game's own search) and a TYPE_CHECKING one
    assert "sneferu_cli.games.sneferu.search" in graph["sneferu_cli.games.sneferu"]
    assert "sneferu_cli.search.analysis" in graph["sneferu_cli.game"]
    assert "sneferu_cli.tournament.runner" in graph["sneferu_cli.tournament.cluster"]


def test_the_reader_sees_relative_absolute_and_example_imports():
    path = PACKAGE / "games" / "sneferu" / "__init__.py"
    assert "sneferu_cli.games.sneferu.record" in imported(path)
    assert "sneferu_cli.game" in imported(PACKAGE / "cli" / "options.py")
    state = PACKAGE / "games" / "sneferu" / "state.py"  # chance.py in an example only
    assert "sneferu_cli.games.sneferu.chance" in imported(state)
    assert "sneferu_cli.games.sneferu.chance" not in imported(state, examples=False)


# ------------------------------------------------------------------ every game laid out alike

SHIPPED = {name: module for name, module in GAMES.items()
           if module.startswith("sneferu_cli.games.")}
"""The games the package registers (not the test-only ones other test modules of this
process may have added to ``GAMES``)."""

CODE = (".py", ".so", ".pyd")
"""Files that make a folder a package (source, or a compiled module in an installed build)."""


def game_folder(module: str) -> Path:
    """The folder of the game whose module is ``module`` (``sneferu_cli.games.NAME``)."""
    return PACKAGE.parent.joinpath(*module.split("."))


def test_every_game_folder_is_flat():
    """A game's modules sit in its folder, as Imhotep's do: no subpackage (Sneferu's rules/
    and notation/ were); a folder of data (editions/) is no package."""
    for name, module in SHIPPED.items():
        folder = game_folder(module)
        assert (folder / "__init__.py").is_file(), name
        nested = sorted(d.name for d in folder.iterdir()
                        if d.is_dir() and d.name != "__pycache__"
                        and any(f.suffix in CODE for f in d.rglob("*")))
        assert nested == [], f"{name}: subpackages {nested}"


def test_every_game_has_its_grammars_named_after_it():
    """``protocol/<name>-move.lark`` and ``protocol/<name>-position.lark`` for each registered
    name; every other grammar is one of the layers' (engine, record, serve), none unnamed."""
    names = {p.name for p in grammar_dir().glob("*.lark")}
    games = {f"{name}-{kind}.lark" for name in SHIPPED for kind in ("move", "position")}
    assert games <= names
    assert names - games == {"engine.lark", "record.lark", "serve.lark"}


def test_every_game_has_its_tests_folder():
    """``tests/<folder>/`` (the folder's name, ``silver_gold`` for ``silver-gold``) holds
    test modules for each registered game."""
    for name, module in SHIPPED.items():
        folder = TESTS / module.rsplit(".", 1)[1]
        assert folder.is_dir() and any(folder.glob("test_*.py")), name


TOP_LEVEL_GAME_IMPORTS = {
    "test_bench.py", "test_cli_position.py", "test_game_hooks.py", "test_human.py",
    "test_play.py", "test_play_record.py", "test_protocol_fast.py", "test_record_replay.py",
    "test_replay_cli.py", "test_replay_html.py", "test_sessions.py", "test_spec_gaps.py",
    "test_tournament_features.py", "test_tournament_run.py", "test_tournament_schedule.py",
}
"""The test modules at the top of tests/ that still import a module of Sneferu's folder
(layer tests that build Sneferu states, positions or editions by hand); none may be added."""


def absolute_imports(path: Path) -> set[str]:
    """The modules a test module imports by absolute name (``from X import y`` counts
    ``X.y``: a test imports no game module relatively)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_no_new_top_level_test_reaches_into_a_games_folder():
    """A game's own tests live in tests/<folder>/; a test at the top reaches a game through
    the registry (``get_game``), not its modules, but for the listed ones (the registered
    game's ``GAME`` through its package is the registry too)."""
    found = {}
    for path in sorted(TESTS.glob("test_*.py")):
        inside = {n for n in absolute_imports(path)
                  if any(n.startswith(f + ".") for f in SHIPPED.values())
                  and n not in {f"{f}.GAME" for f in SHIPPED.values()}}
        if inside:
            found[path.name] = inside
    assert set(found) <= TOP_LEVEL_GAME_IMPORTS, sorted(set(found) - TOP_LEVEL_GAME_IMPORTS)
    assert all(n.startswith("sneferu_cli.games.sneferu.") for v in found.values() for n in v)


# ----------------------------------------------------------------- every game equal

ROOT = PACKAGE.parent
ENGINES = ROOT / "engines"
ABOVE_GAMES = ("arbiter", "tournament", "serve", "record")
"""The layers whose signatures may not take one game's parameter."""
GAME_PARTS = frozenset({"builder", "builders", "ptah", "solo", "stones", "food", "pyramid",
                        "boat", "river", "cards", "tiles", "plazas", "quarry"})
"""Words naming one game's components, which no field of the generic record model is
named after (with every registered game's score keys, below)."""
def _sources_above_games() -> list[tuple[str, str]]:
    """(name, source) of every module of the package outside ``games/`` and ``game.py``
    (where the registry keeps the unnamed-game convention), and of every bundled engine."""
    out = [(p.relative_to(PACKAGE).as_posix(), p.read_text(encoding="utf-8"))
           for p in sorted(PACKAGE.rglob("*.py"))]
    out = [(n, s) for n, s in out if not n.startswith("games/") and n != "game.py"]
    return out + [(f"engines/{p.name}", p.read_text(encoding="utf-8"))
                  for p in sorted(ENGINES.glob("*.py"))]


def _names_a_game(node: ast.expr) -> bool:
    """Whether ``node`` is DEFAULT_GAME, a registered game's name, or a tuple of them."""
    if isinstance(node, ast.Name | ast.Attribute):
        return (node.id if isinstance(node, ast.Name) else node.attr) == "DEFAULT_GAME"
    if isinstance(node, ast.Constant):
        return node.value in GAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    return False


def game_comparisons(source: str) -> list[str]:
    """Each comparison in ``source`` of a game's name with DEFAULT_GAME or with one game's
    name (``game.name == "sneferu"``): a special case of one game (the unnamed game is
    told by ``sneferu_cli.game.unnamed``). A word of the protocol compared with its text
    (``kind == "sneferu"``, the handshake) is not a game's name and does not count."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = [s for s in sides if _names_a_game(s)]
        others = [ast.unparse(s) for s in sides if not _names_a_game(s)]
        default = any("DEFAULT_GAME" in ast.unparse(s) for s in named)
        if named and (default or any("game" in o or "name" in o for o in others)):
            found.append(ast.unparse(node))
    return found


def model_fields(source: str) -> set[str]:
    """The field names of the classes of ``source`` (annotated class attributes)."""
    return {t.target.id for c in ast.walk(ast.parse(source)) if isinstance(c, ast.ClassDef)
            for t in c.body if isinstance(t, ast.AnnAssign) and isinstance(t.target, ast.Name)}


def one_games_fields(source: str) -> set[str]:
    """The fields of the record model named after one game's components or scores."""
    scores = {k for name in GAMES for k in _score_keys(name)}
    return {f for f in model_fields(source) if f in GAME_PARTS | scores}


def _score_keys(name: str) -> tuple[str, ...]:
    from sneferu_cli.game import get_game

    return get_game(name).score_keys


def builders_parameters(source: str) -> list[str]:
    """The functions' parameters and the classes' fields named ``builders`` in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            a = node.args
            found += [f"{getattr(node, 'name', 'lambda')}({p.arg})"
                      for p in (*a.posonlyargs, *a.args, *a.kwonlyargs) if p.arg == "builders"]
        elif isinstance(node, ast.ClassDef):
            found += [f"{node.name}.builders" for t in node.body
                      if isinstance(t, ast.AnnAssign) and isinstance(t.target, ast.Name)
                      and t.target.id == "builders"]
    return found


def engine_game_imports(source: str) -> set[str]:
    """The modules of a game's folder that an engine's ``source`` imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return {n for n in names if n == "sneferu_cli.games" or n.startswith("sneferu_cli.games.")}


def test_no_layer_above_the_games_compares_with_one_games_name():
    found = {name: got for name, source in _sources_above_games()
             if (got := game_comparisons(source))}
    assert found == {}


def test_the_record_model_has_no_field_of_one_game():
    assert one_games_fields((PACKAGE / "record" / "model.py").read_text(encoding="utf-8")) \
        == set()


def test_no_layer_takes_a_builders_parameter():
    found = {}
    for layer in ABOVE_GAMES:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            got = builders_parameters(path.read_text(encoding="utf-8"))
            if got:
                found[path.relative_to(PACKAGE).as_posix()] = got
    assert found == {}


def test_the_engines_reach_a_game_through_the_interface():
    found = {p.name for p in sorted(ENGINES.glob("*.py"))
             if engine_game_imports(p.read_text(encoding="utf-8"))}
    assert found == set()


def test_the_equality_checks_catch_what_they_are_for():
    """Each check finds what it is for in a made-up module (on the code before the game
    interface was redrawn they found 16 comparisons, Seat.builder and Header.builders and
    SeatResult.stones/food and SoloScore.ptah, play_game(builders), greedy's and mcts's
    imports of Sneferu's modules)."""
    assert sorted(game_comparisons("if h.game == DEFAULT_GAME: pass\n"
                                   "x = a if self.game.name != 'sneferu' else b\n"
                                   "y = games != (DEFAULT_GAME,)\n"
                                   "z = kind == 'sneferu'\n")) == [
        "games != (DEFAULT_GAME,)", "h.game == DEFAULT_GAME", "self.game.name != 'sneferu'"]
    assert one_games_fields("class Seat:\n    builder: str\n    name: str\n"
                            "class R:\n    stones: int\n    ptah: int\n") == {
        "builder", "stones", "ptah"}
    assert builders_parameters("def play_game(a, *, builders=None): pass\n"
                               "class C:\n    builders: str | None = None\n") == [
        "play_game(builders)", "C.builders"]
    assert engine_game_imports("from sneferu_cli.games.sneferu.rules.state import GameState\n"
                               "import sneferu_cli.game\n") == {
        "sneferu_cli.games.sneferu.rules.state"}

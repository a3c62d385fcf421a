"""The tournament configuration: TOML and flags, validation naming the field."""

from __future__ import annotations

import re
import textwrap

import pytest
from support import ROOT

from sneferu_cli.tournament import ConfigError, load_config
from sneferu_cli.tournament.config import parse_engine_spec

FULL = """
event = "spring cup"
seats = 3
format = "gauntlet"
challenger = "beta"
deals = 20
seed = 42
seating = "permute"
builders = "random"
time-control = "10+0.1"
records = "cup.records"
state = "cup.state"
concurrency = 2

[[engine]]
name = "alpha"
command = ["python3", "alpha.py", "--fast"]
dir = "bots"
options = { Depth = 3, Greedy = true, Style = "calm", Margin = 0.5 }

[[engine]]
name = "beta"
command = "./beta --level 'very hard'"

[[engine]]
name = "gamma"
command = ["./gamma"]
"""


def write(tmp_path, text: str):
    p = tmp_path / "t.toml"
    p.write_text(textwrap.dedent(text))
    return p


def test_a_full_file(tmp_path):
    cfg = load_config(write(tmp_path, FULL))
    assert (cfg.event, cfg.seats, cfg.format, cfg.challenger, cfg.deals, cfg.seed) == (
        "spring cup", 3, "gauntlet", "beta", 20, 42)
    assert (cfg.seating, cfg.setup, cfg.time_control) == ("permute", "random", "10+0.1")
    assert (cfg.records, cfg.state_path, cfg.concurrency) == ("cup.records", "cup.state", 2)
    a, b, c = cfg.engines
    assert a.command == ["python3", "alpha.py", "--fast"] and a.dir == "bots"
    assert a.options == {"Depth": "3", "Greedy": "true", "Style": "calm", "Margin": "0.5"}
    assert b.command == ["./beta", "--level", "very hard"]  # a string is split like a shell
    assert cfg.engine("gamma") is c and cfg.challenger_name == "beta"


def test_defaults():
    cfg = load_config(None, {"engine": ["name=a command=a", "name=b command=b"]})
    assert (cfg.seats, cfg.format, cfg.deals, cfg.seed, cfg.seating) == (
        2, "round-robin", 10, None, "rotate")
    assert (cfg.setup, cfg.edition, cfg.time_control, cfg.sprt) == (None, None, None, None)
    assert cfg.state_path == "tournament.records.state" and cfg.challenger_name is None
    seeded = cfg.resolved()
    assert seeded.seed is not None and seeded.resolved() is seeded


def test_flags_override_the_file_one_to_one(tmp_path):
    cfg = load_config(write(tmp_path, FULL), {
        "deals": 3, "time_control": "5", "seating": None, "challenger": "y",
        "engine": ["name=x command='./x -q' option.Depth=2 dir=/tmp",
                                       "name=y command=y", "name=z command=z"]})
    assert cfg.deals == 3 and cfg.time_control == "5"
    assert cfg.seating == "permute"  # None: not given, the file's value stays
    assert cfg.format == "gauntlet" and cfg.challenger == "y"
    x = cfg.engines[0]
    assert (x.name, x.command, x.dir, x.options) == ("x", ["./x", "-q"], "/tmp", {"Depth": "2"})


def test_sprt_flags(tmp_path):
    flags = {"engine": ["name=new command=n", "name=old command=o"], "sprt-elo0": 0,
             "sprt_elo1": 5, "sprt-model": "logistic"}
    cfg = load_config(None, flags)
    assert cfg.sprt is not None
    assert (cfg.sprt.elo0, cfg.sprt.elo1, cfg.sprt.alpha, cfg.sprt.model) == (
        0, 5, 0.05, "logistic")
    p = write(tmp_path, '[sprt]\nelo0 = -1\nelo1 = 3\nbeta = 0.1\n'
                        '[[engine]]\nname="a"\ncommand="a"\n[[engine]]\nname="b"\ncommand="b"\n')
    cfg = load_config(p, {"sprt-elo1": 4})
    assert cfg.sprt is not None and (cfg.sprt.elo0, cfg.sprt.elo1, cfg.sprt.beta) == (-1, 4, 0.1)


TWO = '[[engine]]\nname = "a"\ncommand = "a"\n[[engine]]\nname = "b"\ncommand = "b"\n'


@pytest.mark.parametrize(("text", "message"), [
    ("deals = 'many'\n" + TWO, "t.toml: deals: expected `int`, got `str`"),
    ("deals = 0\n" + TWO, "t.toml: deals: 0 (1 to 1000000)"),
    ("deals = " + "9" * 4000 + "\n" + TWO, "t.toml: deals: a number of 4000 digits (1 to"),
    ("deals = " + "9" * 5000 + "\n" + TWO, "t.toml: not valid TOML: a number of more than 4300"),
    ("[sprt]\nelo0 = 0\nelo1 = 400\n" + TWO,
     "t.toml: sprt: elo1: 400.0 is out of the normalized model's range (-200 to 200)"),
    ("[sprt]\nelo0 = -inf\nelo1 = 0\n" + TWO, "sprt: elo0: -inf is out of the normalized"),
    ("[sprt]\nelo0 = 0\nelo1 = inf\n" + TWO, "sprt: elo1: inf is out of the normalized"),
    ("[sprt]\nelo0 = 0\nelo1 = 6500\nmodel = 'logistic'\n" + TWO,
     "sprt: elo1: 6500.0 is out of the logistic model's range (-4000 to 4000)"),
    ("seats = 5\n" + TWO, "t.toml: seats: 5 (1 to 4"),
    ("seats = 3\n" + TWO, "t.toml: engine: 2 engines cannot fill a table of 3 seats"),
    ("format = 'swiss'\n" + TWO, "t.toml: format: invalid enum value 'swiss'"),
    ("seating = 'random'\n" + TWO, "t.toml: seating: invalid enum value 'random'"),
    ("rounds = 3\n" + TWO, "t.toml: object contains unknown field `rounds`"),
    ("challenger = 'a'\n" + TWO, "t.toml: challenger: only for format = \"gauntlet\""),
    ("format = 'gauntlet'\nchallenger = 'z'\n" + TWO, "t.toml: challenger: 'z' is not"),
    ("format = 'gauntlet'\nseats = 1\n" + TWO, "t.toml: format: a gauntlet needs seats >= 2"),
    ("time-control = 'fast'\n" + TWO, "t.toml: time-control: 'fast' is not SECONDS+INC"),
    ("time-control = '0+1'\n" + TWO, "time-control: '0+1': the time must be positive"),
    ("time-control = '10+-1'\n" + TWO, "the time must be positive, the increment >= 0"),
    ("time-control = 'nan'\n" + TWO, "time-control: 'nan': the time must be positive"),
    ("movetime = 0\n" + TWO, "t.toml: movetime: movetime 0: must be at least 1 ms"),
    ("movetime = 5\ntime-control = '5'\n" + TWO, "time-control: a time per move and a game"),
    ("margin = -1\n" + TWO, "t.toml: margin: margin -1: must be >= 0 ms"),
    ("handshake-timeout = 0\n" + TWO, "t.toml: handshake-timeout: 0.0 (must be > 0"),
    ("builders = 'Heba'\n" + TWO, "t.toml: builders: one name per seat: 2, not 1"),
    ("builders = 'Heba,Nobody'\n" + TWO, "t.toml: builders: "),
    ("seed = -3\n" + TWO, "t.toml: seed: -3 (must be >= 0)"),
    ("concurrency = 0\n" + TWO, "t.toml: concurrency: 0 (at least 1)"),
    ("edition = 'nowhere.toml'\n" + TWO, "t.toml: edition: nowhere.toml: cannot read"),
    ("[sprt]\nelo0 = 5\nelo1 = 0\n" + TWO, "t.toml: sprt: elo0 must be less than elo1"),
    ("[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 1.5\n" + TWO, "sprt: alpha and beta must be"),
    ("[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 0.6\nbeta = 0.5\n" + TWO, "alpha + beta must be"),
    ("[sprt]\nelo0 = 0\n" + TWO, "t.toml: sprt: object missing required field `elo1`"),
    ("seats = 3\n[sprt]\nelo0 = 0\nelo1 = 5\n" + TWO + '[[engine]]\nname="c"\ncommand="c"\n',
     "sprt: needs exactly two engines at tables of 2 seats"),
    ("", "t.toml: engine: no engines"),
    (TWO + '[[engine]]\nname = "a"\ncommand = "x"\n', "t.toml: engine[2].name: 'a' is used"),
    ('[[engine]]\nname = " a"\ncommand = "x"\n', "t.toml: engine[0]: name: must be non-empty"),
    ('[[engine]]\nname = "a"\ncommand = []\n', "t.toml: engine[0]: command: must name"),
    ('[[engine]]\nname = "a"\ncommand = "\'unclosed"\n', "engine command \"'unclosed\""),
    ('[[engine]]\nname = "a"\n', "t.toml: engine[0]: command: must name a program (or give"),
    ('[[engine]]\nname = "a"\ncommand = "a"\nopts = 1\n', "engine[0]: object contains unknown"),
    ('[[engine]]\nname = "a"\ncommand = "a"\noptions = { X = [1] }\n',
     "engine[0].options[...]: expected `str`, got `array`"),
    ("deals = \n", "t.toml: not valid TOML"),
])
def test_errors_name_the_field(tmp_path, text, message):
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, text))
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "t.toml"
    path.write_bytes(b'event = "caf\xe9"\n' + TWO.encode())
    with pytest.raises(ConfigError, match=r"t\.toml: not UTF-8 text \(byte 12\)$"):
        load_config(path)


def test_a_huge_command_is_refused_at_once(tmp_path):
    """A 2 MB command string: refused by its length before it is split into words (shlex
    takes minutes on one such word); the message does not quote it."""
    long = "a" * 2_000_000
    path = write(tmp_path, f'[[engine]]\nname = "a"\ncommand = "{long}"\n')
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert str(e.value) == (f"{path}: engine command: a command line of 2000000 characters "
                            "(at most 65536)")
    with pytest.raises(ConfigError, match=r"^engine: a command line of 2000008 characters"):
        parse_engine_spec(f"command={long}")


def test_a_missing_file(tmp_path):
    with pytest.raises(ConfigError, match=r"nope\.toml: cannot read: No such file"):
        load_config(tmp_path / "nope.toml")


@pytest.mark.parametrize(("spec", "message"), [
    ("name=a command", "'command' is not key=value"),
    ("name=a name=b",
     "'name': expected name, command, token, dir, tc, movetime, budget, sandbox, check or "
     "option.NAME, each once"),
    ("name=a colour=red", "'colour'"),
    ("name='a", "No closing quotation"),
])
def test_engine_flag_errors(spec, message):
    with pytest.raises(ConfigError, match=message):
        parse_engine_spec(spec)


def test_options_read_the_same_from_toml_and_flags(tmp_path):
    p = write(tmp_path, '[[engine]]\nname = "a"\ncommand = "a"\noptions = { Depth = 2 }\n'
                        '[[engine]]\nname = "b"\ncommand = "b"\n')
    flags = load_config(None, {"engine": ["name=a command=a option.Depth=2",
                                          "name=b command=b"]})
    assert load_config(p).fingerprint() == flags.fingerprint()


def test_fingerprint_covers_the_games_not_the_run_settings():
    base = {"engine": ["name=a command=a", "name=b command=b"], "seed": 3}
    fp = load_config(None, base).fingerprint()
    for run in ({"concurrency": 4}, {"records": "x"}, {"state": "y"}):
        assert load_config(None, {**base, **run}).fingerprint() == fp
    for games in ({"deals": 11}, {"seed": 4}, {"seating": "permute"}, {"event": "x"},
                  {"engine": ["name=a command=a2", "name=b command=b"]}):
        assert load_config(None, {**base, **games}).fingerprint() != fp


def toml_block(path: str, after: str) -> str:
    text = (ROOT / path).read_text().split(after, 1)[1]
    block = re.search(r"```toml\n(.*?)```", text, re.S)
    assert block
    return block.group(1)


@pytest.mark.parametrize(("path", "after"), [("SPEC.md", "### 9.1 Configuration"),
                                             ("README.md", "## Tournaments"),
                                             ("docs/tournaments.md", "# Tournaments")])
def test_the_documented_examples_are_valid(tmp_path, path, after):
    cfg = load_config(write(tmp_path, toml_block(path, after)))
    assert len(cfg.engines) == 3 and cfg.time_control == "10+0.1"


def test_the_documented_engine_flag():
    spec = (ROOT / "SPEC.md").read_text()
    flag = re.search(r'--engine "(.*)"', spec)
    assert flag
    assert parse_engine_spec(flag.group(1)) == {
        "name": "greedy", "command": "python3 bots/greedy.py --fast", "dir": ".",
        "options": {"Depth": "2"}}

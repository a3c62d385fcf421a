#!/bin/sh
# Strength of the bundled engine mcts against an outside anchor, OpenSpiel's own MCTS bots
# (examples/openspiel_anchor.py, through the bundled engine policy; needs the rl extra), at
# equal time per move, with sneferu tournament (a benchmark, not a test: it takes minutes).
# docs/performance.md, "Strength of mcts", gives figures it produced.
#
#   scripts/anchor.sh [MOVETIME_MS [DEALS [JOBS [FOLDER]]]]
#
# Defaults: 200 ms, 10 deals, one game at a time, folder anchor-MS. In every game (GAMES,
# default all four), 2 seats, duplicate deals (every deal in both seatings):
#   GAME-mcts    mcts against OpenSpiel's MCTSBot (in a game with hidden information it
#                searches a state drawn from its seat's view)
#   GAME-ismcts  mcts against OpenSpiel's ISMCTSBot, in a game with hidden information only
# Each tournament's standings (mcts's share of first places with its 95% interval, the
# faults) are printed and kept in FOLDER (records, JSON), with the engines' standard error
# (FOLDER/NAME.stderr/); then the anchor's simulations a move (mean, from that log).
# Run again with the same arguments, it resumes a run that was stopped.
# SEED: the tournaments' seed (default 2026; another gives other deals). SNEFERU: the
# command to run (default: sneferu); PYTHON: the Python that has sneferu
# (default: python3), asked which games hide information.
set -eu
MOVETIME=${1:-200}
DEALS=${2:-10}
JOBS=${3:-1}
DIR=${4:-anchor-$MOVETIME}
SEED=${SEED:-2026}
SNEFERU=${SNEFERU:-sneferu}
PYTHON=${PYTHON:-python3}
GAMES=${GAMES:-sneferu imhotep akropolis silver-gold}
ANCHOR="$(cd "$(dirname "$0")/.." && pwd)/examples/openspiel_anchor.py"
HIDDEN=$($PYTHON -c 'from sneferu_cli.game import game_names, get_game
print(" ".join(n for n in game_names() if get_game(n).hidden() is not None))')
mkdir -p "$DIR"

run() {  # GAME BOT: mcts against the anchor's choose_BOT in GAME
    game=$1 bot=$2 name=$1-$2
    resume=""  # a run stopped before goes on where it stopped
    [ -e "$DIR/$name.records.state" ] && resume=--resume
    echo "== $name: mcts against OpenSpiel's $bot bot, movetime $MOVETIME ms, $DEALS deals"
    $SNEFERU tournament --game "$game" --seats 2 --deals "$DEALS" --seed "$SEED" \
        --movetime "$MOVETIME" -j "$JOBS" --event "anchor $name" \
        --engine "name=mcts command=mcts" \
        --engine "name=openspiel-$bot command=policy option.Policy=$ANCHOR:choose_$bot" \
        --records "$DIR/$name.records" --json "$DIR/$name.json" \
        --engine-stderr "$DIR/$name.stderr/" $resume
    # One line a search: "anchor BOT: move|part N simulations T ms"
    cat "$DIR/$name.stderr/"*.log | awk -v bot="$bot" '
        $2 == "anchor" && $4 == "move" { moves++ }
        $2 == "anchor" { simulations += $5; ms += $7; searches++ }
        END { if (moves) printf "%s: %d moves, %.1f simulations a move (mean), %.0f ms a search\n",
                                bot, moves, simulations / moves, ms / searches }'
}

for game in $GAMES; do
    run "$game" mcts
    case " $HIDDEN " in *" $game "*) run "$game" ismcts ;; esac
done

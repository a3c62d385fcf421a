#!/bin/sh
# Strength of the bundled engine mcts against greedy, with sneferu tournament (a benchmark,
# not a test: it takes minutes). docs/performance.md, "Strength of mcts", gives figures it produced.
#
#   scripts/strength.sh [MOVETIME_MS [DEALS [JOBS [FOLDER]]]]
#
# Defaults: 200 ms, 50 deals (the 4-seat tournament plays half as many: FOUR_DEALS), one
# game at a time, folder strength-MS.
#
# Three tournaments, each with duplicate deals (every deal in every seating):
#   two   2 seats, mcts against greedy: share of firsts (target >= 75% at 200 ms)
#   four  4 seats, mcts against three greedy: mean rank (target <= 1.8; 2.5 is equal)
#   solo  1 seat against Ptah, mcts and greedy on the same deals: win rate and score
# Their standings (with 95% intervals) are printed and kept in FOLDER (records, JSON).
# Run again with the same arguments, it resumes a run that was stopped.
# SNEFERU: the command to run (default: sneferu).
set -eu
MOVETIME=${1:-200}
DEALS=${2:-50}
JOBS=${3:-1}
DIR=${4:-strength-$MOVETIME}
FOUR_DEALS=${FOUR_DEALS:-$(( (DEALS + 1) / 2 ))}
SNEFERU=${SNEFERU:-sneferu}
mkdir -p "$DIR"

run() {  # NAME SEATS DEALS ENGINE...
    name=$1 seats=$2 deals=$3
    shift 3
    resume=""  # a run stopped before goes on where it stopped
    [ -e "$DIR/$name.records.state" ] && resume=--resume
    echo "== $name: $seats seat(s), movetime $MOVETIME ms, $deals deals"
    # shellcheck disable=SC2086
    $SNEFERU tournament "$@" --seats "$seats" --deals "$deals" --seed 2026 \
        --movetime "$MOVETIME" -j "$JOBS" --event "strength $name" \
        --records "$DIR/$name.records" --json "$DIR/$name.json" $resume
}

run two 2 "$DEALS" --engine "name=mcts command=mcts" --engine "name=greedy command=greedy"
run four 4 "$FOUR_DEALS" --engine "name=mcts command=mcts" --engine "name=greedy-a command=greedy" \
    --engine "name=greedy-b command=greedy" --engine "name=greedy-c command=greedy"
run solo 1 "$DEALS" --engine "name=mcts command=mcts" --engine "name=greedy command=greedy"

#!/bin/sh
# Strength of the bundled engine mcts against greedy (or another opponent), in any game,
# with sneferu tournament (a benchmark, not a test: it takes minutes).
# docs/performance.md, "Strength of mcts", gives figures it produced.
#
#   scripts/strength.sh [MOVETIME_MS [DEALS [JOBS [FOLDER]]]]
#
# Defaults: 200 ms, 50 deals (the 4-seat tournament plays half as many: FOUR_DEALS), one
# game at a time, folder strength-GAME-MS.
#
# Tournaments, each with duplicate deals (every deal in every seating):
#   two   2 seats, mcts against the opponent: share of firsts
#   four  4 seats, mcts against three opponents: mean rank (2.5 is equal)
#   solo  1 seat (a game with solo play, SOLO=1: Sneferu's default), mcts and the
#         opponent on the same deals: win rate and score
# Their standings (with 95% intervals) are printed and kept in FOLDER (records, JSON).
# Run again with the same arguments, it resumes a run that was stopped.
# Environment:
#   GAME      the game (default sneferu)
#   MCTS      more engine words for mcts, e.g. "budget='iterations 250'" (a search budget
#             instead of the time: the same games on an idle or a busy machine)
#   OPPONENT  the opponent's engine words (default "command=greedy"); e.g. mcts unguided,
#             the plain search: "command=mcts option.Guided=false option.Horizon=4"
#   SNEFERU   the command to run (default: sneferu)
set -eu
MOVETIME=${1:-200}
DEALS=${2:-50}
JOBS=${3:-1}
GAME=${GAME:-sneferu}
DIR=${4:-strength-$GAME-$MOVETIME}
FOUR_DEALS=${FOUR_DEALS:-$(( (DEALS + 1) / 2 ))}
MCTS=${MCTS:-}
OPPONENT=${OPPONENT:-command=greedy}
SOLO=${SOLO:-$([ "$GAME" = sneferu ] && echo 1 || echo 0)}
SNEFERU=${SNEFERU:-sneferu}
mkdir -p "$DIR"

run() {  # NAME SEATS DEALS ENGINE...
    name=$1 seats=$2 deals=$3
    shift 3
    resume=""  # a run stopped before goes on where it stopped
    [ -e "$DIR/$name.records.state" ] && resume=--resume
    echo "== $GAME $name: $seats seat(s), movetime $MOVETIME ms, $deals deals"
    # shellcheck disable=SC2086
    $SNEFERU tournament --game "$GAME" "$@" --seats "$seats" --deals "$deals" --seed 2026 \
        --movetime "$MOVETIME" -j "$JOBS" --event "strength $GAME $name" \
        --records "$DIR/$name.records" --json "$DIR/$name.json" $resume
}

run two 2 "$DEALS" --engine "name=mcts command=mcts $MCTS" --engine "name=opponent $OPPONENT"
run four 4 "$FOUR_DEALS" --engine "name=mcts command=mcts $MCTS" \
    --engine "name=opponent-a $OPPONENT" --engine "name=opponent-b $OPPONENT" \
    --engine "name=opponent-c $OPPONENT"
if [ "$SOLO" = 1 ]; then
    run solo 1 "$DEALS" --engine "name=mcts command=mcts $MCTS" --engine "name=opponent $OPPONENT"
fi

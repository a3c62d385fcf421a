#!/usr/bin/env bash
# Script a Sneferu position from the shell with `sneferu position` (README, "Scripting
# positions"): a new game, its picture, its legal moves, and a few turns played.
#
#   examples/script_position.sh [SEED]
#
# SNEFERU is the command that runs sneferu (default: sneferu), for example
#   SNEFERU="python3 -m sneferu_cli" examples/script_position.sh 3
set -euo pipefail

RANDOM=${1:-3}  # the moves chosen follow the seed too

read -r -a sneferu <<< "${SNEFERU:-sneferu}"
seed=${1:-3}

pos=$("${sneferu[@]}" position new --players 2 --seed "$seed")
echo "new game: $pos"
"${sneferu[@]}" position show "$pos" | tail -n 1

for turn in 1 2 3; do
    mapfile -t moves < <("${sneferu[@]}" position moves "$pos")
    count=${#moves[@]}
    move=${moves[$((RANDOM % count))]}
    # Play a legal move at random; --seed draws the refills of the offer that follow.
    pos=$("${sneferu[@]}" position play "$pos" "$move" --seed "$((seed + turn))")
    echo "turn $turn: $count legal moves, played $move"
done

echo "$pos" | "${sneferu[@]}" position show - | tail -n 1
# A bad move is one line on stderr and exit code 2, never a traceback.
status=0
"${sneferu[@]}" position play "$pos" "9.9 BT@1.1" 2> /dev/null || status=$?
if [ "$status" -ne 2 ]; then
    echo "an illegal move gave exit code $status, not 2" >&2
    exit 1
fi
echo "final position: $pos"

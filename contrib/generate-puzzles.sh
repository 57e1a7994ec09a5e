#!/bin/sh
# Generates the puzzle set that ships with quentin, puzzles/GAME.txt, one game after another:
# every command below adds its puzzles to the game's file and its own line to the file's header
# (docs/puzzles.md). Run from the top of the repository with the release build:
#
#   cargo build --release
#   contrib/generate-puzzles.sh target/release/quentin quentin konobi brique quint
#
# The same binary and commands give the same files. The budgets (--nodes, the positions one
# solve may create) were chosen so that the whole set takes well under an hour on two cores.
set -eu
quentin=$1
shift
for game in "$@"; do
    file=puzzles/$game.txt
    rm -f "$file"
    gen() {
        "$quentin" puzzles generate --game "$game" --into "$file" "$@"
    }
    case $game in
    quint)
        gen --goal win --depth 1-2 --count 240 --seed 1 --nodes 20000
        gen --goal win --depth 2 --count 25 --seed 2 --nodes 20000
        gen --goal defend --depth 1 --count 35 --seed 3 --nodes 20000
        gen --goal defend --depth 2 --count 8 --seed 4 --nodes 20000
        ;;
    *)
        gen --size 5 --no-pie --goal win --depth 1-4 --count 90 --seed 1 --nodes 30000
        gen --size 6 --no-pie --goal win --depth 1-4 --count 80 --seed 2 --nodes 30000
        gen --size 7 --no-pie --goal win --depth 1-3 --count 12 --seed 3 --nodes 20000
        gen --size 5 --no-pie --goal win --depth 3-4 --count 20 --seed 4 --nodes 30000
        gen --size 6 --no-pie --goal win --depth 1-4 --count 20 --seed 5 --nodes 30000
        gen --size 5 --no-pie --goal defend --depth 1-4 --count 40 --seed 6 --nodes 30000
        gen --size 6 --no-pie --goal defend --depth 1-4 --count 35 --seed 7 --nodes 30000
        gen --size 7 --no-pie --goal defend --depth 1-3 --count 8 --seed 8 --nodes 20000
        gen --size 3 --goal swap --count 9 --seed 1 --nodes 5000000
        gen --size 4 --goal swap --count 16 --seed 1 --nodes 5000000
        ;;
    esac
done

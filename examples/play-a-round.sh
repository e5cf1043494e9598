#!/usr/bin/env bash
# Plays the bundled "skirmish" encounter on a temp file: a round, a creature going down
# and healed (R18), and a second round in which a down creature is skipped.
#
#   examples/play-a-round.sh                     # uses the d4cli console script
#   D4CLI="python -m d4cli" examples/play-a-round.sh
#
# Every roll has a --seed, so the run is the same every time. One command is
# refused on purpose (R2, R18): exit code 3 is the expected answer there.
set -euo pipefail

read -r -a d4 <<< "${D4CLI:-d4cli}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export D4CLI_FILE="$work/encounter.toml"
export NO_COLOR=1

show() {
  printf '$ d4cli'
  printf ' %q' "$@"
}

run() {
  show "$@"
  echo
  "${d4[@]}" "$@"
}

# A command the rules must refuse: anything but exit 3 stops the script.
refused() {
  show "$@"
  echo "    # expected: refused (exit 3)"
  local rc=0
  "${d4[@]}" "$@" || rc=$?
  if [ "$rc" -ne 3 ]; then
    echo "play-a-round: expected exit 3, got $rc" >&2
    exit 1
  fi
}

run init --from skirmish
run status

# Round 1 begins: Aria's turn, her Load resets to 0 - Buffer 1 = -1 (R1).
run turn start
run act Aria Finesse --extra 1d4 --target "Goblin Archer" --seed 11   # dagger attack (R7)
run act Aria Wits --dc 8 --seed 12                                   # spots the ambush
run turn end                                                          # keeps her Load (R14)

# Borin's turn: an axe blow takes the Goblin Brute to 0 hp: it is down (R16, R18).
run turn start
run act Borin Might --extra 1d8 --target "Goblin Brute" --seed 21
run team Borin Aria --adv --aspect Wits                               # Aria's next roll (R11)
run turn end

# The Goblin Archer shoots at Aria; she answers off her turn (R10), with Borin's grant.
run turn start
run act "Goblin Archer" Finesse --target Aria --seed 31
run act Aria Finesse --target "Goblin Archer" --seed 32
refused act "Goblin Brute" Might --target Borin --seed 41            # down: it cannot act (R18)
run heal "Goblin Brute" 4             # a shaman's draught before the round is over: its turn still to come
run turn end                          # next: the Goblin Brute (R19)
run status

# The Goblin Brute (Exhaustion 1, Buffer 0) starts at Load 1: Might 3 leaves headroom 2.
run turn start
run act "Goblin Brute" Might --cost 2 --target Borin --seed 41
refused act "Goblin Brute" Might --target Borin --seed 42            # headroom 0 < Cost 1 (R2)
run turn end                                                          # round 1 is over (R19)

# Round 2. A falling torch takes the Archer's last hit point: the default order skips it.
run turn start                                                        # Aria
run damage "Goblin Archer" 1
run turn start                                                        # Borin
run turn start                                                        # the Archer is skipped (R18)
run turn end

run status
run log
run undo                                                              # the file as before 'turn end'
run log --last 2 --json

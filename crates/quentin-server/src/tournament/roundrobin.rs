//! A round robin's schedule by the circle method: the first player stays put while the others
//! turn round them one place a round, so that in `n - 1` rounds (`n` when `n` is odd, one
//! player sitting out each round) everyone has met everyone once. Played twice, the second
//! time repeats the first with the first move the other way round.

use super::{Pairing, Player};

/// The rounds of one round robin of `players` players.
#[must_use]
pub fn rounds(players: usize) -> usize {
    match players {
        0 | 1 => 0,
        n if n.is_multiple_of(2) => n - 1,
        n => n,
    }
}

/// Every round's games, `cycles` times through (the second time with the first moves swapped).
/// When the count is odd, the player who sits a round out has no pairing in it (no point
/// either: everyone sits out once).
#[must_use]
pub fn schedule(players: &[Player], cycles: u32) -> Vec<Vec<Pairing>> {
    let mut slots: Vec<Option<Player>> = players.iter().copied().map(Some).collect();
    if slots.len() % 2 == 1 {
        slots.push(None);
    }
    let n = slots.len();
    let mut once: Vec<Vec<Pairing>> = Vec::new();
    // How many more times each player has moved first than second, so far.
    let mut balance = vec![0i32; players.len()];
    let index = |p: Player| players.iter().position(|q| *q == p).unwrap_or(0);
    for round in 0..rounds(players.len()) {
        let mut games = Vec::new();
        for i in 0..n / 2 {
            let (Some(a), Some(b)) = (slots[i], slots[n - 1 - i]) else {
                continue;
            };
            // The one who moved first less often does now; even, it alternates with the round
            // and the board.
            let (ia, ib) = (index(a), index(b));
            let a_first = match balance[ia].cmp(&balance[ib]) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Greater => false,
                std::cmp::Ordering::Equal => (round + i) % 2 == 0,
            };
            let (first, second) = if a_first { (a, b) } else { (b, a) };
            balance[index(first)] += 1;
            balance[index(second)] -= 1;
            games.push(Pairing::Game { first, second });
        }
        once.push(games);
        // Everyone but the first slot turns one place.
        slots[1..].rotate_right(1);
    }
    let mut all = once.clone();
    for cycle in 1..cycles {
        for games in &once {
            all.push(
                games
                    .iter()
                    .map(|p| match *p {
                        Pairing::Game { first, second } if cycle % 2 == 1 => Pairing::Game {
                            first: second,
                            second: first,
                        },
                        other => other,
                    })
                    .collect(),
            );
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::ids::PlayerId;

    #[test]
    fn everyone_meets_everyone_once_a_cycle_and_the_second_with_colours_swapped() {
        for n in 2..=12usize {
            let players: Vec<Player> = (1..=n as i64).map(|p| PlayerId(p * 10)).collect();
            let rounds = schedule(&players, 2);
            assert_eq!(rounds.len(), 2 * super::rounds(n), "{n}");
            let mut met: HashMap<(Player, Player), u32> = HashMap::new();
            let mut balance: HashMap<Player, i32> = HashMap::new();
            for (r, games) in rounds.iter().enumerate() {
                // Every player once a round, all but one when odd.
                let mut seen: Vec<Player> = Vec::new();
                for pairing in games {
                    let Pairing::Game { first, second } = *pairing else {
                        panic!("a round robin gives no byes");
                    };
                    seen.extend([first, second]);
                    *met.entry((first, second)).or_default() += 1;
                    if r < super::rounds(n) {
                        *balance.entry(first).or_default() += 1;
                        *balance.entry(second).or_default() -= 1;
                    }
                }
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), n - n % 2, "{n} players, round {r}");
            }
            for (i, a) in players.iter().enumerate() {
                for b in &players[i + 1..] {
                    // Once each way round.
                    assert_eq!(met.get(&(*a, *b)), Some(&1), "{n}: {a} {b}");
                    assert_eq!(met.get(&(*b, *a)), Some(&1), "{n}: {b} {a}");
                }
            }
            for (player, b) in balance {
                assert!(b.abs() <= 2, "{n} players: {player} moved first {b} more");
            }
        }
    }
}

//! A Swiss round's pairing, after the FIDE Dutch system (handbook C.04.3), simplified for
//! tournaments of a few dozen players:
//!
//! - players are ranked by points, then by the order they entered (their seed);
//! - when the count is odd, the lowest-ranked player who has had no bye has it (a point), at
//!   most once each; if the others cannot then all be paired without meeting again, the next
//!   lowest has it instead;
//! - from the top of the ranking down, each player meets the one of the nearest score they have
//!   not met; within a score group the upper half meets the lower half in order (1 against
//!   `n/2 + 1`, as in the Dutch system), and an opponent whose colour is compatible is preferred
//!   to one of the same score who is not;
//! - a backtracking search takes the first whole pairing in that order of preference, so
//!   nobody meets twice while any pairing without a rematch exists; only when none does is a
//!   rematch allowed, the nearest scores first again;
//! - colours: each player's preference is for the colour they had less often (or, even, the
//!   other one than last time); both wanting the same, the stronger preference (the larger
//!   imbalance) has it, then the higher-ranked player.
//!
//! Not kept: the Dutch system's exact floater criteria (who floats down or up, and not twice in
//! a row), its absolute colour criteria (no three in a row, an imbalance of at most two) as hard
//! rules, and its handling of the top scorers in the last round.

use std::cmp::Reverse;

use super::standings::{Tally, tallies};
use super::{Pairing, Played, Player};

/// How many nodes the search may visit for one bye before it gives up on avoiding rematches.
const BUDGET: u32 = 200_000;

/// The colour a player would like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wish {
    /// No game yet.
    None,
    /// To move first, with this strength (1 mild, 2 or more strong).
    First(u32),
    /// To move second, with this strength.
    Second(u32),
}

fn wish(tally: &Tally) -> Wish {
    let balance = tally.balance();
    let last_two_same = tally.firsts.len() >= 2 && {
        let n = tally.firsts.len();
        tally.firsts[n - 1] == tally.firsts[n - 2]
    };
    let strength = balance.unsigned_abs() + u32::from(last_two_same);
    match (balance, tally.firsts.last()) {
        (b, _) if b < 0 => Wish::First(strength),
        (b, _) if b > 0 => Wish::Second(strength),
        (_, Some(true)) => Wish::Second(1),
        (_, Some(false)) => Wish::First(1),
        (_, None) => Wish::None,
    }
}

/// Whether two wishes clash: 0 they do not, 1 they do mildly, 2 strongly.
fn clash(a: Wish, b: Wish) -> u32 {
    match (a, b) {
        (Wish::First(x), Wish::First(y)) | (Wish::Second(x), Wish::Second(y)) => {
            if x.min(y) >= 2 {
                2
            } else {
                1
            }
        }
        _ => 0,
    }
}

/// The next round's pairings of `players` (in the order they entered: their seeds) after
/// `played` (every game of which has finished), the games first, then the bye if any.
#[must_use]
pub fn pair(players: &[Player], played: &[Played]) -> Vec<Pairing> {
    if players.is_empty() {
        return Vec::new();
    }
    let all = tallies(players, played);
    let tally = |p: Player| all.get(&p).cloned().unwrap_or_default();
    // The ranking: points, then seed.
    let mut ranked: Vec<Player> = players.to_vec();
    ranked.sort_by_key(|p| Reverse(tally(*p).halves));
    let met = |a: Player, b: Player| played.iter().any(|g| g.met(a, b));
    let wishes: Vec<Wish> = ranked.iter().map(|p| wish(&tally(*p))).collect();
    let halves: Vec<u32> = ranked.iter().map(|p| tally(*p).halves).collect();
    // The bye's candidates, from the lowest-ranked up: those who have had none, then (only if
    // all have) anybody.
    let byes: Vec<Option<usize>> = if ranked.len().is_multiple_of(2) {
        vec![None]
    } else {
        let fresh: Vec<Option<usize>> = (0..ranked.len())
            .rev()
            .filter(|i| tally(ranked[*i]).byes == 0)
            .map(Some)
            .collect();
        if fresh.is_empty() {
            (0..ranked.len()).rev().map(Some).collect()
        } else {
            fresh
        }
    };
    let met = |a: usize, b: usize| met(ranked[a], ranked[b]);
    for rematches in [false, true] {
        for bye in &byes {
            // Each player's place in its score group (the bye left out), and the group's size.
            let place: Vec<(usize, usize)> = (0..ranked.len())
                .map(|i| {
                    let group: Vec<usize> = (0..ranked.len())
                        .filter(|j| halves[*j] == halves[i] && Some(*j) != *bye)
                        .collect();
                    let at = group.iter().position(|j| *j == i).unwrap_or(0);
                    (at, group.len())
                })
                .collect();
            let search = Search {
                halves: &halves,
                wishes: &wishes,
                place: &place,
                met: &met,
            };
            let mut free: Vec<bool> = (0..ranked.len()).map(|i| Some(i) != *bye).collect();
            let mut pairs = Vec::new();
            let mut budget = BUDGET;
            if search.complete(&mut free, &mut pairs, rematches, &mut budget) {
                let mut round: Vec<Pairing> = pairs
                    .iter()
                    .enumerate()
                    .map(|(board, (a, b))| colours(&ranked, &wishes, board, *a, *b))
                    .collect();
                if let Some(i) = bye {
                    round.push(Pairing::Bye(ranked[*i]));
                }
                return round;
            }
        }
    }
    // Unreachable: with rematches allowed, any even set of players pairs.
    Vec::new()
}

/// Who moves first between the players ranked `a` and `b` (`a` the higher), on `board`.
fn colours(ranked: &[Player], wishes: &[Wish], board: usize, a: usize, b: usize) -> Pairing {
    let a_first = match (wishes[a], wishes[b]) {
        // Round one: the higher-ranked moves first on the odd boards (counted from 1).
        (Wish::None, Wish::None) => board.is_multiple_of(2),
        (Wish::First(x), Wish::First(y)) => x >= y,
        (Wish::Second(x), Wish::Second(y)) => x < y,
        (Wish::First(_), _) | (_, Wish::Second(_)) => true,
        (Wish::Second(_), _) | (_, Wish::First(_)) => false,
    };
    let (first, second) = if a_first { (a, b) } else { (b, a) };
    Pairing::Game {
        first: ranked[first],
        second: ranked[second],
    }
}

/// What the backtracking search reads, by rank.
struct Search<'a> {
    halves: &'a [u32],
    wishes: &'a [Wish],
    place: &'a [(usize, usize)],
    met: &'a dyn Fn(usize, usize) -> bool,
}

impl Search<'_> {
    /// Pairs every free player, the highest-ranked first, into `pairs`; false (and `pairs` as
    /// it was) when it cannot, or the budget runs out.
    fn complete(
        &self,
        free: &mut [bool],
        pairs: &mut Vec<(usize, usize)>,
        rematches: bool,
        budget: &mut u32,
    ) -> bool {
        let Some(top) = free.iter().position(|f| *f) else {
            return true;
        };
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        free[top] = false;
        let mut candidates: Vec<usize> = (top + 1..free.len())
            .filter(|c| free[*c] && (rematches || !(self.met)(top, *c)))
            .collect();
        candidates.sort_by_key(|c| self.preference(top, *c));
        for c in candidates {
            free[c] = false;
            pairs.push((top, c));
            if self.complete(free, pairs, rematches, budget) {
                return true;
            }
            pairs.pop();
            free[c] = true;
        }
        free[top] = true;
        false
    }

    /// How much `top` would rather not meet `c`: a rematch last, then the difference of
    /// scores, the clash of colours, and the distance from the Dutch opponent (upper half
    /// against lower half) within the score group.
    fn preference(&self, top: usize, c: usize) -> (bool, u32, u32, usize) {
        let (at, size) = self.place[top];
        let (c_at, _) = self.place[c];
        let dutch = if self.halves[c] == self.halves[top] {
            c_at.abs_diff(at + size / 2)
        } else {
            c_at
        };
        (
            (self.met)(top, c),
            self.halves[top].abs_diff(self.halves[c]),
            clash(self.wishes[top], self.wishes[c]),
            dutch,
        )
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use crate::ids::PlayerId;
    use crate::tournament::GameResult;

    /// The players numbered `numbers`.
    fn players(numbers: &[i64]) -> Vec<PlayerId> {
        numbers.iter().copied().map(PlayerId).collect()
    }

    /// Plays `rounds` Swiss rounds of `n` players, the results drawn from `luck`.
    fn play(n: usize, rounds: u32, luck: &[u8]) -> Vec<Played> {
        let players: Vec<Player> = (1..=n as i64).map(PlayerId).collect();
        let mut played: Vec<Played> = Vec::new();
        let mut k = 0;
        for round in 1..=rounds {
            for pairing in pair(&players, &played) {
                let result = match pairing {
                    Pairing::Bye(_) => None,
                    Pairing::Game { .. } => {
                        k += 1;
                        Some(match luck[k % luck.len()] % 5 {
                            0 | 1 => GameResult::FirstWon,
                            2 | 3 => GameResult::SecondWon,
                            _ => GameResult::Draw,
                        })
                    }
                };
                played.push(Played {
                    round,
                    pairing,
                    result,
                });
            }
        }
        played
    }

    #[test]
    fn round_one_pairs_the_upper_half_with_the_lower_half_alternating_colours() {
        let round = pair(&players(&[1, 2, 3, 4, 5, 6, 7]), &[]);
        assert_eq!(
            round,
            [
                Pairing::Game {
                    first: PlayerId(1),
                    second: PlayerId(4)
                },
                Pairing::Game {
                    first: PlayerId(5),
                    second: PlayerId(2)
                },
                Pairing::Game {
                    first: PlayerId(3),
                    second: PlayerId(6)
                },
                Pairing::Bye(PlayerId(7)),
            ]
        );
    }

    #[test]
    fn round_two_pairs_winners_with_winners_giving_each_the_other_colour_than_before() {
        // Round one: 1-5, 6-2, 3-7, 8-4, won by 5, 6, 7 and 8.
        let played = play(8, 1, &[0, 2]);
        let round = pair(&players(&[1, 2, 3, 4, 5, 6, 7, 8]), &played);
        let all = tallies(&players(&[1, 2, 3, 4, 5, 6, 7, 8]), &played);
        for pairing in &round {
            let Pairing::Game { first, second } = *pairing else {
                panic!("no bye with 8")
            };
            assert_eq!(all[&first].halves, all[&second].halves, "{pairing:?}");
            // Who moved second moves first now.
            assert!(
                !all[&first].firsts[0] && all[&second].firsts[0],
                "{pairing:?}"
            );
        }
    }

    #[test]
    fn nobody_has_a_second_bye_while_others_have_had_none() {
        let played = play(5, 1, &[0]);
        let byes: Vec<Player> = played
            .iter()
            .filter_map(|g| match g.pairing {
                Pairing::Bye(p) => Some(p),
                Pairing::Game { .. } => None,
            })
            .collect();
        assert_eq!(byes, [PlayerId(5)]);
        let round = pair(&players(&[1, 2, 3, 4, 5]), &played);
        let Some(Pairing::Bye(next)) = round.last() else {
            panic!("a bye with 5")
        };
        assert_ne!(*next, PlayerId(5));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn every_round_pairs_everyone_none_twice_and_byes_at_most_once(
            n in 2usize..=20,
            extra in 0u32..=10,
            luck in proptest::collection::vec(any::<u8>(), 1..64),
        ) {
            // Rounds enough for a pairing without rematches always to exist (each player
            // still has more than half the others to meet).
            let rounds = (((n - 1) / 2) as u32).max(1).min(1 + extra);
            let played = play(n, rounds, &luck);
            let mut byes: HashMap<Player, u32> = HashMap::new();
            for round in 1..=rounds {
                let mut seen: Vec<Player> = Vec::new();
                for g in played.iter().filter(|g| g.round == round) {
                    match g.pairing {
                        Pairing::Game { first, second } => seen.extend([first, second]),
                        Pairing::Bye(p) => {
                            seen.push(p);
                            *byes.entry(p).or_default() += 1;
                        }
                    }
                }
                seen.sort_unstable();
                prop_assert_eq!(seen, (1..=n as i64).map(PlayerId).collect::<Vec<_>>(), "round {}", round);
            }
            prop_assert!(byes.values().all(|b| *b == 1), "byes {:?}", byes);
            for (i, a) in played.iter().enumerate() {
                if let Pairing::Game { first, second } = a.pairing {
                    prop_assert!(
                        !played[i + 1..].iter().any(|b| b.met(first, second)),
                        "{} and {} met twice", first, second
                    );
                }
            }
        }
    }
}

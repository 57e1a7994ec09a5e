//! The root of a solve: its first moves, shared among the threads, depth after depth.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use quentin_rules::{Action, Game, Position};

use super::key::Keyer;
use super::store::Store;
use super::{
    Counter, Engine, FirstMove, MAX_DEPTH, OutOfBudget, Progress, Settled, Solution, SolveLimits,
    SolveOptions, Verdict, children, dfpn, game_bound, plain,
};

/// What one first move's search said: its index, its value (or the budget's end) and whether
/// no line was cut by the depth.
type Outcome = (usize, Result<Settled, OutOfBudget>, bool);

pub(super) fn run(pos: &Position, limits: &SolveLimits, options: SolveOptions<'_>) -> Solution {
    // A finished game, or no move left to win with.
    let (Some(mover), false) = (pos.to_move(), limits.depth == Some(0)) else {
        return Solution {
            verdict: Verdict::NoWin,
            depth: 0,
            winning: Vec::new(),
            complete: true,
            nodes: 0,
        };
    };
    let techniques = options.techniques;
    let kids = children(pos, None, techniques.ordering);
    let total = AtomicU64::new(kids.len() as u64);
    let stop = AtomicBool::new(false);
    let to_end = limits.depth.is_none();
    let depth = limits
        .depth
        .map_or_else(|| game_bound(pos), |d| d.min(MAX_DEPTH));
    let quint = pos.game() == Game::Quint;
    let threads = if quint { 1 } else { options.threads.max(1) };
    let mut engines: Vec<Box<dyn Engine>> = (0..threads)
        .map(|_| -> Box<dyn Engine> {
            if quint {
                Box::new(plain::Plain::new(to_end))
            } else {
                Box::new(dfpn::DfPn::new(
                    pos.game(),
                    pos.size(),
                    techniques,
                    options.table,
                ))
            }
        })
        .collect();
    // First moves equal under the board's symmetries are one first move: the first of each
    // class is searched, the others take its value (so that two threads do not prove one
    // position twice).
    let class: Vec<usize> = if quint || !techniques.symmetry {
        (0..kids.len()).collect()
    } else {
        let keyer = Keyer::new(pos.game(), pos.size(), true);
        let keys: Vec<_> = kids.iter().map(|k| keyer.key(&k.pos, false)).collect();
        (0..kids.len())
            .map(|i| keys.iter().position(|k| *k == keys[i]).unwrap_or(i))
            .collect()
    };
    if let Some(store) = options.store.as_deref() {
        for engine in &mut engines {
            engine.import(store);
        }
    }
    let store = options.store.map(Mutex::new);
    let progress = options.progress;
    // Each first move's proof (the mover's moves it needs), `None` while unsettled; the depths
    // are tried shallowest first until a win is found (the depth it needs), then the asked
    // depth settles the other first moves. To the end of a connection game the search goes
    // straight to the bound (the proofs tell their own depth).
    let quint_to_end = to_end && quint;
    let mut d = if to_end && !quint_to_end { depth } else { 1 };
    let mut wins: Vec<Option<u16>> = vec![None; kids.len()];
    let mut complete = true;
    let mut searched = 0;
    let mut exhausted;
    loop {
        let next = AtomicUsize::new(0);
        let outcomes: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for engine in &mut engines {
                let (kids, wins, next, outcomes, class) = (&kids, &wins, &next, &outcomes, &class);
                let (store, total) = (&store, &total);
                let mut counter = Counter::new(limits, total, &stop);
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(kid) = kids.get(i) else { break };
                        if wins[i].is_some() || class[i] != i {
                            continue;
                        }
                        let (settled, exhaustive) = if kid.pos.is_over() {
                            let s = if kid.pos.winner() == Some(mover) {
                                Settled::Win(0)
                            } else {
                                Settled::NoWinBelow(u16::MAX)
                            };
                            (Ok(s), true)
                        } else {
                            let s =
                                engine.defender_to_move(&kid.pos, kid.action, d - 1, &mut counter);
                            (s, engine.exhaustive())
                        };
                        let out = settled.is_err();
                        if let (Ok(value), Some(tell)) = (settled, progress) {
                            let first = FirstMove {
                                action: kid.action,
                                win_in: match value {
                                    Settled::Win(need) => Some(usize::from(need) + 1),
                                    Settled::NoWinBelow(_) => None,
                                },
                                nodes: total.load(Ordering::Relaxed),
                            };
                            checkpoint(&**engine, store.as_ref(), &first, tell);
                        }
                        outcomes
                            .lock()
                            .expect("a solver thread panicked") // ok: poisoned only by a panic
                            .push((i, settled, exhaustive));
                        if out {
                            break;
                        }
                    }
                });
            }
        });
        exhausted = true;
        // A poisoned lock means a solver thread panicked: this thread panics with it.
        let outcomes = outcomes.into_inner().expect("a solver thread panicked"); // ok: as said
        for (i, settled, exhaustive) in outcomes {
            exhausted &= exhaustive;
            match settled {
                Ok(Settled::Win(need)) => wins[i] = Some(need + 1),
                Ok(Settled::NoWinBelow(_)) => {}
                Err(OutOfBudget) => complete = false,
            }
        }
        for i in 0..kids.len() {
            wins[i] = wins[class[i]];
        }
        if !complete {
            break;
        }
        searched = d;
        // Quint to the end: a depth that no line outran holds for every depth.
        if d >= depth || (quint_to_end && exhausted) {
            break;
        }
        d = if wins.iter().any(Option::is_some) {
            depth
        } else {
            d + 1
        };
    }
    if let Some(store) = store {
        // A poisoned lock means a solver thread panicked: this thread panics with it.
        let store = store.into_inner().expect("a solver thread panicked"); // ok: as said
        for engine in &engines {
            engine.export(store);
        }
    }
    let quickest = wins.iter().flatten().min().copied();
    let verdict = match quickest {
        Some(_) => Verdict::Win,
        None if !complete || (quint_to_end && !exhausted) => Verdict::Unknown,
        None => Verdict::NoWin,
    };
    let legal = pos.legal_actions();
    let mut winning: Vec<Action> = kids
        .iter()
        .zip(&wins)
        .filter(|(_, w)| w.is_some())
        .map(|(k, _)| k.action)
        .collect();
    winning.sort_by_key(|a| legal.iter().position(|l| l == a));
    Solution {
        verdict,
        depth: quickest.map_or(searched, usize::from),
        winning,
        complete,
        nodes: total.load(Ordering::Relaxed),
    }
}

/// Tells `tell` of a first move settled, after adding what `engine` proved to the store (when
/// one is given), so that the store holds every proof so far when it is told.
fn checkpoint(
    engine: &dyn Engine,
    store: Option<&Mutex<&mut Store>>,
    first: &FirstMove,
    tell: Progress<'_>,
) {
    match store {
        Some(store) => {
            // A poisoned lock means another solver thread panicked: this one panics with it.
            let mut store = store.lock().expect("a solver thread panicked"); // ok: as said
            engine.export(&mut store);
            tell(first, Some(&**store));
        }
        None => tell(first, None),
    }
}

//! `quentin puzzles`: generate puzzles proved by the exact solver, export the shipped set as
//! JSON, and prove a set again (docs/puzzles.md). The search crate's `puzzles` module finds and
//! proves them; this reads the options, the files, and prints.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use serde_json::json;

use crate::rules::{Action, Game};
use crate::search::puzzles::{
    self, Goal, MAX_DEPTH, MAX_NODES, Puzzle, PuzzleSet, PuzzleSpec, SetError, generate, symmetry,
    theme,
};
use crate::search::rng::Rng;

use super::{GameArg, GameOptions, usage_error, write_stdout};

#[derive(Args, Debug)]
pub(super) struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
enum PuzzlesCommand {
    /// Play games between computer levels 1 to 4 and keep the positions where the solver
    /// proves one move to find (a win, the only defence, the pie rule's choice); print the
    /// set, or add it to a set's file.
    Generate(GenerateArgs),
    /// Print every puzzle of the set that ships with the program, one JSON object a line.
    Export(ExportArgs),
    /// Prove every puzzle of the shipped set (or of the files named) again, and print a
    /// summary; exit with status 1 naming the puzzles that fail.
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
struct GenerateArgs {
    #[command(flatten)]
    game: GameOptions,
    /// What the puzzles ask: win, defend, or swap (the pie rule's choice after the first
    /// stone, proved to the end of the game: small boards only).
    #[arg(long, value_name = "GOAL", value_parser = parse_goal, default_value = "win")]
    goal: Goal,
    /// The depths to keep, N or A-B within 1 to 4: a win's moves, a threat's moves.
    #[arg(long, value_name = "N", value_parser = parse_depths, default_value = "1-3")]
    depth: Depths,
    /// How many puzzles, 1 to 10000.
    #[arg(long, value_name = "K", value_parser = parse_puzzle_count, default_value = "10")]
    count: usize,
    /// The seed of the games: the same seed, the same puzzles.
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
    /// The positions each solve may create, 1 to 5000000 (default 200000); a position whose
    /// solve runs out is not kept.
    #[arg(long, value_name = "N", value_parser = parse_budget, default_value = "200000")]
    nodes: u64,
    /// Add the puzzles to this set's file (created if absent), after the ones it holds and
    /// none equal to one of them; the command joins the file's header. The file is rewritten
    /// whole after each puzzle.
    #[arg(long, value_name = "FILE")]
    into: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct ExportArgs {
    /// Only this game's puzzles.
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// Only the puzzles with this theme (docs/puzzles.md lists them).
    #[arg(long, value_name = "T", value_parser = parse_theme)]
    theme: Option<&'static str>,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// The set files to prove (default: the set that ships with the program).
    files: Vec<PathBuf>,
    /// Prove K puzzles drawn at random from all of them instead of every one.
    #[arg(long, value_name = "K", value_parser = parse_puzzle_count)]
    sample: Option<usize>,
    /// The seed of the draw of --sample.
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
}

/// The depths of `--depth`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Depths(std::ops::RangeInclusive<usize>);

/// Reads `--depth`: N, or A-B, within 1 to [`MAX_DEPTH`].
fn parse_depths(text: &str) -> Result<Depths, String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    match (a.parse::<usize>(), b.parse::<usize>()) {
        (Ok(a), Ok(b)) if 1 <= a && a <= b && b <= MAX_DEPTH => Ok(Depths(a..=b)),
        _ => Err(format!(
            "{text:?} is not a depth: N or A-B, from 1 to {MAX_DEPTH}"
        )),
    }
}

/// Reads `--goal`.
fn parse_goal(text: &str) -> Result<Goal, String> {
    Goal::from_name(text).ok_or_else(|| format!("{text:?} is not a goal: win, defend or swap"))
}

/// Reads `--theme`.
pub(super) fn parse_theme(text: &str) -> Result<&'static str, String> {
    theme(text).ok_or_else(|| {
        let names: Vec<&str> = puzzles::THEMES.iter().map(|(t, _)| *t).collect();
        format!("{text:?} is not a theme: {}", names.join(", "))
    })
}

/// Reads `--count` and `--sample`: 1 to 10000.
fn parse_puzzle_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=10_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "{text:?} is not a number of puzzles from 1 to 10000"
        )),
    }
}

/// Reads `--nodes`: 1 to [`MAX_NODES`].
fn parse_budget(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (1..=MAX_NODES).contains(&n) => Ok(n),
        _ => Err(format!(
            "{text:?} is not a budget: the positions a solve may create, from 1 to {MAX_NODES}"
        )),
    }
}

pub(super) fn puzzles(args: &PuzzlesArgs) -> Result<()> {
    match &args.command {
        PuzzlesCommand::Generate(g) => generate_set(g),
        PuzzlesCommand::Export(e) => export(e),
        PuzzlesCommand::Verify(v) => verify(v),
    }
}

/// The command line that makes the same puzzles, for the file's header.
fn command_of(g: &GenerateArgs, spec: &PuzzleSpec) -> String {
    let s = spec.setup;
    let mut words = vec![
        format!("quentin puzzles generate --game {}", s.game.name()),
        format!("--size {}", s.size),
    ];
    if s.game == Game::Quint {
        words.push(format!("--pieces {}", s.pieces));
    } else if !s.pie {
        words.push("--no-pie".into());
    }
    words.push(format!("--goal {}", spec.goal));
    if spec.goal != Goal::Swap {
        let (a, b) = (spec.depths.start(), spec.depths.end());
        words.push(if a == b {
            format!("--depth {a}")
        } else {
            format!("--depth {a}-{b}")
        });
    }
    words.push(format!("--count {}", g.count));
    words.push(format!("--seed {}", g.seed));
    words.push(format!("--nodes {}", g.nodes));
    words.join(" ")
}

fn generate_set(g: &GenerateArgs) -> Result<()> {
    let setup = g.game.setup()?;
    if g.goal == Goal::Swap && !setup.pie {
        return Err(usage_error(
            "--goal swap needs the pie rule: a game with one, without --no-pie",
        ));
    }
    let spec = PuzzleSpec {
        setup,
        goal: g.goal,
        count: g.count,
        seed: g.seed,
        depths: g.depth.0.clone(),
        nodes: g.nodes,
        max_games: g.count.saturating_mul(100),
    };
    let command = command_of(g, &spec);
    let Some(path) = &g.into else {
        let mut set = PuzzleSet::new(setup.game);
        set.commands.push(command);
        let head = set.to_text();
        write_stdout(&head)?;
        let mut failed = None;
        generate(&spec, &[], |p| {
            set.add(p.clone());
            let text = set.to_text();
            let line = text.lines().last().unwrap_or_default();
            if failed.is_none()
                && let Err(e) = write_stdout(&format!("{line}\n"))
            {
                failed = Some(e);
            }
        });
        return failed.map_or(Ok(()), Err);
    };
    let mut set = match std::fs::read_to_string(path) {
        Ok(text) => PuzzleSet::parse(&text, &path.display().to_string())?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => PuzzleSet::new(setup.game),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if set.game != setup.game {
        bail!(
            "{} holds {} puzzles, not {}",
            path.display(),
            set.game.title(),
            setup.game.title()
        );
    }
    set.commands.push(command);
    let known = set.puzzles.clone();
    let mut failed = None;
    generate(&spec, &known, |p| {
        set.add(p.clone());
        if failed.is_none()
            && let Err(e) = save(path, &set)
        {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    save(path, &set)
}

/// Writes `set` to `path`, whole and at once.
fn save(path: &Path, set: &PuzzleSet) -> Result<()> {
    crate::save::write_atomically(path, set.to_text().as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The shipped sets, or a message naming the faulty file.
fn shipped() -> Result<Vec<PuzzleSet>> {
    crate::puzzles::shipped().map_err(|e| anyhow::anyhow!("{e}"))
}

/// A puzzle as one JSON object, in the fields of issue 49's export (and `pieces` for a Quint
/// puzzle with other than the default pieces, which the shipped set has none of).
fn json_of(p: &Puzzle) -> serde_json::Value {
    let tokens =
        |actions: &[Action]| -> Vec<String> { actions.iter().map(ToString::to_string).collect() };
    let mut object = json!({
        "id": p.id,
        "game": p.setup.game.name(),
        "size": p.setup.size,
        "pie": p.setup.pie,
        "setup": tokens(&p.line),
        "solution": tokens(&p.solution),
        "goal": p.goal.name(),
        "themes": p.themes,
        "rating": p.rating,
    });
    if p.setup.pieces != p.setup.game.default_pieces()
        && let Some(map) = object.as_object_mut()
    {
        map.insert("pieces".into(), json!(p.setup.pieces));
    }
    object
}

fn export(e: &ExportArgs) -> Result<()> {
    let mut out = String::new();
    for set in shipped()? {
        if e.game.is_some_and(|g| Game::from(g) != set.game) {
            continue;
        }
        for p in &set.puzzles {
            if e.theme.is_none_or(|t| p.themes.contains(&t)) {
                out.push_str(&json_of(p).to_string());
                out.push('\n');
            }
        }
    }
    write_stdout(&out)
}

/// One puzzle to prove, with the file it came from.
struct Item<'a> {
    file: &'a str,
    puzzle: &'a Puzzle,
}

fn verify(v: &VerifyArgs) -> Result<()> {
    let clock = Instant::now();
    let sets: Vec<(String, PuzzleSet)> = if v.files.is_empty() {
        let texts = crate::puzzles::FILES;
        shipped()?
            .into_iter()
            .zip(texts)
            .map(|(set, (path, _))| (path.to_string(), set))
            .collect()
    } else {
        let mut sets = Vec::new();
        for path in &v.files {
            let name = path.display().to_string();
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
            let set =
                PuzzleSet::parse(&text, &name).map_err(|e: SetError| anyhow::anyhow!("{e}"))?;
            sets.push((name, set));
        }
        sets
    };
    let mut failures: Vec<String> = Vec::new();
    // No two puzzles equal under the game's symmetries, across every file.
    let mut seen: HashMap<Vec<u8>, String> = HashMap::new();
    for (file, set) in &sets {
        for p in &set.puzzles {
            if let Ok(pos) = p.position()
                && let Some(first) = seen.insert(symmetry::key(&pos), p.id.clone())
            {
                failures.push(format!(
                    "{file}: {}: the same position as {first} (under the game's symmetries)",
                    p.id
                ));
            }
        }
    }
    let mut items: Vec<Item> = sets
        .iter()
        .flat_map(|(file, set)| set.puzzles.iter().map(move |puzzle| Item { file, puzzle }))
        .collect();
    if let Some(k) = v.sample {
        let mut rng = Rng::new(v.seed);
        // A partial shuffle: the first k of a random order.
        for i in 0..k.min(items.len()) {
            let j = i + rng.below(items.len() - i);
            items.swap(i, j);
        }
        items.truncate(k);
    }
    let results = prove_all(&items);
    let mut summary: Vec<(String, [usize; 4])> = Vec::new();
    for (item, result) in items.iter().zip(results) {
        let game = item.puzzle.setup.game.name().to_string();
        let at = match summary.iter().position(|(g, _)| *g == game) {
            Some(i) => i,
            None => {
                summary.push((game, [0; 4]));
                summary.len() - 1
            }
        };
        let counts = &mut summary[at].1;
        match result {
            Ok(()) => {
                let goal = Goal::ALL
                    .iter()
                    .position(|&g| g == item.puzzle.goal)
                    .unwrap_or(0);
                counts[goal] += 1;
            }
            Err(why) => {
                counts[3] += 1;
                failures.push(format!("{}: {}: {why}", item.file, item.puzzle.id));
            }
        }
    }
    let mut out = String::new();
    for (game, [win, defend, swap, failed]) in &summary {
        out.push_str(&format!(
            "{game}: {} proved (win {win}, defend {defend}, swap {swap}), {failed} failed\n",
            win + defend + swap
        ));
    }
    out.push_str(&format!(
        "{} puzzles in {:.1} s\n",
        items.len(),
        clock.elapsed().as_secs_f64()
    ));
    write_stdout(&out)?;
    if failures.is_empty() {
        return Ok(());
    }
    let mut stderr = String::new();
    for f in &failures {
        stderr.push_str(f);
        stderr.push('\n');
    }
    eprint!("{stderr}");
    bail!(
        "{} puzzle{} failed",
        failures.len(),
        if failures.len() == 1 { "" } else { "s" }
    )
}

/// Each item's proof, on as many threads as the machine has cores.
fn prove_all(items: &[Item]) -> Vec<Result<(), String>> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<(), String>>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(items.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = puzzles::check(item.puzzle);
                    if let Ok(mut slot) = results[i].lock() {
                        *slot = Some(result);
                    }
                }
            });
        }
    });
    results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err("not proved: its thread failed".into()))
        })
        .collect()
}

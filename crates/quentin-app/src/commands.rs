//! The one table of the interface's keys: what each key asks of the app ([`Command`]) and how
//! the help names it. The app's dispatch, the help overlay, `--help` and the README's table all
//! come from it (the README through a test that compares them), so that a key cannot do one
//! thing and be listed as another.

use crate::input::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks of the app. Some mean a little more in one mode than another (the arrows
/// move the cursor in a game and step through a replay); [`ROWS`] says what in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Left: the cursor left; a step back in a replay (or into the review after a game).
    Left,
    /// Right: the cursor right; a step forward in a replay.
    Right,
    /// Up: the cursor up.
    Up,
    /// Down: the cursor down.
    Down,
    /// The first position of a replay (or of the review after a game).
    First,
    /// The last position of a replay.
    Last,
    /// Play at the cursor (Enter).
    Play,
    /// Play at the cursor, or in Quint's choice of captures take or spare the piece there
    /// (Space).
    Select,
    /// Quint: choose the captures of a move.
    Capture,
    /// Swap colours by the pie rule.
    Swap,
    /// Take back an action (against the computer, its reply and yours).
    Undo,
    /// Redo what was taken back.
    Redo,
    /// A new game, once this one is over.
    NewGame,
    /// Play on from the shown position of a replay, into a new record.
    PlayOn,
    /// A hint from the computer.
    Hint,
    /// The live analysis on or off.
    Analysis,
    /// The proof browser on or off (a board a shipped book solves).
    Proof,
    /// Review the game in the background, after it is over or in a replay.
    Review,
    /// Show the position before the next marked action of the review.
    NextMark,
    /// Show the position before the previous marked action of the review.
    PreviousMark,
    /// Scroll the action list (or the help) a page up.
    PageUp,
    /// Scroll the action list (or the help) a page down.
    PageDown,
    /// Open or close the help.
    Help,
    /// Quit (Esc first closes what is open).
    Quit,
    /// Give the terminal back to the shell (Ctrl-Z).
    Suspend,
    /// On a server: decline the opponent's asking to take an action back.
    Decline,
    /// Resign an online game (pressed twice).
    Resign,
    /// Abort an online game before both players have made a first move.
    Abort,
    /// Leave the game (its record is saved) for the puzzles of its game.
    Puzzles,
    /// Open the prompt to type a move (`c3`, `swap`, `pass`, `h2-h3`).
    Type,
    /// After a review of a game against the computer: the person's own mistakes as exercises.
    Mistakes,
    /// In the puzzles: choose how to take them (a difficulty, Streak, Storm, a theme, one's
    /// failed puzzles again).
    Ways,
    /// Why: step through the refutation of a reviewed action, or a defence puzzle's threat
    /// played out; pressed again, back.
    Why,
}

/// A key as the table names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A key without Ctrl.
    Code(KeyCode),
    /// A character typed with Ctrl.
    Ctrl(char),
}

/// Where a row of the help goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Keys of a game of Quentin, Konobi or Brique (and of every screen).
    Game,
    /// Keys of a replay.
    Replay,
    /// Keys of a game of Quint, whose pieces move.
    Quint,
    /// Keys that mean something else in a puzzle (`quentin puzzle`).
    Puzzle,
    /// Keys the help does not list as a row of their own.
    Unlisted,
}

/// One row of the help: the keys as people read them, what they do, and the keys themselves
/// with the command each gives.
#[derive(Debug)]
pub struct Row {
    /// Where the row goes.
    pub section: Section,
    /// The keys, as the help writes them.
    pub keys: &'static str,
    /// What they do.
    pub does: &'static str,
    /// Each key and its command.
    pub binds: &'static [(Key, Command)],
}

use Command as C;
use Key::{Code, Ctrl};
use KeyCode::{Char, Down, End, Enter, Esc, Home, Left, PageDown, PageUp, Right, Up};

/// The cursor keys.
const ARROWS: &[(Key, Command)] = &[
    (Code(Left), C::Left),
    (Code(Char('h')), C::Left),
    (Code(Right), C::Right),
    (Code(Char('l')), C::Right),
    (Code(Up), C::Up),
    (Code(Char('k')), C::Up),
    (Code(Down), C::Down),
    (Code(Char('j')), C::Down),
];
const PLAY: &[(Key, Command)] = &[(Code(Enter), C::Play), (Code(Char(' ')), C::Select)];
const UNDO_REDO: &[(Key, Command)] = &[(Code(Char('u')), C::Undo), (Code(Char('r')), C::Redo)];
const HINT_ANALYSIS: &[(Key, Command)] =
    &[(Code(Char('t')), C::Hint), (Code(Char('a')), C::Analysis)];
const REVIEW: &[(Key, Command)] = &[
    (Code(Char('v')), C::Review),
    (Code(Char('m')), C::NextMark),
    (Code(Char('M')), C::PreviousMark),
];
const PAGES: &[(Key, Command)] = &[(Code(PageUp), C::PageUp), (Code(PageDown), C::PageDown)];
const HELP: &[(Key, Command)] = &[(Code(Char('?')), C::Help)];
const TYPE: &[(Key, Command)] = &[(Code(Char(':')), C::Type)];
const WHY: &[(Key, Command)] = &[(Code(Char('w')), C::Why)];
const MISTAKES: &[(Key, Command)] = &[(Code(Char('L')), C::Mistakes)];

/// The table. A key's command is that of the first row that binds it.
pub const ROWS: &[Row] = &[
    Row {
        section: Section::Game,
        keys: "arrows, h j k l",
        does: "move the cursor",
        binds: ARROWS,
    },
    Row {
        section: Section::Game,
        keys: "Enter, Space",
        does: "play at the cursor",
        binds: PLAY,
    },
    Row {
        section: Section::Game,
        keys: ":",
        does: "type a move (c3, swap, pass); Enter plays it, Esc closes",
        binds: TYPE,
    },
    Row {
        section: Section::Game,
        keys: "mouse",
        does: "point to move the cursor, click to play",
        binds: &[],
    },
    Row {
        section: Section::Game,
        keys: "s",
        does: "swap colours (pie rule, White's first turn)",
        binds: &[(Code(Char('s')), C::Swap)],
    },
    Row {
        section: Section::Game,
        keys: "u, r",
        does: "undo, redo (no limit)",
        binds: UNDO_REDO,
    },
    Row {
        section: Section::Game,
        keys: "n",
        does: "new game, once the game is won (on a server: a rematch)",
        binds: &[(Code(Char('n')), C::NewGame)],
    },
    Row {
        section: Section::Game,
        keys: "P",
        does: "puzzles of this game; the game stays saved",
        binds: &[(Code(Char('P')), C::Puzzles)],
    },
    Row {
        section: Section::Game,
        keys: "t, a",
        does: "hint from the computer; live analysis on/off",
        binds: HINT_ANALYSIS,
    },
    Row {
        section: Section::Game,
        keys: "b",
        does: "proof browser on a solved board: the proven moves",
        binds: &[(Code(Char('b')), C::Proof)],
    },
    Row {
        section: Section::Game,
        keys: "v, m, M",
        does: "after the game: review it; next, previous marked action",
        binds: REVIEW,
    },
    Row {
        section: Section::Game,
        keys: "w",
        does: "at a marked action of the review: step through why it loses (w again: back)",
        binds: WHY,
    },
    Row {
        section: Section::Game,
        keys: "L",
        does: "after a review of a game against the computer: learn from your mistakes",
        binds: MISTAKES,
    },
    Row {
        section: Section::Game,
        keys: "R, A, d",
        does: "on a server: resign (press twice); abort before both have moved; decline a \
               takeback",
        binds: &[
            (Code(Char('R')), C::Resign),
            (Code(Char('A')), C::Abort),
            (Code(Char('d')), C::Decline),
        ],
    },
    Row {
        section: Section::Game,
        keys: "PgUp, PgDn, wheel",
        does: "scroll the action list",
        binds: PAGES,
    },
    Row {
        section: Section::Game,
        keys: "?",
        does: "open or close this help",
        binds: HELP,
    },
    Row {
        section: Section::Game,
        keys: "q, Esc, Ctrl-C",
        does: "quit (the record is already saved)",
        binds: &[
            (Code(Char('q')), C::Quit),
            (Code(Esc), C::Quit),
            (Ctrl('c'), C::Quit),
        ],
    },
    Row {
        section: Section::Replay,
        keys: "Left, Right, h, l",
        does: "step back, step forward",
        binds: &[
            (Code(Left), C::Left),
            (Code(Char('h')), C::Left),
            (Code(Right), C::Right),
            (Code(Char('l')), C::Right),
        ],
    },
    Row {
        section: Section::Replay,
        keys: "Home, End, g, G",
        does: "first, last position",
        binds: &[
            (Code(Home), C::First),
            (Code(Char('g')), C::First),
            (Code(End), C::Last),
            (Code(Char('G')), C::Last),
        ],
    },
    Row {
        section: Section::Replay,
        keys: "p",
        does: "play on from here into a new record",
        binds: &[(Code(Char('p')), C::PlayOn)],
    },
    Row {
        section: Section::Replay,
        keys: "v, m, M",
        does: "review the game; next, previous marked action",
        binds: REVIEW,
    },
    Row {
        section: Section::Replay,
        keys: "w",
        does: "at a marked action: step through why it loses (w again: back)",
        binds: WHY,
    },
    Row {
        section: Section::Replay,
        keys: "L",
        does: "after a review of a game against the computer: learn from your mistakes",
        binds: MISTAKES,
    },
    Row {
        section: Section::Quint,
        keys: "arrows, h j k l",
        does: "move the cursor",
        binds: ARROWS,
    },
    Row {
        section: Section::Quint,
        keys: "Enter, Space",
        does: "drop; select a piece, then its cell",
        binds: PLAY,
    },
    Row {
        section: Section::Quint,
        keys: "x, Space",
        does: "take or spare the marked piece",
        binds: &[(Code(Char('x')), C::Capture), (Code(Char(' ')), C::Select)],
    },
    Row {
        section: Section::Quint,
        keys: "Enter",
        does: "play the step, taking the marked pieces",
        binds: &[(Code(Enter), C::Play)],
    },
    Row {
        section: Section::Quint,
        keys: ":",
        does: "type a move (c3, h2-h3, h2-h3xh4); Enter plays it, Esc closes",
        binds: TYPE,
    },
    Row {
        section: Section::Quint,
        keys: "mouse",
        does: "click as Enter; on a marked piece, as x",
        binds: &[],
    },
    Row {
        section: Section::Quint,
        keys: "Esc",
        does: "go back one stage; with none, quit",
        binds: &[(Code(Esc), C::Quit)],
    },
    Row {
        section: Section::Quint,
        keys: "u, r",
        does: "undo, redo (no limit)",
        binds: UNDO_REDO,
    },
    Row {
        section: Section::Quint,
        keys: "n",
        does: "new game, once the game is over",
        binds: &[(Code(Char('n')), C::NewGame)],
    },
    Row {
        section: Section::Quint,
        keys: "P",
        does: "puzzles of this game; the game stays saved",
        binds: &[(Code(Char('P')), C::Puzzles)],
    },
    Row {
        section: Section::Quint,
        keys: "t, a",
        does: "hint from the computer; live analysis on/off",
        binds: HINT_ANALYSIS,
    },
    Row {
        section: Section::Quint,
        keys: "v, m, M",
        does: "after the game: review it; next, previous marked action",
        binds: REVIEW,
    },
    Row {
        section: Section::Quint,
        keys: "w",
        does: "at a marked action of the review: step through why it loses",
        binds: WHY,
    },
    Row {
        section: Section::Quint,
        keys: "L",
        does: "after a review of a game against the computer: learn from your mistakes",
        binds: MISTAKES,
    },
    Row {
        section: Section::Quint,
        keys: "PgUp, PgDn, wheel",
        does: "scroll the action list",
        binds: PAGES,
    },
    Row {
        section: Section::Quint,
        keys: "?",
        does: "open or close this help",
        binds: HELP,
    },
    Row {
        section: Section::Quint,
        keys: "q, Ctrl-C",
        does: "quit (the record is already saved)",
        binds: &[(Code(Char('q')), C::Quit), (Ctrl('c'), C::Quit)],
    },
    Row {
        section: Section::Puzzle,
        keys: "t",
        does: "a hint: the area of the move, then the move (the puzzle then counts as failed)",
        binds: &[(Code(Char('t')), C::Hint)],
    },
    Row {
        section: Section::Puzzle,
        keys: "v",
        does: "show the solution (giving up a puzzle being solved)",
        binds: &[(Code(Char('v')), C::Review)],
    },
    Row {
        section: Section::Puzzle,
        keys: "n",
        does: "the next puzzle, once this one is solved or failed",
        binds: &[(Code(Char('n')), C::NewGame)],
    },
    Row {
        section: Section::Puzzle,
        keys: "o",
        does: "choose how to take them: a difficulty, Streak, Storm, a theme, your failed ones",
        binds: &[(Code(Char('o')), C::Ways)],
    },
    Row {
        section: Section::Puzzle,
        keys: "w",
        does: "once a defence is over: play out the threat it stopped (w again: back)",
        binds: WHY,
    },
    Row {
        section: Section::Puzzle,
        keys: "u, r",
        does: "once it is over: step back and forth through the moves",
        binds: UNDO_REDO,
    },
    Row {
        section: Section::Unlisted,
        keys: "Ctrl-Z",
        does: "give the terminal back to the shell; fg resumes",
        binds: &[(Ctrl('z'), C::Suspend)],
    },
];

/// The command of `key`, if the table binds it.
#[must_use]
pub fn command(key: KeyEvent) -> Option<Command> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let wanted = match key.code {
        Char(c) if ctrl => Ctrl(c.to_ascii_lowercase()),
        code => Code(code),
    };
    ROWS.iter()
        .flat_map(|row| row.binds)
        .find(|(k, _)| *k == wanted)
        .map(|&(_, command)| command)
}

/// The rows of `section`, in order.
pub fn rows(section: Section) -> impl Iterator<Item = &'static Row> {
    ROWS.iter().filter(move |row| row.section == section)
}

/// The keys of a game and of a replay, a row to a line, for `--help`.
#[must_use]
pub fn in_short() -> String {
    let mut out = String::new();
    for (heading, section) in [
        ("Keys in a game:", Section::Game),
        ("In a replay:", Section::Replay),
    ] {
        out.push_str(heading);
        out.push('\n');
        for row in rows(section) {
            out.push_str(&format!("  {:<19}{}\n", row.keys, row.does));
        }
    }
    out.push_str(
        "Quint, whose pieces move, has keys of its own: ? in a game of Quint lists them.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> Option<Command> {
        command(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn each_key_has_one_command_wherever_it_is_listed() {
        for row in ROWS {
            for &(key, command) in row.binds {
                let first = ROWS
                    .iter()
                    .flat_map(|r| r.binds)
                    .find(|(k, _)| *k == key)
                    .map(|&(_, c)| c);
                assert_eq!(first, Some(command), "{key:?} in {:?}", row.keys);
            }
        }
        assert_eq!(press(Char('h'), KeyModifiers::NONE), Some(Command::Left));
        assert_eq!(press(Char('c'), KeyModifiers::CONTROL), Some(Command::Quit));
        assert_eq!(
            press(Char('z'), KeyModifiers::CONTROL),
            Some(Command::Suspend)
        );
        assert_eq!(press(Char('c'), KeyModifiers::NONE), None);
        assert_eq!(press(KeyCode::F(1), KeyModifiers::NONE), None);
    }

    #[test]
    fn every_key_named_by_a_row_is_bound_by_it() {
        for row in ROWS.iter().filter(|r| !r.binds.is_empty()) {
            for name in row.keys.split([',', ' ']).filter(|n| n.len() == 1) {
                let c = name.chars().next().unwrap();
                assert!(
                    row.binds.iter().any(|(k, _)| *k == Code(Char(c))),
                    "{c:?} in {:?}",
                    row.keys
                );
            }
        }
    }
}

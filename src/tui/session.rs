//! The run loop's record keeping: which file the game goes to, saving after every change,
//! refusing to quit or to play on silently when a save failed, and what is printed on exit.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use anyhow::{Result, anyhow};

use crate::rules::{Action, Setup};
use crate::saved_games::{shell_word, shown};

use super::Session;
use super::app::App;
use crate::save::RecordFile;

/// The record file of a game not yet begun (made by this program, no action saved in it yet),
/// which a signal that ends the program removes: a game left before its first action leaves no
/// file behind, however it is left.
static UNPLAYED: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Saves the game of `setup` after `actions` in `file`, and notes whether the file is still
/// that of a game not begun. The note is held locked during the save, so that a signal can
/// never remove a file that has just received its first action.
fn save_watched(file: &mut RecordFile, setup: Setup, actions: &[Action]) -> io::Result<()> {
    let mut unplayed = UNPLAYED.lock().unwrap_or_else(PoisonError::into_inner);
    let saved = file.save(setup, actions);
    *unplayed = file.unplayed().then(|| file.target().to_path_buf());
    saved
}

/// Removes the record file of a game not yet begun, if there is one; for the signal handling,
/// just before the program ends.
pub(super) fn discard_unplayed() {
    let unplayed = UNPLAYED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(path) = &*unplayed {
        let _ = std::fs::remove_file(path);
    }
}

impl Session {
    /// A session of `app`, with no record file yet.
    pub(super) fn new(app: App) -> Session {
        Session {
            app,
            file: None,
            new_file: false,
            written: Vec::new(),
            failure: None,
            quit_asked: false,
            puzzles: None,
            course: None,
        }
    }

    /// Makes `file` the game's record: saves what the game holds so far (the headers of a new
    /// game, so that even a game killed at once leaves its record) and tells the app where.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub(super) fn adopt(&mut self, mut file: RecordFile) -> Result<()> {
        let (setup, actions) = self.on_board();
        file.set_players(self.app.players());
        save_watched(&mut file, setup, &actions)
            .map_err(|e| anyhow!("cannot write the record {}: {e}", shown(file.path())))?;
        self.app.set_record_path(file.path().to_path_buf());
        if let Some(old) = self.file.replace(file) {
            self.written.push(old.path().to_path_buf());
        }
        self.new_file = false;
        Ok(())
    }

    /// The game's setup and the actions on the board.
    fn on_board(&self) -> (Setup, Vec<Action>) {
        (
            self.app.setup(),
            self.app.actions()[..self.app.current()].to_vec(),
        )
    }

    /// A new line of play began: a new game after a win, or playing on from a replay. It gets
    /// its own record file. Playing on from a replay (`replay`: the app as it was before) is
    /// refused, back in the replay with the reason, when no file can be made: a game saved
    /// nowhere must not begin.
    pub(super) fn new_line(&mut self, replay: Option<App>) {
        self.new_file = true;
        let Some(replay) = replay else {
            return self.save();
        };
        let made = RecordFile::in_data_dir(SystemTime::now()).and_then(|f| self.adopt(f));
        if let Err(e) = made {
            self.new_file = false;
            self.app = replay;
            self.app.warn(format!(
                "Cannot play on: the new game could not be saved ({e:#}). Name a record with \
                 `quentin resume FILE`, or free the data directory."
            ));
        }
    }

    /// Writes the record, first creating a new file when a new game began; a failure is shown
    /// and the game goes on (the next action tries again).
    pub(super) fn save(&mut self) {
        if self.new_file {
            // The next file is named after the last one; until it exists, nothing is written,
            // so a new game can never overwrite the previous one.
            let next = match &self.file {
                Some(file) => file.next(),
                None => RecordFile::in_data_dir(SystemTime::now()),
            };
            let made = next.and_then(|f| self.adopt(f));
            if let Err(e) = made {
                return self.fail("a new record".to_string(), &e);
            }
        }
        let (setup, actions) = self.on_board();
        let Some(file) = &mut self.file else {
            return;
        };
        file.set_players(self.app.players());
        match save_watched(file, setup, &actions) {
            Ok(()) => {
                self.failure = None;
                self.quit_asked = false;
            }
            Err(e) => {
                let path = shown(file.path());
                self.fail(path, &e.into());
            }
        }
    }

    fn fail(&mut self, path: String, error: &anyhow::Error) {
        let text = format!("cannot save {path}: {error:#}");
        self.app.warn(format!(
            "{text}. The game goes on; the next action tries again."
        ));
        self.failure = Some(text);
    }

    /// Whether the player may leave now. With actions not saved, one more save is tried; if it
    /// fails too, the player is warned and must ask a second time.
    pub(super) fn may_quit(&mut self) -> bool {
        if self.failure.is_some() {
            self.save();
        }
        let Some(failure) = &self.failure else {
            return true;
        };
        if self.quit_asked {
            return true;
        }
        self.quit_asked = true;
        self.app.warn(format!(
            "NOT SAVED: {failure}. The last actions are only on the screen. Press q again to \
             quit without them, or free some space and play on."
        ));
        false
    }

    /// After the terminal is given back: removes the record of a game left before its first
    /// action, prints where the records are and how to go on, and returns an error when the
    /// last actions are not saved.
    pub(super) fn report(&mut self) -> Result<()> {
        let mut current = None;
        if let Some(file) = self.file.take() {
            if file.unplayed() && self.failure.is_none() {
                file.discard();
            } else {
                current = Some(file.path().to_path_buf());
            }
        }
        let unsaved = self.failure.take();
        let mut stdout = io::stdout().lock();
        let complete = self
            .written
            .iter()
            .chain(current.iter().filter(|_| unsaved.is_none()));
        for path in complete {
            let _ = writeln!(stdout, "Record saved in {}", shown(path));
        }
        let over = self.app.position().is_over();
        // As the player can type it: `quentin`, or `cargo run --release --` before installing.
        let program = crate::saved_games::program_word();
        match (&current, &unsaved) {
            (Some(path), None) if !over => {
                let _ = writeln!(
                    stdout,
                    "Play on with `{program} resume {}`; `{program} games` lists your games.",
                    shell_word(path)
                );
            }
            // A game over has nothing to play on: no `quentin resume` is suggested.
            _ if over && (!self.written.is_empty() || current.is_some()) => {
                let _ = writeln!(stdout, "`{program} games` lists your games.");
            }
            _ if !self.written.is_empty() || current.is_some() => {
                let _ = writeln!(
                    stdout,
                    "`{program} games` lists your games; `{program} resume` plays on the latest \
                     unfinished one."
                );
            }
            _ => {}
        }
        match unsaved {
            Some(failure) => Err(anyhow!(
                "the record is not complete, the last actions are lost: {failure}"
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::save;
    use crate::tui::app::{Effect, Input, Look};
    use crate::tui::input::{Event, KeyCode, KeyEvent};
    use std::fs;

    /// A game of Quentin on `size`×`size` after the record's `moves`, as `quentin resume`
    /// opens it.
    fn after(size: usize, pie: bool, moves: &str) -> App {
        let pie = if pie { "on" } else { "off" };
        let record = Record::parse(&format!("size {size}\npie {pie}\n{moves}\n")).unwrap();
        App::resume(&record, Look::FULL)
    }

    /// Presses each key of `keys` (`\n` for Enter); the last effect of the last key.
    fn effect_of(app: &mut App, keys: &str) -> Effect {
        let mut effect = Effect::None;
        for c in keys.chars() {
            let code = if c == '\n' {
                KeyCode::Enter
            } else {
                KeyCode::Char(c)
            };
            let event = Event::Key(KeyEvent::from(code));
            effect = app.step(Input::Event(event)).pop().unwrap_or(Effect::None);
        }
        effect
    }

    /// A session whose 3×3 game Black has just won, saved in `DIR/game.txt`; returns it, the
    /// directory and the saved record.
    fn won(name: &str) -> (Session, save::tests::Scratch, String) {
        let dir = save::tests::scratch(name);
        let mut s = Session::new(after(3, false, "b2 a1 b1 c1 b3"));
        s.adopt(RecordFile::named(dir.join("game.txt")).unwrap())
            .unwrap();
        let won = fs::read_to_string(dir.join("game.txt")).unwrap();
        assert!(won.ends_with("b3\n"));
        // n: a new game, which the loop saves into a new file.
        assert_eq!(effect_of(&mut s.app, "n"), Effect::NewRecord);
        s.new_file = true;
        (s, dir, won)
    }

    #[test]
    fn a_new_game_goes_to_a_new_file_and_leaves_the_won_one() {
        let (mut s, dir, won) = won("session-new");
        s.save();
        assert_eq!(fs::read_to_string(dir.join("game.txt")).unwrap(), won);
        assert_eq!(
            fs::read_to_string(dir.join("game-2.txt")).unwrap(),
            "game quentin\nsize 3\npie off\n"
        );
        assert_eq!(s.written, [dir.join("game.txt")]);
        assert_eq!(s.app.record_path(), Some(dir.join("game-2.txt").as_path()));
        // Left before its first action, the new game leaves no file.
        s.report().unwrap();
        assert!(!dir.join("game-2.txt").exists());
        assert_eq!(fs::read_to_string(dir.join("game.txt")).unwrap(), won);
    }

    #[test]
    fn when_no_new_file_can_be_made_the_old_game_is_not_overwritten() {
        let (mut s, dir, won) = won("session-fail");
        // The directory moves away: no new file can be made beside the old one.
        let moved = save::tests::scratch("session-fail-moved");
        fs::remove_dir(&moved).unwrap();
        fs::rename(&dir, &moved).unwrap();
        s.save();
        assert!(s.new_file, "still waiting for a file");
        assert!(s.failure.is_some());
        assert!(s.app.message().unwrap().text.contains("cannot save"));
        assert!(!dir.exists());
        assert_eq!(fs::read_to_string(moved.join("game.txt")).unwrap(), won);
        // Once the directory is back, the next save makes the new file.
        fs::rename(&moved, &dir).unwrap();
        s.save();
        assert!(!s.new_file);
        assert_eq!(fs::read_to_string(dir.join("game.txt")).unwrap(), won);
        assert!(dir.join("game-2.txt").exists());
    }

    #[test]
    fn quitting_with_unsaved_actions_warns_and_asks_again() {
        let dir = save::tests::scratch("session-unsaved");
        let mut s = Session::new(after(5, true, ""));
        s.adopt(RecordFile::named(dir.join("game.txt")).unwrap())
            .unwrap();
        assert_eq!(effect_of(&mut s.app, "\n"), Effect::Save);
        s.save();
        // An undo rewrites the record through a temporary file beside it, which cannot be
        // made once the directory has moved away (as when the disk is full).
        let moved = save::tests::scratch("session-unsaved-moved");
        fs::remove_dir(&moved).unwrap();
        fs::rename(&dir, &moved).unwrap();
        assert_eq!(effect_of(&mut s.app, "u"), Effect::Save);
        s.save();
        assert!(s.failure.is_some());
        assert!(!s.may_quit(), "the first q is refused");
        assert!(s.app.message().unwrap().text.contains("NOT SAVED"));
        assert!(s.may_quit(), "the second q quits");
        let err = s.report().unwrap_err().to_string();
        assert!(err.contains("not complete"), "{err}");
        // The file still holds the last record saved.
        assert!(
            fs::read_to_string(moved.join("game.txt"))
                .unwrap()
                .ends_with("c3\n")
        );
    }

    #[test]
    fn quitting_after_a_failure_that_heals_saves_and_quits_at_once() {
        let dir = save::tests::scratch("session-heal");
        let mut s = Session::new(after(5, true, ""));
        s.adopt(RecordFile::named(dir.join("game.txt")).unwrap())
            .unwrap();
        s.failure = Some("cannot save: full".to_string());
        assert_eq!(effect_of(&mut s.app, "\n"), Effect::Save);
        assert!(s.may_quit());
        s.report().unwrap();
        assert!(
            fs::read_to_string(dir.join("game.txt"))
                .unwrap()
                .ends_with("c3\n")
        );
    }
}

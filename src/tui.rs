//! The terminal front end: hot-seat play and interactive replay.
//!
//! - [`app`]: the interface as a state machine fed with the app's own input events, from the
//!   app crate (`quentin-app`), as are [`render`] (drawing the app's state, a pure function
//!   into a buffer), [`input`], [`layout`] and [`commands`].
//! - [`translate`]: crossterm's events in the app's input.
//!
//! The command line enters by [`play`], [`resume`], [`replay`], [`require_terminal`] and
//! [`keys_in_short`], and says who plays with [`Versus`]; the modules behind them are the
//! interface's own.
//!
//! This module runs the loop: it sets the terminal up, draws, reads events, saves the record
//! after every change, and puts the terminal back however the program ends (quit, error, panic,
//! or a signal such as SIGTERM or SIGINT): raw mode off, the alternate screen left, mouse
//! capture off, the cursor shown. Ctrl-Z (SIGTSTP) gives the terminal back before stopping and
//! `fg` (SIGCONT) takes it again. Only SIGKILL cannot be caught; the record on disk then still holds every
//! completed action.

mod course;
mod puzzles;
mod session;
pub mod translate;

/// The app, its input, its layout, its drawing, its keys and its search handle, from the app
/// crate (`quentin-app`).
pub use quentin_app::{app, commands, game_line, input, layout, render, search_handle, searching};

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result, bail};
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::terminal::{
    BeginSynchronizedUpdate, Clear, ClearType, EndSynchronizedUpdate, EnterAlternateScreen,
    LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::record::Record;
use crate::rules::Setup;

use app::{App, Effect, Input, Look, Mode};
use search_handle::{SearchHandle, SearchOrder};

use crate::save::RecordFile;
pub use app::Versus;
use layout::Geometry;

/// Plays a new game of `setup`, between people or against the computer as `versus` says (its
/// search on `threads` threads, 0 for the machine's cores), saving the record after every
/// action to `record` or, without it, to a new file in the data directory, the players named
/// `names` when given. Prints the record's path on exit.
///
/// # Errors
/// When there is no terminal, the record cannot be created, or the terminal fails.
pub fn play(
    setup: Setup,
    record: Option<PathBuf>,
    ascii: bool,
    versus: Versus,
    threads: usize,
    names: Option<[String; 2]>,
) -> Result<()> {
    require_terminal()?;
    let mut app = App::new(setup, Look::from_env(ascii))?;
    app.set_computer(versus);
    if let Some(names) = names {
        app.set_names(names);
    }
    let file = match record {
        Some(path) => RecordFile::named(path)?,
        None => RecordFile::in_data_dir(SystemTime::now())?,
    };
    run(app, Some(file), search(threads))
}

/// Plays on the game of `record`, read from `file` (open and locked), appending the new actions
/// to it; the computer plays as `versus` says, on `threads` threads.
///
/// # Errors
/// When there is no terminal, the file cannot be written, or the terminal fails.
pub fn resume(
    record: &Record,
    file: RecordFile,
    ascii: bool,
    versus: Versus,
    threads: usize,
) -> Result<()> {
    require_terminal()?;
    let mut app = App::resume(record, Look::from_env(ascii));
    app.set_computer(versus);
    run(app, Some(file), search(threads))
}

/// Opens `record` in the interface after its first `at` actions, with `note` in the panel
/// (else the replay's keys); `p` plays on from there into a new record (the replayed file is
/// never written), with the players of `versus` (the computer on `threads` threads).
///
/// # Errors
/// When there is no terminal or the terminal fails.
pub fn replay(
    record: &Record,
    at: usize,
    ascii: bool,
    note: Option<String>,
    versus: Versus,
    threads: usize,
) -> Result<()> {
    require_terminal()?;
    let mut app = App::replay(record, at, Look::from_env(ascii));
    app.set_computer(versus);
    if let Some(note) = note {
        app.info(note);
    }
    run(app, None, search(threads))
}

/// Plays puzzles of `pool`, one after another, each chosen near the player's puzzle rating,
/// which is kept in the data directory (`puzzles.json`).
///
/// # Errors
/// When there is no terminal, `pool` is empty, the rating file cannot be read (a damaged one
/// is left as it is), or the terminal fails.
pub fn puzzle(
    pool: Vec<crate::search::puzzles::Puzzle>,
    way: quentin_app::puzzle_modes::Way,
    ascii: bool,
) -> Result<()> {
    require_terminal()?;
    let path = crate::puzzle_progress::path()?;
    let mut run = puzzles::PuzzleRun::new(pool, path, Look::from_env(ascii), way)?;
    let app = run.next_app(None)?;
    let mut session = Session::new(app);
    session.puzzles = Some(run);
    run_session(session, search(0))
}

/// Follows the course of `courses` (`quentin learn`), from `stage` of the first when given,
/// else from the first level not solved yet; the stars are kept in the data directory
/// (`learn.json`).
///
/// # Errors
/// When there is no terminal, the progress file cannot be read (a damaged one is set aside and
/// the course starts again), or the terminal fails.
pub fn learn(
    courses: Vec<quentin_app::course::Course>,
    stage: Option<usize>,
    ascii: bool,
) -> Result<()> {
    require_terminal()?;
    let (run, note) =
        course::CourseRun::new(courses, stage, crate::learn::path()?, Look::from_env(ascii))?;
    let mut app = run.app()?;
    if let Some(note) = note {
        app.warn(note);
    }
    let mut session = Session::new(app);
    session.course = Some(run);
    run_session(session, search(0))
}

/// The program's own search behind the loop's handle, on `threads` threads (0: the machine's
/// cores).
fn search(threads: usize) -> Box<dyn SearchHandle> {
    Box::new(searching::Searching::new(threads))
}

/// The keys of a game and of a replay in short, for `--help`: from the table that dispatches
/// them.
#[must_use]
pub fn keys_in_short() -> String {
    commands::in_short()
}

/// Refuses to start without a terminal, before anything is drawn or written.
///
/// # Errors
/// When standard input or output is not a terminal, or the terminal says it is too dumb to
/// draw (`TERM=dumb`).
pub fn require_terminal() -> Result<()> {
    if std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
        bail!(
            "this terminal (TERM=dumb) cannot draw the board: it moves no cursor and shows no \
             colour. Run the game in a full terminal; `quentin replay FILE --print` prints a \
             record's position as plain text"
        );
    }
    if io::stdin().is_terminal() && io::stdout().is_terminal() {
        return Ok(());
    }
    bail!(
        "the game needs a terminal: standard input and output must both be one \
         (to look at a record without a terminal, use `quentin replay FILE --print`)"
    )
}

/// Runs the interface, with the search its app asks for behind `search`, until the player quits;
/// then restores the terminal and prints where the records went.
fn run(app: App, file: Option<RecordFile>, search: Box<dyn SearchHandle>) -> Result<()> {
    let mut session = Session::new(app);
    if let Some(file) = file {
        session.adopt(file)?;
    }
    run_session(session, search)
}

/// Runs the loop of `session` as [`run`] does.
fn run_session(mut session: Session, mut search: Box<dyn SearchHandle>) -> Result<()> {
    let result = {
        let guard = TerminalGuard::enter();
        match guard {
            Ok(_guard) => session.event_loop(search.as_mut()),
            Err(e) => Err(e).context("cannot set the terminal up"),
        }
        // The guard is dropped here: the terminal is back before anything is printed.
    };
    let unsaved = session.report();
    result.and(unsaved)
}

/// The loop's state: the app and where its record goes.
struct Session {
    app: App,
    file: Option<RecordFile>,
    /// Whether a new game is waiting for its own record file.
    new_file: bool,
    /// The record files of the games before this one, to print on exit.
    written: Vec<PathBuf>,
    /// The last save that failed, to repeat on exit.
    failure: Option<String>,
    /// Whether the player was told, on quitting, that the last actions are not saved.
    quit_asked: bool,
    /// The puzzles and the player's progress, in the puzzle mode.
    puzzles: Option<puzzles::PuzzleRun>,
    /// The course and the learner's stars, in `quentin learn`.
    course: Option<course::CourseRun>,
}

impl Session {
    fn event_loop(&mut self, search: &mut dyn SearchHandle) -> Result<()> {
        let mut terminal =
            Terminal::new(CrosstermBackend::new(io::stdout())).context("cannot draw")?;
        // Start listening before the first frame: a window resized while it is drawn would
        // otherwise go unnoticed until the next key.
        event::poll(Duration::ZERO).context("cannot read the terminal")?;
        // Fault injection for the end-to-end tests, which must see the terminal come back after
        // a panic (docs/development.md, "Test hooks"): only this program, run by the one who
        // set the variable, is touched.
        let panic_after_frame = std::env::var_os("QUENTIN_TEST_PANIC").is_some();
        loop {
            // The search first: the computer's move played, or its next search started, before
            // the frame that shows it.
            let news = Input::Search(search.news());
            if self.carry_out(news, search, None) {
                return Ok(());
            }
            self.puzzle_tick();
            if REDRAW.swap(false, Ordering::SeqCst) {
                // A fresh terminal knows nothing of the old screen, so it draws every cell
                // (its `clear` would ask the terminal where the cursor is, and wait).
                execute!(io::stdout(), Clear(ClearType::All)).context("cannot draw")?;
                terminal =
                    Terminal::new(CrosstermBackend::new(io::stdout())).context("cannot draw")?;
            }
            let mut geometry = Geometry::default();
            // One synchronized update a frame: a terminal that knows the mode shows the frame
            // whole, never half-drawn (and so does the emulator of the end-to-end tests); the
            // others ignore it.
            execute!(io::stdout(), BeginSynchronizedUpdate).context("cannot draw")?;
            terminal
                .draw(|frame| geometry = render::render(&self.app, frame))
                .context("cannot draw")?;
            execute!(io::stdout(), EndSynchronizedUpdate).context("cannot draw")?;
            if self.carry_out(Input::Drawn(geometry), search, None) {
                return Ok(());
            }
            if panic_after_frame {
                panic!("QUENTIN_TEST_PANIC is set: a panic after the first frame, as asked");
            }
            // While the computer thinks or reviews the game, the screen is redrawn at least 10
            // times a second (and the review's next search started as soon as one ends); a key
            // is answered as soon as it comes either way.
            let wait = if self.app.thinking().is_some() || self.app.review_progress().is_some() {
                FRAME_WHILE_THINKING
            } else {
                TICK
            };
            let Some(event) = next_event(wait)? else {
                continue;
            };
            // Kept while a replay shows: playing on goes back to it when nothing can be saved.
            let replay = (self.app.mode() == Mode::Replay).then(|| self.app.clone());
            let event = Input::Event(translate::from_crossterm(event));
            if self.carry_out(event, search, replay) {
                return Ok(());
            }
        }
    }

    /// Steps the app with `input` and carries out what it asks, in order; whether the loop must
    /// end. `replay` is the app as it was while a replay showed (playing on goes back to it
    /// when nothing can be saved).
    fn carry_out(
        &mut self,
        input: Input,
        search: &mut dyn SearchHandle,
        mut replay: Option<App>,
    ) -> bool {
        for effect in self.app.step(input) {
            match effect {
                Effect::None => {}
                Effect::Quit if self.may_quit() => return true,
                Effect::Quit => {}
                Effect::Suspend => suspend(),
                Effect::Save => self.save(),
                Effect::NewRecord => self.new_line(replay.take()),
                Effect::Search(order) => search.obey(vec![order]),
                // Only the server's sessions make an online app (`App::online`): an app of the
                // terminal has no server to send to, and never asks to.
                Effect::Send(_) => {}
                Effect::Puzzle(news) => self.puzzle_news(news),
                Effect::Puzzles(game) => {
                    search.obey(vec![SearchOrder::Stop]);
                    self.open_puzzles(game);
                }
            }
        }
        false
    }
}

/// How often the loop looks for a redraw asked by a signal while no key comes.
const TICK: Duration = Duration::from_millis(200);
/// How often it draws while a search runs: 20 frames a second.
const FRAME_WHILE_THINKING: Duration = Duration::from_millis(50);

/// The next terminal event within `wait`, or `None` when none came (the loop then draws again,
/// for a search's progress or a redraw asked by a signal).
fn next_event(wait: Duration) -> Result<Option<event::Event>> {
    if event::poll(wait).context("cannot read the terminal")? {
        return event::read().context("cannot read the terminal").map(Some);
    }
    Ok(None)
}

/// Owns the terminal's game state: raw mode, alternate screen, mouse capture, hidden cursor.
/// Dropping it, on every path out of the loop, puts the terminal back.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        restore_on_signals()?;
        // Created first so that a failure half-way still restores what was changed.
        let guard = TerminalGuard;
        set_terminal_up()?;
        Ok(guard)
    }
}

/// Raw mode, the alternate screen, mouse capture, the cursor hidden.
fn set_terminal_up() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        cursor::Hide
    )
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Puts the terminal back as the shell expects it. Safe to call more than once.
pub fn restore_terminal() {
    // Errors are ignored: there is nothing better to do while leaving.
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        // A frame cut short by a signal must not leave the terminal holding the screen back.
        EndSynchronizedUpdate,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

/// Restores the terminal when the program is told to stop (`kill`, Ctrl-C sent from outside, a
/// closed window, a timer or user signal): the record is already saved, so it can stop at once.
/// SIGTSTP (Ctrl-Z, `kill -TSTP`) gives the terminal back and stops; SIGCONT (`fg`) takes it
/// again and asks the loop for a whole new frame.
#[cfg(unix)]
fn restore_on_signals() -> io::Result<()> {
    use signal_hook::consts::{
        SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2,
    };
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        let handled = [
            SIGTERM, SIGHUP, SIGQUIT, SIGINT, SIGUSR1, SIGUSR2, SIGALRM, SIGTSTP, SIGCONT,
        ];
        result = signal_hook::iterator::Signals::new(handled).map(|mut signals| {
            std::thread::spawn(move || {
                for signal in signals.forever() {
                    match signal {
                        SIGTSTP => {
                            restore_terminal();
                            // Stops here until SIGCONT; returns at once when the kernel will
                            // not stop a program that no shell could continue.
                            let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
                            take_terminal();
                        }
                        SIGCONT => take_terminal(),
                        _ => {
                            restore_terminal();
                            session::discard_unplayed();
                            std::process::exit(128 + signal);
                        }
                    }
                }
            });
        });
    });
    result
}

/// Set when the terminal was taken back after a stop: the screen must be drawn anew.
static REDRAW: AtomicBool = AtomicBool::new(false);

/// Takes the terminal for the game again, as [`TerminalGuard::enter`] first did, and asks the
/// loop to redraw everything.
#[cfg(unix)]
fn take_terminal() {
    let _ = set_terminal_up();
    REDRAW.store(true, Ordering::SeqCst);
}

#[cfg(not(unix))]
fn restore_on_signals() -> io::Result<()> {
    Ok(())
}

/// Ctrl-Z: stops the program as the shell's job control expects, through the same SIGTSTP
/// handling as a `kill -TSTP` (the terminal is given back first and taken again on `fg`).
#[cfg(unix)]
fn suspend() {
    let _ = signal_hook::low_level::raise(signal_hook::consts::SIGTSTP);
}

#[cfg(not(unix))]
fn suspend() {}

/// Restores the terminal before a panic message is printed, so the message is readable and the
/// shell usable.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
    });
}

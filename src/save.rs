//! Saving records so that no game is ever lost.
//!
//! A record file is opened once, checked to be a regular file (a symbolic link is followed to
//! one, and the link kept), and locked exclusively for the life of the game: a second program
//! on the same file refuses to start. New actions are appended to it and flushed to the disk;
//! anything else (an undo, a redo, the first headers) rewrites the whole record through a
//! temporary file in the same directory, locked before it is renamed over the record, so that
//! at any moment, even after `SIGKILL`, the file holds a complete record of every action played
//! so far, and the lock never lapses. Temporary files left by a killed program are removed the
//! next time a record is opened in that directory.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::SystemTime;

use anyhow::{Context, Result, anyhow, bail};

use crate::record::{self, Players};
use crate::rules::{Action, Setup};
use crate::saved_games::{self, Unreadable, shell_word, shown, timestamp};

/// How many numbered names (`name-2.txt`, `name-3.txt`, …) are tried for a fresh record file.
const MAX_TRIES: u32 = 1000;

/// The start and end of a temporary file's name: `.quentin-PID-N.tmp`, short, so that a
/// record may have as long a name as the file system allows.
const TMP_PREFIX: &str = ".quentin-";
const TMP_SUFFIX: &str = ".tmp";

/// Where one game's record is saved, locked for as long as this value lives.
#[derive(Debug)]
pub struct RecordFile {
    /// The path as the player named it, for messages.
    path: PathBuf,
    /// The file written: the path itself, or the regular file a symbolic link points to.
    target: PathBuf,
    /// The record as it is on disk now, open and locked.
    file: File,
    /// Whether the file was named by the program in the data directory (then the next game gets
    /// a new time-stamped name there too).
    in_data_dir: bool,
    /// Whether this program made the file (a game quit before its first action then leaves
    /// none behind).
    created: bool,
    /// What the file holds, when known: new actions after these are appended.
    saved: Option<(Setup, Vec<Action>)>,
    /// Whether the file is empty or ends with a line break (else one goes before an append).
    ends_line: bool,
    /// Whether an action was ever saved in it.
    played: bool,
    /// The `player1`/`player2` headers it holds or is to hold.
    players: Players,
}

/// How a record file is opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// For a new game: it may exist only if empty.
    New,
    /// To play on: it holds a game.
    Existing,
}

impl RecordFile {
    /// The record file the player named with `--record`, created if missing, locked. It may
    /// exist only if empty: a game already in it is never overwritten.
    ///
    /// # Errors
    /// When the file holds something, is not a regular file, or another program has it.
    pub fn named(path: PathBuf) -> Result<RecordFile> {
        RecordFile::open(path, Open::New)
    }

    /// The record file `path` of a game to play on, locked; read it with [`RecordFile::read`].
    ///
    /// # Errors
    /// When it is missing, is not a regular file, or another program has it.
    pub fn existing(path: PathBuf) -> Result<RecordFile> {
        RecordFile::open(path, Open::Existing)
    }

    fn open(path: PathBuf, how: Open) -> Result<RecordFile> {
        let name = shown(&path);
        if fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            bail!("{name} is a directory: name a file, such as {name}/game.txt");
        }
        let dir = parent(&path).to_path_buf();
        clean_temporaries(&dir);
        let (file, meta, created) =
            open_regular(&path, how == Open::New).map_err(|e| anyhow!(e.message(&name)))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => bail!(
                "{name} is in use: another quentin is playing the game in it. Finish that game \
                 first, or name another file"
            ),
            Err(fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {name}"));
            }
        }
        // Write where the path leads, never over a symbolic link; and make sure it still leads
        // to the file just locked (another program may have replaced it meanwhile).
        let target =
            fs::canonicalize(&path).with_context(|| format!("cannot find where {name} is"))?;
        if !fs::metadata(&target).is_ok_and(|m| same_file(&m, &meta)) {
            bail!("{name} changed while it was being opened; try again");
        }
        if how == Open::New && meta.len() > 0 {
            // What the file holds says what the player can do with it.
            let mut text = String::new();
            let read = (&file).read_to_string(&mut text).is_ok();
            let record = read.then(|| record::Record::parse(&text).ok()).flatten();
            let word = shell_word(&path);
            match record {
                Some(game) if game.final_position().is_over() => bail!(
                    "{name} already holds a finished game, which is kept. To look it over, run \
                     `quentin replay {word}` (p there plays on from an earlier position into a \
                     new record); or name another file for a new game"
                ),
                Some(_) => bail!(
                    "{name} already exists and is not empty; the game in it is kept. To play on \
                     from it, run `quentin resume {word}`; or name another file"
                ),
                None => bail!(
                    "{name} already exists and is not a record this program can play on; it is \
                     kept (`quentin replay {word}` says what is wrong with it). Name another file"
                ),
            }
        }
        Ok(RecordFile {
            path,
            target,
            file,
            in_data_dir: false,
            created,
            saved: None,
            ends_line: true,
            played: false,
            players: Players::default(),
        })
    }

    /// A new file in the user's data directory named from the time, such as
    /// `…/quentin/games/2026-11-22T03-43-00.txt` (UTC), made `-2`, `-3`… unique.
    ///
    /// # Errors
    /// When there is no data directory or it cannot be created.
    pub fn in_data_dir(now: SystemTime) -> Result<RecordFile> {
        let dir = saved_games::games_dir()?;
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", shown(&dir)))?;
        let mut file = RecordFile::claim(&dir, &timestamp(now), "txt")?;
        file.in_data_dir = true;
        Ok(file)
    }

    /// A fresh file for the next game: a new time-stamped file in the data directory, or
    /// `name-2.txt` (the first free number) beside a file the player named.
    ///
    /// # Errors
    /// When no such file can be created.
    pub fn next(&self) -> Result<RecordFile> {
        if self.in_data_dir {
            return RecordFile::in_data_dir(SystemTime::now());
        }
        let dir = parent(&self.path);
        let stem = self
            .path
            .file_stem()
            .map_or_else(|| "game".into(), |s| s.to_string_lossy());
        let ext = self
            .path
            .extension()
            .map_or_else(|| "txt".into(), |s| s.to_string_lossy());
        RecordFile::claim(dir, &stem, &ext)
    }

    /// Creates and locks a new empty file `dir/stem.ext`, or `dir/stem-N.ext` with the first
    /// free N. Creating it (rather than testing for it) keeps two games started in the same
    /// second from sharing a file.
    fn claim(dir: &Path, stem: &str, ext: &str) -> Result<RecordFile> {
        clean_temporaries(dir);
        for n in 1..=MAX_TRIES {
            let name = if n == 1 {
                format!("{stem}.{ext}")
            } else {
                format!("{stem}-{n}.{ext}")
            };
            let path = dir.join(name);
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    // A file nobody else can have opened yet: the lock cannot be refused.
                    file.lock()
                        .with_context(|| format!("cannot lock {}", shown(&path)))?;
                    return Ok(RecordFile {
                        target: path.clone(),
                        path,
                        file,
                        in_data_dir: false,
                        created: true,
                        saved: None,
                        ends_line: true,
                        played: false,
                        players: Players::default(),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot create {}", shown(&path)));
                }
            }
        }
        bail!("cannot find a free name for {stem}.{ext} in {}", shown(dir))
    }

    /// The file's path, as named.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file written: the path as named, or the regular file a symbolic link leads to.
    #[must_use]
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The file's whole content, read from the locked file (at most
    /// [`saved_games::MAX_RECORD_BYTES`]).
    ///
    /// # Errors
    /// Any I/O error, or a file too large to be a record.
    pub fn read(&mut self) -> Result<Vec<u8>> {
        let name = shown(&self.path);
        let mut bytes = Vec::new();
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| {
                (&self.file)
                    .take(saved_games::MAX_RECORD_BYTES + 1)
                    .read_to_end(&mut bytes)
            })
            .with_context(|| format!("cannot read {name}"))?;
        if bytes.len() as u64 > saved_games::MAX_RECORD_BYTES {
            bail!(
                "{name}: the record is larger than {} MiB, too large to be a game record",
                saved_games::MAX_RECORD_BYTES / (1024 * 1024)
            );
        }
        self.ends_line = bytes.last().is_none_or(|&b| b == b'\n');
        Ok(bytes)
    }

    /// Says that the file holds the game of `setup` after `actions` (as read from it), so that
    /// the next actions are appended to it, the player's own text kept.
    pub fn holds(&mut self, setup: Setup, actions: &[Action]) {
        self.saved = Some((setup, actions.to_vec()));
        self.played |= !actions.is_empty();
    }

    /// Says who plays: the `player1`/`player2` headers of the record. A change from what the
    /// file holds makes the next save rewrite the whole record.
    pub fn set_players(&mut self, players: &Players) {
        if self.players != *players {
            self.players = players.clone();
            self.saved = None;
        }
    }

    /// Saves the game of `setup` after `actions`: appends what follows the saved actions, or
    /// else rewrites the whole record atomically.
    ///
    /// # Errors
    /// Any I/O error; the file then still holds the last record saved.
    pub fn save(&mut self, setup: Setup, actions: &[Action]) -> io::Result<()> {
        let appendable = match &self.saved {
            Some((saved_setup, saved)) if *saved_setup == setup => actions.starts_with(saved),
            _ => false,
        };
        if appendable {
            let done = self.saved.as_ref().map_or(0, |(_, saved)| saved.len());
            self.append(&actions[done..])?;
        } else {
            let text = record::write_players(setup, &self.players, actions);
            self.file = write_atomically(&self.target, text.as_bytes())?;
            self.ends_line = true;
        }
        self.holds(setup, actions);
        Ok(())
    }

    /// Appends `actions`, one a line, and flushes them to the disk; on failure cuts the file
    /// back to what it held.
    fn append(&mut self, actions: &[Action]) -> io::Result<()> {
        if actions.is_empty() {
            return Ok(());
        }
        let mut text = String::new();
        if !self.ends_line {
            text.push('\n');
        }
        for action in actions {
            text.push_str(&action.to_string());
            text.push('\n');
        }
        let end = self.file.seek(SeekFrom::End(0))?;
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data());
        if written.is_err() {
            let _ = self.file.set_len(end);
        }
        written?;
        self.ends_line = true;
        Ok(())
    }

    /// Whether this program made the file and no action was ever saved in it.
    #[must_use]
    pub fn unplayed(&self) -> bool {
        self.created && !self.played
    }

    /// Removes the file made for a game that was left before its first action.
    pub fn discard(self) {
        let _ = fs::remove_file(&self.target);
    }
}

/// Opens `path` to read and write, a regular file only ([`saved_games::open_regular`]); creates
/// it first when `create` is set and nothing is there. Says whether it created it.
fn open_regular(path: &Path, create: bool) -> Result<(File, Metadata, bool), Unreadable> {
    let mut options = OpenOptions::new();
    options.read(true).write(true);
    if create {
        match saved_games::open_regular(path, options.clone().create_new(true)) {
            Ok((file, meta)) => return Ok((file, meta, true)),
            Err(Unreadable::Io(_, e)) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    let (file, meta) = saved_games::open_regular(path, &options)?;
    Ok((file, meta, false))
}

/// Whether two metadata describe the same file.
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len()
    }
}

/// The directory holding `path` (`.` for a bare file name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory: write, lock, flush
/// to the disk, rename. A reader (or a crash) sees the old content or the new, never a mixture.
/// Returns the new file, open and locked.
///
/// # Errors
/// Any I/O error; `path` is then untouched and the temporary file removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<File> {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let dir = parent(path);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(
        "{TMP_PREFIX}{}-{n}{TMP_SUFFIX}",
        std::process::id()
    ));
    let result = (|| {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        // Locked before it becomes the record, so that the record is never unlocked.
        file.lock()?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        // Make the rename itself durable; not every system can open a directory, and the data
        // is safe in the file already, so a failure here is not worth reporting.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(file)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// The process that made a temporary file, from its name: `.quentin-PID-N.tmp`, or the older
/// `.NAME.PID.tmp`.
fn temporary_owner(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(TMP_SUFFIX)?;
    let pid = match inner.strip_prefix(&TMP_PREFIX[1..]) {
        Some(rest) => rest.split('-').next()?,
        None => inner.rsplit('.').next()?,
    };
    pid.parse().ok()
}

/// Whether the process `pid` is running.
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // Signal 0 sends nothing; it only asks whether the process exists (a process of another
    // user answers "not permitted", and is alive).
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) != Err(nix::errno::Errno::ESRCH)
}

#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true
}

/// Removes the temporary files a killed program left in `dir`: those whose process is gone and
/// that nobody holds locked. Failures are ignored: a file left is only clutter.
fn clean_temporaries(dir: &Path) {
    let Ok(list) = fs::read_dir(dir) else {
        return;
    };
    for item in list.flatten() {
        let name = item.file_name();
        let Some(pid) = name.to_str().and_then(temporary_owner) else {
            continue;
        };
        if pid == std::process::id() || alive(pid) {
            continue;
        }
        let path = item.path();
        let unlocked = File::open(&path).is_ok_and(|f| f.try_lock().is_ok());
        if unlocked && fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            let _ = fs::remove_file(&path);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

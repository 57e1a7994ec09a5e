//! The player's records on disk: where they live, which ones there are, and how a path is
//! printed. Reading only: writing records belongs to the interface's saving.
//!
//! [`games`] lists the records of a directory newest first, each read and replayed (a record
//! that cannot be read is listed with the reason); [`latest_unfinished`] picks the game to
//! resume.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use directories::ProjectDirs;
use time::{OffsetDateTime, PrimitiveDateTime};

use crate::record::Record;
use crate::rules::{Game, Outcome};

/// The largest record file read; a record of a whole game is a few kilobytes.
pub const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

pub use quentin_app::escape::{escaped, shown};

/// A path as a shell takes it back: [`shown`], single-quoted when it holds anything but
/// letters, digits and `/._-+,:@~=`.
#[must_use]
pub fn shell_word(path: &Path) -> String {
    let text = shown(path);
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || "/._-+,:@~=".contains(c));
    if plain {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// How to run this program again from the shell it was started in: `quentin` when that name
/// on the `PATH` is this program, `cargo run --release --` when Cargo started it (the README's
/// first command: nothing is installed yet), else its path. The exit message's `quentin resume`
/// must be a command that works (issue 46).
#[must_use]
pub fn program_word() -> String {
    // A program whose file was replaced while it ran (an upgrade, a rebuild) is named
    // `… (deleted)` by Linux; the name on the disk now is the one the shell will run.
    let exe = std::env::current_exe().ok().map(|p| {
        match p.to_str().and_then(|s| s.strip_suffix(" (deleted)")) {
            Some(kept) => std::path::PathBuf::from(kept),
            None => p,
        }
    });
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let mine = exe.as_deref().and_then(real);
    let on_path = std::env::var_os("PATH").is_some_and(|dirs| {
        std::env::split_paths(&dirs).any(|dir| {
            let found = real(&dir.join("quentin"));
            found.is_some() && found == mine
        })
    });
    if on_path {
        return "quentin".to_string();
    }
    // `cargo run` runs the program with Cargo's variables set for it.
    if std::env::var_os("CARGO").is_some() && std::env::var_os("CARGO_MANIFEST_DIR").is_some() {
        let release = exe
            .as_deref()
            .and_then(Path::parent)
            .is_some_and(|dir| dir.ends_with("release"));
        return if release {
            "cargo run --release --".to_string()
        } else {
            "cargo run --".to_string()
        };
    }
    exe.as_deref()
        .map_or_else(|| "quentin".to_string(), shell_word)
}

/// The directory where new records go: `…/quentin/games` in the program's [`data_dir`].
///
/// # Errors
/// As [`data_dir`].
pub fn games_dir() -> Result<PathBuf> {
    Ok(data_dir()?.join("games"))
}

/// The program's data directory: `$XDG_DATA_HOME/quentin`, or `~/.local/share/quentin` on
/// Linux; `~/Library/Application Support/quentin` on macOS; `%APPDATA%\quentin\data` on
/// Windows, which has a folder of its own for this whatever `HOME` says.
///
/// # Errors
/// On Unix, when neither `HOME` nor `XDG_DATA_HOME` says where that is: an empty variable
/// counts as unset, rather than silently meaning another directory. Anywhere, when the platform
/// has no such directory.
pub fn data_dir() -> Result<PathBuf> {
    if cfg!(unix) {
        let home = std::env::var_os("HOME").is_some_and(|h| !h.is_empty());
        let xdg = cfg!(not(target_os = "macos"))
            && std::env::var_os("XDG_DATA_HOME").is_some_and(|x| Path::new(&x).is_absolute());
        if !home && !xdg {
            bail!(
                "HOME is not set (or is empty), so there is no data directory for the records: \
                 set HOME, or name a record file with --record FILE"
            );
        }
    }
    let dirs = ProjectDirs::from("", "", "quentin")
        .context("cannot find the user's data directory for the records")?;
    Ok(dirs.data_dir().to_path_buf())
}

/// The UTC date and time of `time`: year, month, day, hour, minute, second. A time before
/// 1970 (a clock set wrong) counts as 1970's first second, one after the year 9999 as that
/// year's last (a file's time can be set to anything).
fn utc(time: SystemTime) -> [i64; 6] {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let time = i64::try_from(secs)
        .ok()
        .and_then(|secs| OffsetDateTime::from_unix_timestamp(secs).ok())
        .unwrap_or(PrimitiveDateTime::MAX.assume_utc());
    [
        i64::from(time.year()),
        i64::from(u8::from(time.month())),
        i64::from(time.day()),
        i64::from(time.hour()),
        i64::from(time.minute()),
        i64::from(time.second()),
    ]
}

/// `2026-11-22T03-43-00`: the UTC time, with `-` instead of `:` so every file system takes it
/// in a file name.
#[must_use]
pub fn timestamp(time: SystemTime) -> String {
    let [y, m, d, h, mi, s] = utc(time);
    format!("{y:04}-{m:02}-{d:02}T{h:02}-{mi:02}-{s:02}")
}

/// `2026-11-22T03:43:00Z`: the UTC time in RFC 3339.
#[must_use]
pub fn rfc3339(time: SystemTime) -> String {
    let [y, m, d, h, mi, s] = utc(time);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `2026-11-22 03:43`: the UTC time for people, to the minute.
#[must_use]
pub fn minute(time: SystemTime) -> String {
    let [y, m, d, h, mi, _] = utc(time);
    format!("{y:04}-{m:02}-{d:02} {h:02}:{mi:02}")
}

/// What a readable record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The game played.
    pub game: Game,
    /// The board side.
    pub size: usize,
    /// How many actions the record holds.
    pub actions: usize,
    /// How the game ended, `None` while it is unfinished.
    pub outcome: Option<Outcome>,
    /// Who played, as the record's `player1`/`player2` headers say.
    pub players: crate::record::Players,
}

impl Summary {
    /// What `record` holds.
    #[must_use]
    pub fn of(record: &Record) -> Summary {
        let last = record.final_position();
        Summary {
            game: record.setup().game,
            size: record.setup().size,
            actions: record.actions().len(),
            outcome: last.outcome().cloned(),
            players: record.players().clone(),
        }
    }
}

/// One file of the records' directory.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Where it is.
    pub path: PathBuf,
    /// When it last changed.
    pub modified: SystemTime,
    /// Its size in bytes.
    pub bytes: u64,
    /// What it holds, or why it cannot be read (the reason, without the file's name).
    pub summary: Result<Summary, String>,
}

impl Entry {
    /// Whether the record can be read and its game goes on.
    #[must_use]
    pub fn unfinished(&self) -> bool {
        self.summary.as_ref().is_ok_and(|s| s.outcome.is_none())
    }
}

/// Why a file could not be read (before its text is even looked at).
#[derive(Debug)]
pub enum Unreadable {
    /// The system refused: `verb` (`open`, `read`) failed with the error.
    Io(&'static str, std::io::Error),
    /// The file is larger than [`MAX_RECORD_BYTES`].
    TooLarge,
    /// It is not a regular file but this kind of thing (`a FIFO`, `a directory`, ...).
    NotRegular(&'static str),
    /// It is a FIFO or pipe with nothing to read: no writer has it open.
    EmptyPipe,
}

impl Unreadable {
    /// The reason, naming the file as `name`.
    #[must_use]
    pub fn message(&self, name: &str) -> String {
        match self {
            Unreadable::Io(verb, e) => format!("cannot {verb} {name}: {e}"),
            Unreadable::TooLarge => format!(
                "{name}: the record is larger than {} MiB, too large to be a game record",
                MAX_RECORD_BYTES / (1024 * 1024)
            ),
            Unreadable::EmptyPipe => format!(
                "{name} is a FIFO with nothing to read: no program writes to it (a pipe, as \
                 in `quentin replay <(ssh HOST record 7)`, is read to its end)"
            ),
            Unreadable::NotRegular(kind) => format!(
                "{name} is not a regular file ({kind}); a record must be one: name another file"
            ),
        }
    }
}

/// Opens `path` with `options`, following a symbolic link, and refuses what is not a regular
/// file: a FIFO would wait forever for a writer (it is opened without waiting, and refused), a
/// device or a directory holds no record. Every command that reads or writes a record opens it
/// here.
///
/// # Errors
/// When it cannot be opened, or is not a regular file.
pub fn open_regular(
    path: &Path,
    options: &fs::OpenOptions,
) -> Result<(fs::File, fs::Metadata), Unreadable> {
    let mut options = options.clone();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Reads and writes of a regular file are not changed by it.
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let file = options.open(path).map_err(|e| Unreadable::Io("open", e))?;
    let meta = file.metadata().map_err(|e| Unreadable::Io("read", e))?;
    if !meta.is_file() {
        return Err(Unreadable::NotRegular(kind(&meta)));
    }
    Ok((file, meta))
}

/// What kind of file `meta` describes, for a refusal.
fn kind(meta: &fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Reads and replays the record in `path`.
///
/// # Errors
/// The reason, `LINE:COLUMN: message` for a faulty record, without the file's name.
pub fn read(path: &Path) -> Result<Record, String> {
    let bytes = read_bytes(path).map_err(|e| e.message("the file"))?;
    Record::parse_bytes(&bytes).map_err(|e| e.to_string())
}

/// The bytes of the file `path`, refused beyond [`MAX_RECORD_BYTES`].
///
/// # Errors
/// When it cannot be opened or read, is not a regular file, or is too large.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, Unreadable> {
    use std::io::Read;
    let file: Box<dyn Read> = match open_regular(path, fs::OpenOptions::new().read(true)) {
        Ok((file, _)) => Box::new(file),
        // A pipe (`quentin replay <(ssh host record 7)`) is read to its end, as a shell's own
        // commands read one: its writer ends it. A named FIFO that no writer has open reads as
        // empty at once (opened without waiting, then read waiting), so nothing hangs.
        Err(Unreadable::NotRegular("a FIFO")) => Box::new(read_pipe(path)?),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Unreadable::Io("read", e))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(Unreadable::TooLarge);
    }
    Ok(bytes)
}

/// Opens the FIFO or pipe `path` to read, without waiting for a writer, then makes its reads
/// wait for the writer's bytes (or its end); refuses it when it holds nothing by then.
fn read_pipe(
    path: &Path,
) -> Result<std::io::Chain<std::io::Cursor<Vec<u8>>, fs::File>, Unreadable> {
    use std::io::Read;
    let (mut file, _) = open_any(path)?;
    #[cfg(unix)]
    {
        use nix::fcntl::{FcntlArg, OFlag, fcntl};
        let flags =
            fcntl(&file, FcntlArg::F_GETFL).map_err(|e| Unreadable::Io("read", e.into()))?;
        let blocking = OFlag::from_bits_truncate(flags) - OFlag::O_NONBLOCK;
        fcntl(&file, FcntlArg::F_SETFL(blocking)).map_err(|e| Unreadable::Io("read", e.into()))?;
    }
    // The first byte tells a pipe with a writer from a FIFO nobody writes to.
    let mut first = [0u8; 1];
    let n = file
        .read(&mut first)
        .map_err(|e| Unreadable::Io("read", e))?;
    if n == 0 {
        return Err(Unreadable::EmptyPipe);
    }
    Ok(std::io::Cursor::new(first.to_vec()).chain(file))
}

/// Opens `path` to read without waiting, whatever it is.
fn open_any(path: &Path) -> Result<(fs::File, fs::Metadata), Unreadable> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    let file = options.open(path).map_err(|e| Unreadable::Io("open", e))?;
    let meta = file.metadata().map_err(|e| Unreadable::Io("read", e))?;
    Ok((file, meta))
}

/// Whether a file name is one of the records' (`*.txt`, not hidden: temporary files are).
fn is_record_name(name: &str) -> bool {
    !name.starts_with('.') && name.ends_with(".txt")
}

/// The records in `dir`, newest first; a missing directory holds none.
///
/// # Errors
/// When the directory exists but cannot be listed.
pub fn games(dir: &Path) -> Result<Vec<Entry>> {
    let list = match fs::read_dir(dir) {
        Ok(list) => list,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", shown(dir))),
    };
    let mut entries = Vec::new();
    for item in list {
        let item = item.with_context(|| format!("cannot list {}", shown(dir)))?;
        let path = item.path();
        if !item.file_name().to_str().is_some_and(is_record_name) {
            continue;
        }
        // Symbolic links are followed; what is not a regular file is no record.
        let Ok(meta) = fs::metadata(&path) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let summary = read(&path).map(|r| Summary::of(&r));
        entries.push(Entry {
            path,
            modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            bytes: meta.len(),
            summary,
        });
    }
    // Newest first; the name breaks ties, so that the order is the same every time.
    entries.sort_by(|a, b| b.modified.cmp(&a.modified).then(b.path.cmp(&a.path)));
    Ok(entries)
}

/// The most recently changed unfinished game in `dir`, if there is one.
///
/// # Errors
/// When the directory cannot be listed.
pub fn latest_unfinished(dir: &Path) -> Result<Option<PathBuf>> {
    Ok(games(dir)?
        .into_iter()
        .find(Entry::unfinished)
        .map(|e| e.path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    use crate::save::tests::scratch;

    fn touch(path: &Path, text: &str, secs: u64) {
        fs::write(path, text).unwrap();
        let when = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(when)
            .unwrap();
    }

    #[test]
    fn timestamps_are_utc_dates() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00-00-00");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_318_980);
        assert_eq!(timestamp(t), "2026-11-22T03-43-00");
        assert_eq!(rfc3339(t), "2026-11-22T03:43:00Z");
        assert_eq!(minute(t), "2026-11-22 03:43");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(timestamp(leap), "2000-02-29T00-00-00");
    }

    #[test]
    fn times_off_the_calendar_are_clamped_not_a_panic() {
        let before = UNIX_EPOCH - Duration::from_secs(86_400);
        assert_eq!(timestamp(before), "1970-01-01T00-00-00");
        let far = UNIX_EPOCH + Duration::from_secs(400_000_000_000);
        assert_eq!(rfc3339(far), "9999-12-31T23:59:59Z");
    }

    #[test]
    fn paths_are_shown_with_control_characters_escaped() {
        let path = Path::new("/tmp/a\u{1b}[31mred\u{7}.txt");
        assert_eq!(shown(path), "/tmp/a\\u{1b}[31mred\\u{7}.txt");
        assert_eq!(shell_word(Path::new("/tmp/game-2.txt")), "/tmp/game-2.txt");
        assert_eq!(
            shell_word(Path::new("/tmp/my game's.txt")),
            r"'/tmp/my game'\''s.txt'"
        );
    }

    #[test]
    fn games_are_listed_newest_first_unreadable_ones_too() {
        let dir = scratch("list");
        touch(
            &dir.join("old.txt"),
            "size 3\npie off\nb1 a1 b2 a2 b3\n",
            1000,
        );
        touch(&dir.join("new.txt"), "game konobi\nsize 5\nc3\n", 3000);
        touch(&dir.join("bad.txt"), "size 5\nc3 c3\n", 2000);
        touch(&dir.join(".new.txt.123.tmp"), "size 5\n", 4000);
        touch(&dir.join("notes.md"), "hello", 5000);
        let list = games(&dir).unwrap();
        let names: Vec<_> = list
            .iter()
            .map(|e| e.path.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["new.txt", "bad.txt", "old.txt"]);
        let new = list[0].summary.as_ref().unwrap();
        assert_eq!((new.game, new.size, new.actions), (Game::Konobi, 5, 1));
        assert!(new.outcome.is_none());
        assert!(list[1].summary.as_ref().unwrap_err().contains("2:4:"));
        assert!(list[2].summary.as_ref().unwrap().outcome.is_some());
        assert_eq!(latest_unfinished(&dir).unwrap(), Some(dir.join("new.txt")));
        touch(&dir.join("new.txt"), "game konobi\nsize 5\nc3\n", 500);
        assert_eq!(latest_unfinished(&dir).unwrap(), Some(dir.join("new.txt")));
        fs::remove_file(dir.join("new.txt")).unwrap();
        assert_eq!(latest_unfinished(&dir).unwrap(), None);
        assert!(games(&dir.join("missing")).unwrap().is_empty());
    }
}

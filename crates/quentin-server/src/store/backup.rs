//! Backups of the embedded store: `quentin serve backup --to FILE` copies the SQLite store
//! while the server runs (SQLite's online backup, in one step under one read transaction, so
//! that the copy is the store as it was at one commit), and `quentin serve restore --from FILE`
//! puts a copy in its place while the server is stopped, keeping the store it replaces.
//!
//! Both check what they handle: a backup is checked (`PRAGMA quick_check`, the schema) before
//! it is renamed into place, and a restore refuses a file that is not a sound quentin store,
//! or one from a newer quentin, before it moves anything.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::schema;

/// What a store holds, counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Players registered.
    pub players: i64,
    /// Games, running and over.
    pub games: i64,
    /// Moves of every game.
    pub moves: i64,
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} players, {} games, {} moves",
            self.players, self.games, self.moves
        )
    }
}

/// Copies the store at `store` to `to` (replaced if there) while a server may be using it, and
/// returns what the copy holds. The copy is made beside `to`, checked, synced and renamed into
/// place: a file at `to` is always a whole backup.
///
/// # Errors
/// When the store cannot be read or is not a sound quentin store, or `to` cannot be written.
pub fn backup(store: &Path, to: &Path) -> Result<Counts> {
    let what = store.display();
    if !store.is_file() {
        bail!("there is no store at {what}: give the server's --data directory");
    }
    target(store, to)?;
    // Read and write, but never created: the server's WAL index must be shared, not made.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let source = Connection::open_with_flags(store, flags)
        .with_context(|| format!("cannot open the store {what}"))?;
    // The server's writer holds the file for a few milliseconds a batch.
    source.busy_timeout(Duration::from_secs(10))?;
    schema::version(&source).with_context(|| format!("{what} is not a quentin server's store"))?;
    let partial = beside(to, ".partial");
    let _ = std::fs::remove_file(&partial);
    let written = (|| {
        let mut copy = Connection::open(&partial)
            .with_context(|| format!("cannot write {}", partial.display()))?;
        {
            let backup = Backup::new(&source, &mut copy)?;
            // Every page in one step: one read transaction, one consistent copy, however much
            // the server commits meanwhile.
            copy_all(&backup).with_context(|| format!("cannot copy the store {what}"))?;
        }
        // A backup is one file, whatever the store's journal.
        copy.pragma_update(None, "journal_mode", "DELETE")?;
        check(&copy, &partial)?;
        let counts = counts(&copy)?;
        copy.close().map_err(|(_, e)| e)?;
        std::fs::File::open(&partial)?.sync_all()?;
        std::fs::rename(&partial, to)
            .with_context(|| format!("cannot write the backup {}", to.display()))?;
        sync_dir(to);
        Ok(counts)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Refuses a backup's target `to` that is not a regular file nor a new one (a device such as
/// `/dev/full`, a directory, a FIFO: the rename would replace it), that is the store of `store`
/// or one of the files beside it in its data directory (the journal, the lock, the host key),
/// or that a running program has open (the server's log, another store): the rename would
/// take it from under them.
///
/// # Errors
/// Such a target, said with why.
fn target(store: &Path, to: &Path) -> Result<()> {
    let shown = to.display();
    let meta = match std::fs::metadata(to) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A new file: only not one the store's own names would take.
            if let (Some(dir), Some(name)) = (to.parent(), to.file_name()) {
                let dir = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                };
                let same_dir = match (dir.canonicalize(), store.parent().map(Path::canonicalize)) {
                    (Ok(a), Some(Ok(b))) => a == b,
                    _ => false,
                };
                let store_name = store.file_name().unwrap_or_default().to_string_lossy();
                if same_dir && name.to_string_lossy().starts_with(&*store_name) {
                    bail!("{shown} is the store's own file: back it up to another place");
                }
            }
            return Ok(());
        }
        Err(e) => return Err(e).with_context(|| format!("cannot look at {shown}")),
    };
    if !meta.is_file() {
        bail!("{shown} is not a regular file: a backup is written to a regular file or a new one");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let id = (meta.dev(), meta.ino());
        // The store and every file beside it: its journal, its lock, the host key.
        if let Some(dir) = store.parent()
            && let Ok(entries) = std::fs::read_dir(dir)
        {
            for entry in entries.flatten() {
                if let Ok(m) = std::fs::metadata(entry.path())
                    && (m.dev(), m.ino()) == id
                {
                    bail!(
                        "{shown} is the server's own file {}: back it up to another place",
                        entry.path().display()
                    );
                }
            }
        }
        if let Some(pid) = open_by(id) {
            bail!("{shown} is open in process {pid}: back it up to a file no program has open");
        }
    }
    Ok(())
}

/// A process that has the file of `(device, inode)` open, among those this user may look at
/// (Linux's `/proc/PID/fd`); `None` where there is no `/proc`.
#[cfg(unix)]
fn open_by(id: (u64, u64)) -> Option<u32> {
    use std::os::unix::fs::MetadataExt as _;
    for process in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = process
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(process.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if let Ok(m) = std::fs::metadata(fd.path())
                && (m.dev(), m.ino()) == id
            {
                return Some(pid);
            }
        }
    }
    None
}

/// Runs `backup` in one step of every page, tried again while the server's writer holds the
/// file (a few milliseconds a batch), for at most ten seconds.
fn copy_all(backup: &Backup<'_, '_>) -> Result<()> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            StepResult::More => {}
            _ if std::time::Instant::now() > deadline => {
                bail!("the server kept the store locked for ten seconds: try again")
            }
            _ => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// What a restore did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restored {
    /// What the restored store holds.
    pub counts: Counts,
    /// Where the store it replaced went, if there was one.
    pub kept: Option<PathBuf>,
}

/// Puts the backup `from` in the place of the store at `store` (the server stopped: the caller
/// holds the data directory's lock). The store there, with its journal, is moved aside to
/// `server.db.replaced-SECONDS`, never deleted.
///
/// # Errors
/// When `from` is not a sound quentin store, comes from a newer quentin, or a file cannot be
/// moved or written; nothing is moved then.
pub fn restore(from: &Path, store: &Path, now_unix: u64) -> Result<Restored> {
    let what = from.display();
    if !from.is_file() {
        bail!("there is no backup at {what}");
    }
    let counts = {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(from, flags)
            .with_context(|| format!("cannot open the backup {what}"))?;
        let version = schema::version(&conn)
            .with_context(|| format!("{what} is not a backup of a quentin server's store"))?;
        if version > schema::VERSION {
            bail!(
                "{what} comes from a newer quentin (its store's version is {version}, this \
                 program knows {}): restore it with that version",
                schema::VERSION
            );
        }
        check(&conn, from)?;
        counts(&conn)?
    };
    let copy = beside(store, ".restoring");
    std::fs::copy(from, &copy).with_context(|| format!("cannot write {}", copy.display()))?;
    std::fs::File::open(&copy)?.sync_all()?;
    let kept = if store.exists() {
        let aside = beside(store, &format!(".replaced-{now_unix}"));
        for tail in ["-wal", "-shm"] {
            let journal = beside(store, tail);
            if journal.exists() {
                std::fs::rename(&journal, beside(&aside, tail))
                    .with_context(|| format!("cannot move {} aside", journal.display()))?;
            }
        }
        std::fs::rename(store, &aside)
            .with_context(|| format!("cannot move {} aside", store.display()))?;
        Some(aside)
    } else {
        None
    };
    std::fs::rename(&copy, store)
        .with_context(|| format!("cannot put the backup in place at {}", store.display()))?;
    sync_dir(store);
    Ok(Restored { counts, kept })
}

/// Counts what the store on `conn` holds.
///
/// # Errors
/// When it cannot be read.
pub fn counts(conn: &Connection) -> Result<Counts> {
    let count = |table: &str| -> Result<i64> {
        Ok(conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?)
    };
    Ok(Counts {
        players: count("players")?,
        games: count("games")?,
        moves: count("moves")?,
    })
}

/// `PRAGMA quick_check` on a copy: `ok`, or the copy is refused with SQLite's words.
fn check(conn: &Connection, path: &Path) -> Result<()> {
    let found: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
    if found != "ok" {
        bail!("{} is damaged: SQLite's check says {found}", path.display());
    }
    Ok(())
}

/// `path` with `tail` added to its file name.
fn beside(path: &Path, tail: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(tail);
    PathBuf::from(name)
}

/// Syncs the directory holding `path`, so that a rename into it survives a crash.
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

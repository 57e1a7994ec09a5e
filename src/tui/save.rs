//! Saving records so that no game is ever lost.
//!
//! Every save writes the whole record to a temporary file in the record's own directory, flushes
//! it to the disk, then renames it over the record: at any moment, even after `SIGKILL`, the file
//! holds a complete record of every action played so far.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use directories::ProjectDirs;

/// How many numbered names (`name-2.txt`, `name-3.txt`, …) are tried for a fresh record file.
const MAX_TRIES: u32 = 1000;

/// Where one game's record is saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFile {
    path: PathBuf,
    /// Whether the file was named by the program in the data directory (then the next game gets
    /// a new time-stamped name there too).
    in_data_dir: bool,
}

impl RecordFile {
    /// The record file the player named with `--record`. It may exist only if empty: a game
    /// already in it is never overwritten.
    ///
    /// # Errors
    /// When the file already holds something.
    pub fn named(path: PathBuf) -> Result<RecordFile> {
        if fs::metadata(&path).is_ok_and(|m| m.len() > 0) {
            anyhow::bail!(
                "{} already exists and is not empty; the game in it is kept. To play on from it, \
                 run `quentin replay {}` and press p; or name another file",
                path.display(),
                path.display()
            );
        }
        Ok(RecordFile::unchecked(path))
    }

    fn unchecked(path: PathBuf) -> RecordFile {
        RecordFile {
            path,
            in_data_dir: false,
        }
    }

    /// A new file in the user's data directory named from the time, such as
    /// `…/quentin/games/2026-11-22T03-43-00.txt` (UTC), made `-2`, `-3`… unique.
    ///
    /// # Errors
    /// When there is no home directory or the directory cannot be created.
    pub fn in_data_dir(now: SystemTime) -> Result<RecordFile> {
        let dirs = ProjectDirs::from("", "", "quentin")
            .context("cannot find a data directory for the records (is HOME set?)")?;
        let dir = dirs.data_dir().join("games");
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = claim(&dir, &timestamp(now), "txt")?;
        Ok(RecordFile {
            path,
            in_data_dir: true,
        })
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
        Ok(RecordFile::unchecked(claim(dir, &stem, &ext)?))
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `text` as the whole record, atomically.
    ///
    /// # Errors
    /// Any I/O error; the file then still holds the previous record.
    pub fn save(&self, text: &str) -> io::Result<()> {
        write_atomically(&self.path, text.as_bytes())
    }
}

/// The directory holding `path` (`.` for a bare file name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Creates a new empty file `dir/stem.ext`, or `dir/stem-N.ext` with the first free N, and
/// returns its path. Creating it (rather than testing for it) keeps two games started in the
/// same second from sharing a file.
fn claim(dir: &Path, stem: &str, ext: &str) -> Result<PathBuf> {
    for n in 1..=MAX_TRIES {
        let name = if n == 1 {
            format!("{stem}.{ext}")
        } else {
            format!("{stem}-{n}.{ext}")
        };
        let path = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(_) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", path.display())),
        }
    }
    anyhow::bail!(
        "cannot find a free name for {stem}.{ext} in {}",
        dir.display()
    )
}

/// Writes `bytes` to `path` through a temporary file in the same directory: write, flush to the
/// disk, rename. A reader (or a crash) sees the old content or the new, never a mixture.
///
/// # Errors
/// Any I/O error; `path` is then untouched and the temporary file removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = parent(path);
    let name = path
        .file_name()
        .map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable; not every system can open a directory, and the data
        // is safe in the file already, so a failure here is not worth reporting.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// `2026-11-22T03-43-00`: the UTC time, with `-` instead of `:` so every file system takes it.
#[must_use]
pub fn timestamp(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}-{:02}-{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::time::Duration;

    /// A new empty directory for one test.
    pub(crate) fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("quentin-save-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn timestamps_are_utc_dates() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00-00-00");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_318_980);
        assert_eq!(timestamp(t), "2026-11-22T03-43-00");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(timestamp(leap), "2000-02-29T00-00-00");
    }

    #[test]
    fn saving_replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = scratch("atomic");
        let file = RecordFile::named(dir.join("game.txt")).unwrap();
        file.save("game quentin\n").unwrap();
        file.save("game quentin\nsize 5\n").unwrap();
        assert_eq!(
            fs::read_to_string(file.path()).unwrap(),
            "game quentin\nsize 5\n"
        );
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["game.txt"]);
    }

    #[test]
    fn saving_into_a_missing_directory_fails_cleanly() {
        let dir = scratch("missing");
        let file = RecordFile::named(dir.join("no/such/dir/game.txt")).unwrap();
        assert!(file.save("x").is_err());
    }

    #[test]
    fn a_named_file_holding_something_is_never_overwritten() {
        let dir = scratch("named");
        let path = dir.join("old.txt");
        fs::write(&path, "size 5\nc3\n").unwrap();
        let err = RecordFile::named(path.clone()).unwrap_err().to_string();
        assert!(err.contains("already exists"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "size 5\nc3\n");
        // An empty file, as `mktemp` makes, is fine.
        fs::write(&path, "").unwrap();
        assert!(RecordFile::named(path).is_ok());
    }

    #[test]
    fn next_files_are_numbered_and_never_clobber() {
        let dir = scratch("next");
        let first = RecordFile::named(dir.join("match.txt")).unwrap();
        first.save("one").unwrap();
        let second = first.next().unwrap();
        assert_eq!(second.path(), dir.join("match-2.txt"));
        let third = first.next().unwrap();
        assert_eq!(third.path(), dir.join("match-3.txt"));
        assert_eq!(fs::read_to_string(first.path()).unwrap(), "one");
    }
}

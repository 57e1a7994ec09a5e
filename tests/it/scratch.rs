//! Temporary directories and files of the tests (the integration tests, and the unit tests
//! through `src/save/tests.rs`), made with `tempfile` and removed when the test ends, whether
//! it passes or fails: a test run leaves nothing behind in the temporary directory.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

/// A new empty directory for one test, removed with everything in it when dropped. It reads as
/// the [`Path`] it is (`dir.join(…)`, `&dir` where a path is asked for).
pub struct Scratch(TempDir);

/// A new empty directory whose name starts with `quentin-NAME-`.
pub fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("quentin-{name}-"))
            .tempdir()
            .expect("a temporary directory"),
    )
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.0.path().as_os_str()
    }
}

/// A file named `name` holding `bytes`, alone in a directory of its own, both removed when
/// dropped. It reads as the file's [`Path`].
pub struct ScratchFile {
    path: PathBuf,
    _dir: Scratch,
}

/// Writes `bytes` to a new file named `name` in a directory of its own.
pub fn scratch_file(name: &str, bytes: impl AsRef<[u8]>) -> ScratchFile {
    let dir = scratch("file");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a temporary file");
    ScratchFile { path, _dir: dir }
}

impl Deref for ScratchFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for ScratchFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<OsStr> for ScratchFile {
    fn as_ref(&self) -> &OsStr {
        self.path.as_os_str()
    }
}

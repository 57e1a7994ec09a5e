//! `quentin serve backup` and `quentin serve restore`: the host's copies of the embedded store
//! ([`super::store::backup`] makes and checks them); PostgreSQL has its own (`pg_dump`).

use std::path::Path;

use anyhow::{Context as _, Result};

use super::report::say;
use super::store::backup;

/// Copies the store of the data directory `data` to `to`, while the server runs or not, and
/// says what the copy holds.
///
/// # Errors
/// When there is no sound store in `data`, or `to` cannot be written.
pub fn backup(data: &Path, to: &Path) -> Result<()> {
    let counts = backup::backup(&data.join("server.db"), to)?;
    say(format_args!(
        "backed up {} to {} ({counts})",
        data.join("server.db").display(),
        to.display()
    ));
    Ok(())
}

/// Puts the backup `from` in the place of the store of `data`, the server stopped (its lock on
/// the directory is taken for the time of the restore), and says what it did.
///
/// # Errors
/// When a server is running on `data`, or `from` is not a sound quentin store.
pub fn restore(data: &Path, from: &Path) -> Result<()> {
    std::fs::create_dir_all(data)
        .with_context(|| format!("cannot make the data directory {}", data.display()))?;
    let _lock = super::run::lock_data(data)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let store = data.join("server.db");
    let restored = backup::restore(from, &store, now)?;
    say(format_args!(
        "restored {} to {} ({})",
        from.display(),
        store.display(),
        restored.counts
    ));
    if let Some(kept) = restored.kept {
        say(format_args!(
            "the store it replaced is kept as {}",
            kept.display()
        ));
    }
    Ok(())
}

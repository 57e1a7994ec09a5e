//! The host's lists, read from files and read again on SIGHUP: who may log in (`--allow`),
//! the message of the day (`--motd`) and the operators (`--operators`).
//!
//! A list file names a key or a player a line: an OpenSSH public key (`ssh-ed25519 AAAA...
//! comment`, as in `authorized_keys`), a key's fingerprint (`SHA256:...`, as the server's log
//! shows it) or a player's name; `#` starts a comment, and blank lines are skipped. A bad
//! line is refused with the file's name and the line's number: at the start the server does
//! not start, and on SIGHUP the lists it had stay.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use anyhow::{Context as _, Result, bail};
use russh::keys::{HashAlg, PublicKey};

/// The most bytes of a message of the day: a screen's worth.
const MOTD_BYTES: u64 = 2048;

/// The most bytes of a list of keys or names: some ten thousand keys.
const LIST_BYTES: u64 = 1024 * 1024;

/// The bytes of the regular file `file` (a link is followed), at most `most` of them: a file
/// that is not regular (a device such as `/dev/zero`, a FIFO, a directory), or a longer one, is
/// refused without reading more than `most` bytes and one.
///
/// # Errors
/// A file that cannot be read, is not a regular file, or holds more than `most` bytes.
pub fn read_regular(file: &Path, most: u64, what: &str) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let shown = file.display();
    // Looked at before it is opened: a FIFO with no writer would keep the open waiting.
    let before = std::fs::metadata(file).with_context(|| format!("cannot read {shown}"))?;
    if !before.is_file() {
        bail!("{shown} is not a regular file: {what} must be one");
    }
    let opened = std::fs::File::open(file).with_context(|| format!("cannot read {shown}"))?;
    // And again once open: the name may have been given to something else between.
    let meta = opened
        .metadata()
        .with_context(|| format!("cannot read {shown}"))?;
    if !meta.is_file() {
        bail!("{shown} is not a regular file: {what} must be one");
    }
    let too_long = |n: u64| anyhow::anyhow!("{shown} is {n} bytes: {what} has at most {most}");
    if meta.len() > most {
        return Err(too_long(meta.len()));
    }
    let mut bytes = Vec::new();
    opened
        .take(most + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {shown}"))?;
    if bytes.len() as u64 > most {
        return Err(too_long(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The files the lists come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccessFiles {
    /// Keys or names that alone may log in.
    pub allow: Option<PathBuf>,
    /// The message of the day.
    pub motd: Option<PathBuf>,
    /// Keys or names of the operators (docs/server.md, "Moderation").
    pub operators: Option<PathBuf>,
}

/// Keys (by fingerprint) and player names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyList {
    keys: HashSet<String>,
    /// Lowercase, as names are compared.
    names: HashSet<String>,
}

impl KeyList {
    /// Reads the list in `file`.
    ///
    /// # Errors
    /// When it cannot be read, or a line is neither a public key, a fingerprint nor a name.
    pub fn read(file: &Path) -> Result<KeyList> {
        let bytes = read_regular(file, LIST_BYTES, "a list of keys and names")?;
        let text = String::from_utf8(bytes)
            .with_context(|| format!("{} is not UTF-8 text", file.display()))?;
        KeyList::parse(&text)
            .map_err(|(line, why)| anyhow::anyhow!("{} line {line}: {why}", file.display()))
    }

    /// The list in `text`; the number of the first bad line and what is wrong with it.
    fn parse(text: &str) -> Result<KeyList, (usize, String)> {
        let mut list = KeyList::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[0].starts_with("SHA256:") && words.len() == 1 {
                list.keys.insert(words[0].to_string());
            } else if words.len() >= 2 && looks_like_key_type(words[0]) {
                let key = PublicKey::from_openssh(line)
                    .map_err(|e| (n + 1, format!("not an OpenSSH public key: {e}")))?;
                list.keys
                    .insert(key.fingerprint(HashAlg::Sha256).to_string());
            } else if words.len() == 1 && is_name(words[0]) {
                list.names.insert(words[0].to_ascii_lowercase());
            } else {
                return Err((
                    n + 1,
                    format!(
                        "{:?} is neither a public key, a key's fingerprint (SHA256:...) nor \
                         a player's name",
                        super::spec::shown(line)
                    ),
                ));
            }
        }
        Ok(list)
    }

    /// Whether the key `fingerprint`, or the player `name` it belongs to, is on the list.
    #[must_use]
    pub fn has(&self, fingerprint: &str, name: Option<&str>) -> bool {
        self.keys.contains(fingerprint)
            || name.is_some_and(|n| self.names.contains(&n.to_ascii_lowercase()))
    }

    /// How many keys and names it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len() + self.names.len()
    }

    /// Whether it holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `ssh-ed25519`, `ecdsa-sha2-nistp256`, `sk-ssh-ed25519@openssh.com`, `ssh-rsa`...
fn looks_like_key_type(word: &str) -> bool {
    ["ssh-", "ecdsa-", "sk-"]
        .iter()
        .any(|p| word.starts_with(p))
}

/// A player's name: 2 to 20 letters, digits, `-` and `_` (as `register` takes them).
fn is_name(word: &str) -> bool {
    (2..=20).contains(&word.len())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The lists as last read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lists {
    /// Only these may log in; `None`: anyone.
    pub allow: Option<KeyList>,
    /// The message of the day, its lines.
    pub motd: Vec<String>,
    /// The operators the host's file names (the store may name more).
    pub operators: Option<KeyList>,
}

impl Lists {
    /// Reads the lists from `files`.
    ///
    /// # Errors
    /// When a file cannot be read or has a bad line.
    pub fn read(files: &AccessFiles) -> Result<Lists> {
        let allow = files.allow.as_deref().map(KeyList::read).transpose()?;
        let operators = files.operators.as_deref().map(KeyList::read).transpose()?;
        let motd = match &files.motd {
            None => Vec::new(),
            Some(file) => motd(file)?,
        };
        Ok(Lists {
            allow,
            motd,
            operators,
        })
    }
}

/// The message of the day in `file`: its lines, without control characters (a terminal's
/// escapes would reach every player), at most [`MOTD_BYTES`].
fn motd(file: &Path) -> Result<Vec<String>> {
    let bytes = read_regular(file, MOTD_BYTES, "a message of the day")?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", file.display()))?;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            l.chars()
                .map(|c| if c == '\t' { ' ' } else { c })
                .filter(|c| !c.is_control())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    Ok(lines[..end].to_vec())
}

/// The lists, shared by every connection, replaced whole when read again.
pub struct Access {
    files: AccessFiles,
    lists: RwLock<Arc<Lists>>,
}

impl Access {
    /// Reads the lists from `files` for the first time.
    ///
    /// # Errors
    /// When a file cannot be read or has a bad line: the server does not start.
    pub fn load(files: AccessFiles) -> Result<Access> {
        let lists = Lists::read(&files)?;
        Ok(Access {
            files,
            lists: RwLock::new(Arc::new(lists)),
        })
    }

    /// The lists as they are now.
    #[must_use]
    pub fn lists(&self) -> Arc<Lists> {
        self.lists
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Reads the files again (on SIGHUP); the lists read, or why they were kept as they were.
    ///
    /// # Errors
    /// When a file cannot be read or has a bad line: the lists stay as they were.
    pub fn reload(&self) -> Result<Arc<Lists>> {
        let lists = Arc::new(Lists::read(&self.files)?);
        *self
            .lists
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = lists.clone();
        Ok(lists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};

    /// A public key in OpenSSH's words, and its fingerprint.
    fn key() -> (String, String) {
        let pair = KeypairData::Ed25519(Ed25519Keypair::from_seed(&[7; 32]));
        let key = russh::keys::PrivateKey::new(pair, "alice@home").unwrap();
        let public = key.public_key();
        (
            public.to_openssh().unwrap(),
            public.fingerprint(HashAlg::Sha256).to_string(),
        )
    }

    #[test]
    fn a_list_holds_keys_fingerprints_and_names() {
        let (line, fingerprint) = key();
        let text = format!("# the club\n{line}\nSHA256:abc\n\nBob   # a member\n");
        let list = KeyList::parse(&text).unwrap();
        assert_eq!(list.len(), 3);
        assert!(list.has(&fingerprint, None));
        assert!(list.has("SHA256:abc", None));
        assert!(list.has("SHA256:other", Some("bob")));
        assert!(!list.has("SHA256:other", Some("carol")));
        assert!(!list.has("SHA256:other", None));
    }

    #[test]
    fn a_bad_line_is_named_by_its_number() {
        let (line, why) = KeyList::parse("alice\nssh-ed25519 AAAAnotbase64\n").unwrap_err();
        assert_eq!(line, 2);
        assert!(why.starts_with("not an OpenSSH public key"), "{why}");
        let (line, why) = KeyList::parse("alice\n\nbob carol\n").unwrap_err();
        assert_eq!(line, 3);
        assert!(why.contains("neither a public key"), "{why}");
    }
}

//! Saving: atomic rewrites, appends, locks, refusals of what is not a plain empty file, and
//! the clean-up of temporary files left by killed programs.

use super::*;

/// The tests' temporary directories, the same as the integration tests' (`tests/it/scratch.rs`).
#[path = "../../tests/it/scratch.rs"]
mod scratch_dirs;

pub(crate) use scratch_dirs::{Scratch, scratch};

fn setup(size: usize) -> Setup {
    Setup {
        size,
        ..Setup::new(crate::rules::Game::Quentin)
    }
}

fn actions(tokens: &str) -> Vec<Action> {
    tokens
        .split_whitespace()
        .map(|t| Action::parse(t).unwrap())
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn saving_appends_new_actions_rewrites_on_undo_and_leaves_no_temporary() {
    let dir = scratch("atomic");
    let mut file = RecordFile::named(dir.join("game.txt")).unwrap();
    file.save(setup(5), &[]).unwrap();
    assert_eq!(
        fs::read_to_string(file.path()).unwrap(),
        "game quentin\nsize 5\npie on\n"
    );
    file.save(setup(5), &actions("c3 swap")).unwrap();
    file.save(setup(5), &actions("c3 swap b2")).unwrap();
    assert_eq!(
        fs::read_to_string(file.path()).unwrap(),
        "game quentin\nsize 5\npie on\nc3\nswap\nb2\n"
    );
    // An undo: the whole record is rewritten.
    file.save(setup(5), &actions("c3")).unwrap();
    assert_eq!(
        fs::read_to_string(file.path()).unwrap(),
        "game quentin\nsize 5\npie on\nc3\n"
    );
    file.save(setup(5), &actions("c3 d4")).unwrap();
    assert_eq!(
        fs::read_to_string(file.path()).unwrap(),
        "game quentin\nsize 5\npie on\nc3\nd4\n"
    );
    assert_eq!(names(&dir), ["game.txt"]);
}

#[test]
fn a_resumed_record_keeps_its_text_and_gets_the_new_actions_appended() {
    let dir = scratch("resume");
    let path = dir.join("mine.txt");
    fs::write(&path, "# my game\nsize 5\nc3 swap").unwrap();
    let mut file = RecordFile::existing(path.clone()).unwrap();
    let text = file.read().unwrap();
    let record = record::Record::parse_bytes(&text).unwrap();
    file.holds(record.setup(), record.actions());
    file.save(setup(5), &actions("c3 swap b2")).unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "# my game\nsize 5\nc3 swap\nb2\n"
    );
    assert!(!file.unplayed());
}

#[test]
fn saving_into_a_missing_directory_fails_cleanly() {
    let dir = scratch("missing");
    let err = RecordFile::named(dir.join("no/such/dir/game.txt")).unwrap_err();
    assert!(format!("{err:#}").contains("cannot open "), "{err:#}");
}

#[test]
fn a_named_file_holding_something_is_never_overwritten() {
    let dir = scratch("named");
    let path = dir.join("old.txt");
    fs::write(&path, "size 5\nc3\n").unwrap();
    let err = RecordFile::named(path.clone()).unwrap_err().to_string();
    assert!(err.contains("already exists"), "{err}");
    assert!(err.contains("quentin resume"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "size 5\nc3\n");
    // A finished game cannot be played on: the refusal says what can be done with it.
    let won = "size 3\npie off\nb1 a1 b2 a2 b3\n";
    fs::write(&path, won).unwrap();
    let err = RecordFile::named(path.clone()).unwrap_err().to_string();
    assert!(err.contains("finished game"), "{err}");
    assert!(err.contains("quentin replay"), "{err}");
    assert!(!err.contains("quentin resume"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), won);
    // Nor can what is not a record.
    fs::write(&path, "hello\n").unwrap();
    let err = RecordFile::named(path.clone()).unwrap_err().to_string();
    assert!(err.contains("not a record"), "{err}");
    // An empty file, as `mktemp` makes, is fine, and is kept when no action was played.
    fs::write(&path, "").unwrap();
    let file = RecordFile::named(path.clone()).unwrap();
    assert!(!file.unplayed());
}

#[test]
fn next_files_are_numbered_and_never_clobber() {
    let dir = scratch("next");
    let mut first = RecordFile::named(dir.join("match.txt")).unwrap();
    first.save(setup(3), &actions("b2")).unwrap();
    let second = first.next().unwrap();
    assert_eq!(second.path(), dir.join("match-2.txt"));
    let third = first.next().unwrap();
    assert_eq!(third.path(), dir.join("match-3.txt"));
    assert!(fs::read_to_string(first.path()).unwrap().ends_with("b2\n"));
    assert!(third.unplayed());
    third.discard();
    assert!(!dir.join("match-3.txt").exists());
}

#[test]
fn what_is_not_a_regular_file_is_refused_and_left_alone() {
    let dir = scratch("special");
    // A FIFO: opening it must neither block nor replace it.
    let fifo = dir.join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let err = RecordFile::named(fifo.clone()).unwrap_err().to_string();
    assert!(err.contains("not a regular file (a FIFO)"), "{err}");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // A character device.
    let err = RecordFile::named(PathBuf::from("/dev/null"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("a character device"), "{err}");
    // A directory.
    let err = RecordFile::named(dir.to_path_buf())
        .unwrap_err()
        .to_string();
    assert!(err.contains("is a directory"), "{err}");
    assert!(!err.contains("not empty"), "{err}");
}

use std::os::unix::fs::FileTypeExt;

#[test]
fn a_symbolic_link_to_an_empty_file_is_followed_and_kept() {
    let dir = scratch("link");
    let real = dir.join("real.txt");
    fs::write(&real, "").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut file = RecordFile::named(link.clone()).unwrap();
    file.save(setup(3), &actions("b2")).unwrap();
    file.save(setup(3), &[]).unwrap();
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(
        fs::read_to_string(&real).unwrap(),
        "game quentin\nsize 3\npie on\n"
    );
    drop(file);
    // A link to a game is refused like the game itself.
    fs::write(&real, "size 3\nb2\n").unwrap();
    let err = RecordFile::named(link.clone()).unwrap_err().to_string();
    assert!(err.contains("already exists"), "{err}");
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
}

#[test]
fn a_record_in_use_by_another_game_is_refused_naming_it() {
    let dir = scratch("lock");
    let path = dir.join("shared.txt");
    let mut first = RecordFile::named(path.clone()).unwrap();
    let err = RecordFile::named(path.clone()).unwrap_err().to_string();
    assert!(err.contains("shared.txt is in use"), "{err}");
    // Still locked after a rewrite, which replaced the file.
    first.save(setup(3), &actions("b2")).unwrap();
    first.save(setup(3), &[]).unwrap();
    let err = RecordFile::existing(path.clone()).unwrap_err().to_string();
    assert!(err.contains("in use"), "{err}");
    drop(first);
    assert!(RecordFile::existing(path).is_ok());
}

#[test]
fn a_long_record_name_saves() {
    let dir = scratch("long");
    let path = dir.join(format!("{}.txt", "g".repeat(246)));
    let mut file = RecordFile::named(path.clone()).unwrap();
    file.save(setup(3), &actions("b2")).unwrap();
    assert!(fs::read_to_string(&path).unwrap().ends_with("b2\n"));
}

#[test]
fn temporary_files_of_dead_programs_are_removed_at_the_next_start() {
    let dir = scratch("stale");
    // A process that has ended: its number is free.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let old = format!(".game.txt.{dead}.tmp");
    let new = format!(".quentin-{dead}-3.tmp");
    let mine = format!(".quentin-{}-999.tmp", std::process::id());
    for name in [&old, &new, &mine, &".hidden.tmp".to_string()] {
        fs::write(dir.join(name), "size 5\n").unwrap();
    }
    let _file = RecordFile::named(dir.join("game.txt")).unwrap();
    assert_eq!(names(&dir), [".hidden.tmp", &mine, "game.txt"]);
    assert_eq!(temporary_owner(&new), Some(dead));
    assert_eq!(temporary_owner(&old), Some(dead));
    assert_eq!(temporary_owner("notes.txt"), None);
}

#[test]
fn the_player_headers_are_written_and_a_change_of_players_rewrites_the_record() {
    let dir = scratch("players");
    let path = dir.join("mine.txt");
    fs::write(
        &path,
        "# my game\nsize 5\nplayer2 computer, 2 s a move\nc3 d4",
    )
    .unwrap();
    let mut file = RecordFile::existing(path.clone()).unwrap();
    let record = record::Record::parse_bytes(&file.read().unwrap()).unwrap();
    // The same players: the text is kept and the new actions appended.
    file.set_players(record.players());
    file.holds(record.setup(), record.actions());
    file.set_players(record.players());
    file.save(setup(5), &actions("c3 d4 b2")).unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "# my game\nsize 5\nplayer2 computer, 2 s a move\nc3 d4\nb2\n"
    );
    // Other players: the record is written anew with their headers.
    file.set_players(&[Some("computer, 1 s a move".into()), None]);
    file.save(setup(5), &actions("c3 d4 b2 e5")).unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "game quentin\nsize 5\npie on\nplayer1 computer, 1 s a move\nc3\nd4\nb2\ne5\n"
    );
}

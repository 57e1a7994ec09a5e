//! `quentin serve --config FILE`: the options from a TOML file, the command line over it, and
//! a bad file refused at the start with its line, through the real binary.

use crate::common::run_guarded;
use crate::serve;

use std::fs;

use serve::{Server, TIMEOUT, key, scratch};

/// `quentin serve --config FILE`, which must refuse at once; what it said.
fn refused(dir: &std::path::Path, text: &str) -> String {
    let file = dir.join("quentin.toml");
    fs::write(&file, text).unwrap();
    let mut cmd = crate::isolated::quentin();
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(dir.join("data"))
        .arg("--config")
        .arg(&file);
    let out = run_guarded(cmd, TIMEOUT);
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("quentin.toml:"), "{said}");
    said
}

#[test]
fn a_bad_configuration_file_is_refused_naming_its_line() {
    let dir = scratch("server-config-bad");
    let said = refused(
        &dir,
        "# the host's settings\nmax-sessions = 8\nmax_sesions = 9\n",
    );
    assert!(
        said.contains("quentin.toml:3: unknown key `max_sesions`") && said.contains("max-sessions"),
        "{said}"
    );
    let said = refused(
        &dir,
        "listen = \"127.0.0.1:0\"\n\nmax-sessions = \"many\"\n",
    );
    assert!(
        said.contains("quentin.toml:3: bad value for `max-sessions`: invalid value 'many'"),
        "{said}"
    );
    let said = refused(&dir, "max-sessions = [1, 2]\n");
    assert!(
        said.contains("quentin.toml:1: `max-sessions` takes a string or a number"),
        "{said}"
    );
    let said = refused(&dir, "max-sessions = 8\nlisten = \n");
    assert!(said.contains("quentin.toml:2: "), "{said}");
    // A hidden option of the tests is no key of the file.
    let said = refused(&dir, "test-hooks = true\n");
    assert!(
        said.contains("quentin.toml:1: unknown key `test-hooks`"),
        "{said}"
    );
    // Nothing was started: no store was made.
    assert!(!dir.join("data").join("server.db").exists());
}

#[test]
fn the_file_s_options_apply_and_the_command_line_overrides_them() {
    let dir = scratch("server-config");
    let file = dir.join("quentin.toml");
    // An address that cannot be listened on, which the command line's --listen replaces; one
    // place for a logged-in connection, which nothing replaces.
    fs::write(
        &file,
        "# quentin serve --config\nlisten = \"nowhere\"\nmax_sessions = 1\nsessions-per-key = 4\n",
    )
    .unwrap();
    let server = Server::start(&dir, &["--config", file.to_str().unwrap()]);
    let alice = key(&dir, "alice");
    let mut first = server.bot(&alice);
    assert_eq!(first.ask("whoami"), "? register first: register NAME");
    let mut second = server.bot(&key(&dir, "bob"));
    let answer = second.ask("whoami");
    assert!(answer.starts_with("? the server is full"), "{answer}");
    second.finish();
    first.finish();
}

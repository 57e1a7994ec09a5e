//! The project's documents against the project: every example of `docs/` is replayed by the real
//! binary and must print exactly what the page shows, and every relative link and path named in
//! README.md and `docs/` must exist in the repository (none may point outside it).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use quentin::rules::Point;
use quentin::rules::brique::is_light;
use serde_json::Value;

use crate::scratch;

use scratch::scratch;

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file of `docs/`.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// A fenced block of a Markdown text: its info string and its lines.
struct Block {
    info: String,
    text: String,
    line: usize,
}

fn fenced_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    text: String::new(),
                    line: i + 1,
                });
            }
            (Some(_), Some("")) => blocks.extend(open.take()),
            (Some(block), _) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    blocks
}

/// Runs `quentin replay game.txt FLAG` on `record`, in a directory of its own.
fn replay(record: &str, flag: &str, name: &str) -> Output {
    run_on(record, &["replay", "game.txt", flag], name)
}

/// Runs `quentin ARGS` with `record` in `game.txt`, in a directory of its own.
fn run_on(record: &str, args: &[&str], name: &str) -> Output {
    let dir = scratch(name);
    fs::write(dir.join("game.txt"), record).unwrap();
    crate::isolated::quentin()
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A JSON object with its `legal` list sorted, since that list has no set order.
fn normalised(mut value: Value) -> Value {
    if let Some(legal) = value.get_mut("legal").and_then(Value::as_array_mut) {
        legal.sort_by_key(ToString::to_string);
    }
    value
}

/// The light (`L`) and dark (`D`) squares of an n×n Brique board, drawn as `--print` draws
/// boards.
fn squares(n: usize) -> String {
    let letters: Vec<String> = (0..n)
        .map(|c| Point::new(c, 0).col_letter().to_string())
        .collect();
    let letters = format!("    {}\n", letters.join(" "));
    let mut out = letters.clone();
    for row in (0..n).rev() {
        let cells: Vec<&str> = (0..n)
            .map(|col| {
                if is_light(Point::new(col, row)) {
                    "L"
                } else {
                    "D"
                }
            })
            .collect();
        out.push_str(&format!("{:>3} {} {}\n", row + 1, cells.join(" "), row + 1));
    }
    out.push_str(&letters);
    out
}

#[test]
fn every_example_of_the_docs_is_what_the_program_prints() {
    let mut checked = 0;
    for doc in documents() {
        let markdown = fs::read_to_string(&doc).unwrap();
        let blocks = fenced_blocks(&markdown);
        let name = doc.file_stem().unwrap().to_string_lossy().to_string();
        for (i, block) in blocks.iter().enumerate() {
            let at = format!("{}:{}", doc.display(), block.line);
            if block.info == "squares" {
                let n = block.text.lines().count() - 2;
                assert_eq!(block.text, squares(n), "{at}");
                checked += 1;
            }
            if block.info != "record" {
                continue;
            }
            let shown = blocks
                .get(i + 1)
                .unwrap_or_else(|| panic!("{at}: a record with nothing after it"));
            let id = format!("{name}-{i}");
            match shown.info.as_str() {
                "board" => {
                    let out = replay(&block.text, "--print", &id);
                    assert_eq!(
                        out.status.code(),
                        Some(0),
                        "{at}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown.text, "{at}");
                }
                // The budget the pages name: the same review on every run.
                "review" => {
                    let args = [
                        "review",
                        "game.txt",
                        "--playouts",
                        "2000",
                        "--threads",
                        "1",
                        "--seed",
                        "1",
                    ];
                    let out = run_on(&block.text, &args, &id);
                    assert_eq!(out.status.code(), Some(0), "{at}");
                    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown.text, "{at}");
                }
                "refusal" => {
                    let out = replay(&block.text, "--print", &id);
                    assert_eq!(out.status.code(), Some(1), "{at}");
                    assert_eq!(String::from_utf8(out.stderr).unwrap(), shown.text, "{at}");
                }
                "json" => {
                    let out = replay(&block.text, "--json", &id);
                    assert_eq!(out.status.code(), Some(0), "{at}");
                    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
                    let expected: Value = serde_json::from_str(&shown.text)
                        .unwrap_or_else(|e| panic!("{at}: the page's JSON: {e}"));
                    assert_eq!(normalised(printed), normalised(expected), "{at}");
                }
                other => panic!("{at}: a record followed by a {other:?} block"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} examples found");
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut in_code = false;
    let mut out = BTreeSet::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && let Some(heading) = line.strip_prefix('#') {
            out.insert(anchor(heading.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a Markdown text.
fn link_targets(markdown: &str) -> Vec<String> {
    markdown
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(t, _)| t.to_string()))
        .collect()
}

/// Code spans that name a path in the repository: relative, with a `/`, no spaces.
fn code_paths(markdown: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            let looks_like_path = i % 2 == 1
                && span.contains('/')
                && !span.contains(char::is_whitespace)
                && !span.contains("://")
                && !span.starts_with(['~', '/', '$', '%', '…', '-', '.'])
                // Build output, wherever CARGO_TARGET_DIR puts it: not a file of the clone.
                && !span.starts_with("target/")
                && !span.contains(['*', '<', '>', '…']);
            if looks_like_path {
                paths.push(span.to_string());
            }
        }
    }
    paths
}

#[test]
fn every_relative_link_and_path_of_the_docs_exists() {
    let mut checked = 0;
    for doc in documents() {
        let markdown = fs::read_to_string(&doc).unwrap();
        let dir = doc.parent().unwrap();
        for outside in ["../shared", "/work/", "shared/RULES", "shared/FORMAT"] {
            assert!(
                !markdown.contains(outside),
                "{} points outside the repository: {outside}",
                doc.display()
            );
        }
        for target in link_targets(&markdown) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let file = if path.is_empty() {
                doc.clone()
            } else {
                dir.join(path)
            };
            assert!(
                file.exists(),
                "{}: the link {target} leads nowhere",
                doc.display()
            );
            let inside = file.canonicalize().unwrap();
            assert!(
                inside.starts_with(root().canonicalize().unwrap()),
                "{}: the link {target} leaves the repository",
                doc.display()
            );
            if !fragment.is_empty() {
                let text = fs::read_to_string(&file).unwrap();
                assert!(
                    anchors(&text).contains(fragment),
                    "{}: no heading #{fragment} in {path}",
                    doc.display()
                );
            }
            checked += 1;
        }
        for path in code_paths(&markdown) {
            assert!(
                root().join(&path).exists(),
                "{}: the path {path} is not in the repository",
                doc.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} links and paths found");
}

/// How the documents write a key of the interface's table.
fn key_name(key: quentin::tui::commands::Key) -> String {
    use quentin::tui::commands::Key;
    use quentin::tui::input::KeyCode;
    match key {
        Key::Code(KeyCode::Char(' ')) => "Space".to_string(),
        Key::Code(KeyCode::Char(c)) => format!("`{c}`"),
        Key::Code(KeyCode::Enter) => "Enter".to_string(),
        Key::Code(KeyCode::Esc) => "Esc".to_string(),
        Key::Code(KeyCode::Left | KeyCode::Right | KeyCode::Up | KeyCode::Down) => {
            "arrows".to_string()
        }
        Key::Code(KeyCode::Home) => "Home".to_string(),
        Key::Code(KeyCode::End) => "End".to_string(),
        Key::Code(KeyCode::PageUp) => "PgUp".to_string(),
        Key::Code(KeyCode::PageDown) => "PgDn".to_string(),
        Key::Code(other) => format!("{other:?}"),
        Key::Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
    }
}

/// Every key of the interface's one table of keys (which also dispatches them) is in the
/// README and in docs/playing.md: a key cannot work unlisted, nor be listed in one and not the
/// other.
#[test]
fn the_documents_list_every_key_of_the_table() {
    use quentin::tui::commands::{ROWS, Section};
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let playing = fs::read_to_string(root().join("docs/playing.md")).unwrap();
    let quint_keys = &playing[playing.rfind("| key | does |").expect("Quint's key table")..];
    for row in ROWS {
        for &(key, _) in row.binds {
            let name = key_name(key);
            let (text, doc) = match row.section {
                Section::Quint => (quint_keys, "docs/playing.md (Quint)"),
                _ => (playing.as_str(), "docs/playing.md"),
            };
            assert!(text.contains(&name), "{doc} does not list {name}");
            if row.section != Section::Quint {
                assert!(readme.contains(&name), "README.md does not list {name}");
            }
        }
    }
}

#[test]
fn the_service_unit_passes_systemd_s_own_check() {
    // `systemd-analyze verify` reads the unit as systemd would, the program it starts included:
    // the unit is checked with this build's binary in the place of /usr/local/bin/quentin.
    let unit = fs::read_to_string(root().join("contrib/quentin.service")).unwrap();
    assert!(
        unit.contains("ExecStart=/usr/local/bin/quentin serve"),
        "{unit}"
    );
    let Ok(version) = Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!(
            "skipped: systemd-analyze is not installed (Debian's package systemd); the unit \
             is checked where it is"
        );
        return;
    };
    assert!(version.status.success());
    let dir = scratch("service-unit");
    let path = dir.join("quentin.service");
    fs::write(
        &path,
        unit.replace("/usr/local/bin/quentin", env!("CARGO_BIN_EXE_quentin")),
    )
    .unwrap();
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    // Only what concerns this unit: systemd may warn about the machine's own units.
    let ours: Vec<&str> = said.lines().filter(|l| l.contains("quentin")).collect();
    assert!(out.status.success() && ours.is_empty(), "{said}");
}

//! The house's layout held to what docs/development.md says of it: between the server crate's
//! folders and top files (each a room: `hub/` with `hub.rs`, `store/` with `store.rs`, `ids.rs`)
//! the imports run one way, so that no room takes a name from a room that takes one from it,
//! however far round. Read from the files' own `crate::` paths (comments and the unit tests
//! left out), as a reader would follow them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The server crate's sources.
fn server_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/quentin-server/src")
}

/// Every `.rs` file under `dir`, but the unit tests' files.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The room of a file: its first component under `src`, without `.rs`.
fn room(src: &Path, file: &Path) -> String {
    let first = file.strip_prefix(src).unwrap().components().next().unwrap();
    let name = first.as_os_str().to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_string()
}

/// What each room imports from the others: room -> (room -> the file that does).
fn imports() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = server_src();
    let mut files = Vec::new();
    sources(&src, &mut files);
    let rooms: BTreeSet<String> = files.iter().map(|f| room(&src, f)).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in &files {
        let from = room(&src, file);
        let text = fs::read_to_string(file).unwrap();
        // The unit tests at a file's end import what they test, from anywhere.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // A name of the crate's root (`crate::Context`) is lib.rs's.
                let to = if rooms.contains(&name) {
                    name
                } else {
                    "lib".to_string()
                };
                if to != from {
                    let shown = file.strip_prefix(&src).unwrap().display().to_string();
                    edges.entry(from.clone()).or_default().insert(to, shown);
                }
            }
        }
    }
    edges
}

/// A circle through `start`, if the imports hold one: the rooms in order.
fn circle_through(
    edges: &BTreeMap<String, BTreeMap<String, String>>,
    start: &str,
) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in edges.get(&at).into_iter().flat_map(|m| m.keys()) {
            if next == start {
                return Some(path);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_import_between_the_server_s_folders_runs_back_up() {
    let edges = imports();
    assert!(
        edges.get("hub").is_some_and(|m| m.contains_key("store")),
        "the reading found no import of the store by the hub: it reads nothing"
    );
    for room in edges.keys().filter(|r| *r != "lib") {
        if let Some(circle) = circle_through(&edges, room) {
            let mut steps = Vec::new();
            for (i, from) in circle.iter().enumerate() {
                let to = &circle[(i + 1) % circle.len()];
                steps.push(format!("{from} -> {to} ({})", edges[from][to]));
            }
            panic!(
                "the server's rooms import each other in a circle: {}",
                steps.join(", ")
            );
        }
    }
}

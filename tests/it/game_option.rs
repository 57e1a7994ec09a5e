//! `--game konobi|brique` on the command line reaches the game's own setup: a size out of range
//! is refused naming the game, as a wrong use of the command line (status 2), before any
//! terminal is opened.

#[test]
fn play_knows_every_connection_game() {
    for (name, title) in [
        ("quentin", "Quentin"),
        ("konobi", "Konobi"),
        ("brique", "Brique"),
    ] {
        let output = crate::isolated::quentin()
            .args(["play", "--game", name, "--size", "2"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains(&format!(
                "size 2 is out of range: {title} is played on sizes 3 to 26"
            )),
            "{stderr}"
        );
    }
}

#[test]
fn an_unknown_game_is_a_usage_error() {
    let output = crate::isolated::quentin()
        .args(["play", "--game", "hex"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

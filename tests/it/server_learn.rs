//! The course over SSH (issue 60), through the real OpenSSH client and a real `quentin serve`:
//! `l` in the lobby opens Quentin's course; its first stage is completed by typed moves, a
//! wrong move answered on the board first; `q` goes back to the lobby. The player leaves and
//! comes back: the course opens where it was left, stage 1 said done with its stars (the
//! server's store keeps them). `o` lists the stages, `g` another game's, and a digit plays
//! that stage: Konobi's third, chosen from Quentin's first level.

use crate::pty::{panel_words, wait_until};
use crate::serve::{Server, scratch};
use crate::server_play::{login, newcomer};

#[test]
fn a_stage_of_the_course_is_completed_from_the_lobby() {
    let dir = scratch("learn-ssh");
    let server = Server::start(&dir, &[]);
    let mut carol = newcomer(&server, &dir, "carol");
    carol.wait_for("l learn");
    carol.send("l");
    carol.wait_for("Learn Quentin: stage 1 of");
    carol.wait_for("Level 1 of 15: One stone to win (par 1)");
    // A legal move that does not win is answered.
    carol.send(":e5\r");
    crate::pty::wait_until("the wrong move answered", || {
        let screen = carol.screen();
        (screen.contains("does not win at once") || screen.contains("White answers")).then_some(())
    });
    // Stage 1: three levels, each won by c3.
    for (n, title) in [
        (1, "One stone to win"),
        (2, "White's edges"),
        (3, "Chains turn"),
    ] {
        carol.wait_for(&format!("Level {n} of 15: {title}"));
        carol.send(":c3\r");
        carol.wait_for("Right!");
        carol.send("n");
    }
    // Stage 1 done: the next level is stage 2's.
    let screen = carol.wait_for("Learn Quentin: stage 2 of");
    assert!(screen.contains("Level 4 of 15"), "{screen}");
    carol.send("q");
    carol.wait_for("Puzzle leaderboard (p solves puzzles)");
    carol.send("q");
    assert!(carol.wait_exit(), "ssh ends when the player leaves");

    // Back with the same key: the course goes on at stage 2, stage 1 said done, its stars
    // kept (level 1 took two moves: two stars; levels 2 and 3 three each).
    let mut carol = login(&server, &dir, &dir.join("carol"));
    carol.wait_for("Open challenges");
    carol.send("l");
    let screen = carol.wait_for("Learn Quentin: stage 2 of");
    assert!(screen.contains("Level 4 of 15"), "{screen}");
    wait_until("the progress said", || {
        let words = panel_words(&carol.screen());
        words
            .contains("Your progress: Quentin stage 1 done, 8 stars of 45.")
            .then_some(())
    });
    carol.send("q");
    carol.wait_for("Puzzle leaderboard (p solves puzzles)");
}

#[test]
fn a_stage_of_another_game_is_chosen_from_the_lobbys_course_and_played() {
    let dir = scratch("learn-stage-ssh");
    let server = Server::start(&dir, &[]);
    let mut dave = newcomer(&server, &dir, "dave");
    dave.send("l");
    dave.wait_for("Learn Quentin: stage 1 of");
    // o lists Quentin's stages, g Konobi's; a digit replays that stage.
    dave.send("o");
    wait_until("Quentin's stages listed", || {
        let words = panel_words(&dave.screen());
        words
            .contains("Quentin's stages, g for Konobi's: 1 The goal: join your two edges; 2")
            .then_some(())
    });
    dave.send("g");
    wait_until("Konobi's stages listed", || {
        let words = panel_words(&dave.screen());
        words
            .contains("Konobi's stages, g for Brique's: 1 The goal and strong links; 2 Weak")
            .then_some(())
    });
    dave.send("3");
    dave.wait_for("Learn Konobi: stage 3 of 7");
    dave.wait_for("Level 6 of 13: Strong when you can");
    dave.send(":b3\r");
    dave.wait_for("Right!");
    // Any other key closes the list, the level as it was.
    dave.send("n");
    dave.wait_for("Level 7 of 13");
    dave.send("o");
    wait_until("Konobi's stages listed", || {
        panel_words(&dave.screen())
            .contains("Konobi's stages, g for Brique's:")
            .then_some(())
    });
    dave.send("x");
    wait_until("the list closed", || {
        panel_words(&dave.screen())
            .contains("The level goes on as it was.")
            .then_some(())
    });
    dave.send("q");
    dave.wait_for("Puzzle leaderboard (p solves puzzles)");
}

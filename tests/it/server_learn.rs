//! The course over SSH (issue 60), through the real OpenSSH client and a real `quentin serve`:
//! `l` in the lobby opens Quentin's course; its first stage is completed by typed moves, a
//! wrong move answered on the board first; `q` goes back to the lobby. The player leaves and
//! comes back: the course opens where it was left, stage 1 said done with its stars (the
//! server's store keeps them).

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

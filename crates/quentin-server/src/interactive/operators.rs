//! The operators' screen of the lobby (`o`, for operators only): the list of players (or the
//! audit log, or what the last order answered) above a command line that takes the orders in
//! the bot protocol's words: `ban alice until 2030-01-01 rude words`, `rename alice`, `reset
//! alice`, `mark alice`, `players alice`, `log`... Esc goes back to the lobby.

use quentin_app::screen::console::{Console, Leave};

use super::driver::{Glue, drive};
use super::{Next, Screen};
use crate::channel::Inbox;
use crate::context::Context;
use crate::context::session;
use crate::who::Who;

/// The orders' words, shown under the title.
const USAGE: &str = "ban NAME [until YYYY-MM-DD] REASON...  unban NAME  rename NAME  \
     abort GAME  close CHALLENGE  reset NAME  mark NAME  unmark NAME  players [NAME]  log";

/// Runs the operators' screen until Esc (the lobby), Ctrl-C or a closed session.
pub(super) async fn operators_screen(
    ctx: &Context,
    who: &Who,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Next {
    let mut console = Console::new(
        "Operators: type an order, Enter to give it, Esc for the lobby",
        USAGE,
    );
    // What the list shows: the players, until an order answers something else.
    console.show(answer(ctx, who, "players").await);
    drive(&mut Operating { ctx, who, console }, screen, input).await
}

/// The operators' console: each order given to the moderation's session.
struct Operating<'a> {
    ctx: &'a Context,
    who: &'a Who,
    console: Console,
}

impl Glue for Operating<'_> {
    type Screen = Console;
    type Done = Next;

    fn screen(&mut self) -> &mut Console {
        &mut self.console
    }

    fn gone(&self) -> Next {
        Next::Quit
    }

    async fn act(&mut self, given: String) -> Option<Next> {
        let (ctx, who) = (self.ctx, self.who);
        let words: Vec<&str> = given.split_whitespace().collect();
        let result = session::order(ctx, who, &words).await;
        match (words.first().copied().unwrap_or_default(), result) {
            // A list asked for: shown in the list's place.
            ("players" | "log", Ok(text)) => {
                self.console.say(format!("= {given}"));
                self.console.show(text);
            }
            (_, Ok(text)) => {
                self.console.say(format!("= {given}{}", with(&text)));
                self.console.show(answer(ctx, who, "players").await);
            }
            (_, Err(why)) => self.console.say(format!("? {why}")),
        }
        None
    }

    fn left(&mut self, leave: Leave) -> Next {
        match leave {
            Leave::Back => Next::Lobby,
            Leave::Quit => Next::Quit,
        }
    }
}

/// `: TEXT` after an order's words, when its answer says something.
fn with(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!(": {text}")
    }
}

/// The answer to `words` (a list), or why not.
async fn answer(ctx: &Context, who: &Who, words: &str) -> String {
    let words: Vec<&str> = words.split_whitespace().collect();
    session::order(ctx, who, &words)
        .await
        .unwrap_or_else(|why| format!("? {why}"))
}

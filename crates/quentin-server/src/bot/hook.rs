//! The test hooks: fault injection and a clock that moves on, for the end-to-end tests. They
//! are not bot commands: their words are parsed apart ([`Hook::parse`]) and answered only by a
//! test server, one started with the hidden `quentin serve --test-hooks` (its start lines say
//! so); on any other server they are unknown commands, as any word the protocol lacks.

use super::answer::{Outcome, Refused};
use crate::context::Context;
use crate::context::session;
use crate::ids::GameId;
use crate::who::Who;

/// A test hook, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Hook {
    /// `clock advance SECONDS`: the server's clock moves on.
    ClockAdvance(f64),
    /// `store fail` or `store heal`: every SQLite commit fails from now on, as on a failing
    /// disk, or none does.
    Store {
        /// Failing from now on, or healed.
        failing: bool,
    },
    /// `hold ID`: a move's transaction left open on game ID (several processes).
    Hold(GameId),
    /// `notes stop` or `notes read`: this process reads nothing the others say from now on,
    /// or reads again.
    Notes {
        /// Reading again, or stopped.
        reading: bool,
    },
    /// `panic`: the session's task panics.
    Panic,
}

impl Hook {
    /// The hook of `line`, split at ASCII whitespace: `None` when its first word is not a
    /// hook's (the line is then a bot command), the usage when its other words are wrong.
    #[must_use]
    pub fn parse(line: &str) -> Option<Result<Hook, String>> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let (word, args) = words.split_first()?;
        Some(match *word {
            "clock" => match args {
                ["advance", s] => s
                    .parse()
                    .map(Hook::ClockAdvance)
                    .map_err(|_| "clock advance SECONDS".to_string()),
                _ => Err("clock advance SECONDS".to_string()),
            },
            "store" => match args {
                ["fail"] => Ok(Hook::Store { failing: true }),
                ["heal"] => Ok(Hook::Store { failing: false }),
                _ => Err("store fail|heal".to_string()),
            },
            "hold" => match args {
                [id] => id
                    .parse()
                    .map(|id| Hook::Hold(GameId(id)))
                    .map_err(|_| "bad game number".to_string()),
                _ => Err("hold needs a game number".to_string()),
            },
            "notes" => match args {
                ["stop"] => Ok(Hook::Notes { reading: false }),
                ["read"] => Ok(Hook::Notes { reading: true }),
                _ => Err("notes stop|read".to_string()),
            },
            "panic" if args.is_empty() => Ok(Hook::Panic),
            "panic" => Err("panic takes no words after it".to_string()),
            _ => return None,
        })
    }
}

/// Runs `hook` for `who` on a test server: anyone but a player an operator renamed.
pub(super) async fn run(ctx: &Context, who: &Who, hook: Hook) -> Result<Outcome, Refused> {
    if let Some((id, _)) = &who.player
        && session::renamed(ctx, *id)
    {
        return Err(Refused::Renamed);
    }
    match hook {
        Hook::ClockAdvance(seconds) => {
            ctx.clock.advance((seconds * 1000.0) as i64);
            ctx.hub.tick(ctx.clock.now()).await;
            ctx.hub.direct(ctx.clock.now()).await;
        }
        Hook::Store { failing } => {
            crate::store::sqlite::FAILING.store(failing, std::sync::atomic::Ordering::SeqCst);
        }
        Hook::Hold(id) => ctx.hub.hold(id).await.map_err(Refused::Said)?,
        Hook::Notes { reading } => {
            crate::cluster::READING.send_replace(reading);
        }
        Hook::Panic => panic!("the test hook `panic`, as asked"),
    }
    Ok(Outcome::Done)
}

#[cfg(test)]
mod tests {
    use super::Hook;
    use crate::ids::GameId;

    #[test]
    fn the_hooks_parse_with_their_usage() {
        for (line, hook) in [
            ("clock advance 1.5", Hook::ClockAdvance(1.5)),
            ("store fail", Hook::Store { failing: true }),
            (" store\theal ", Hook::Store { failing: false }),
            ("hold 7", Hook::Hold(GameId(7))),
            ("notes stop", Hook::Notes { reading: false }),
            ("notes read", Hook::Notes { reading: true }),
            ("panic", Hook::Panic),
        ] {
            assert_eq!(Hook::parse(line), Some(Ok(hook)), "{line}");
        }
        for (line, why) in [
            ("clock", "clock advance SECONDS"),
            ("clock advance soon", "clock advance SECONDS"),
            ("store", "store fail|heal"),
            ("hold", "hold needs a game number"),
            ("hold x", "bad game number"),
            ("notes", "notes stop|read"),
            ("panic now", "panic takes no words after it"),
        ] {
            assert_eq!(Hook::parse(line), Some(Err(why.to_string())), "{line}");
        }
        // The protocol's own words are not hooks.
        for line in ["play 3 c3", "games", "challenge quentin", ""] {
            assert_eq!(Hook::parse(line), None, "{line}");
        }
    }
}

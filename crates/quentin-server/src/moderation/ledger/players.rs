//! `players [NAME]`: a line a player (the newest first), with their key, their games and
//! aborts, their standing and the addresses of their latest logins; for one player, a line
//! more with the others who logged in from those addresses (a second key of one person?).

use anyhow::Result;

use super::Ledger;
use crate::ids::Moment;
use crate::moderation::OrderRefusal;
use crate::store::ledger::{Plan, PlayerFacts, PlayerList};

/// The most players `players` lists.
const MOST_LISTED: i64 = 200;

impl Ledger {
    /// `players [NAME]` at `now`: its answer, or the refusal.
    pub(super) async fn players(
        &self,
        name: Option<String>,
        now: Moment,
    ) -> Result<Result<String, OrderRefusal>> {
        let need = PlayerList {
            name: name.clone(),
            most: MOST_LISTED,
        };
        self.carry_out(need, move |found| {
            let players = match (found, &name) {
                (Some(players), _) => players,
                (None, Some(name)) => return Err(OrderRefusal::NoPlayer(name.clone())),
                // All asked: the store finds every player there is, none at all included.
                (None, None) => Vec::new(),
            };
            Ok(Plan {
                writes: Vec::new(),
                answer: lines(&players, name.is_some(), now),
            })
        })
        .await
    }
}

/// The lines of `players`; the others of the same addresses when asked of `one` player.
fn lines(players: &[PlayerFacts], one: bool, now: Moment) -> String {
    let mut lines = Vec::new();
    for p in players {
        lines.push(line(p, now));
        if one {
            let mut others: Vec<&str> = Vec::new();
            for other in &p.others {
                if !others.contains(&other.as_str()) {
                    others.push(other);
                }
            }
            if !others.is_empty() {
                lines.push(format!("same addresses: {}", others.join(" ")));
            }
        }
    }
    lines.join("\n")
}

/// One player's line of `players` at `now`.
fn line(p: &PlayerFacts, now: Moment) -> String {
    let mut line = format!(
        "{} key {} games {} aborts {}",
        p.name, p.key, p.games, p.aborts
    );
    for (holds, word) in [
        (p.operator, "operator"),
        (p.marked, "marked"),
        (p.renamed, "renamed"),
    ] {
        if holds {
            line.push(' ');
            line.push_str(word);
        }
    }
    if let Some(until) = p.ban
        && until.is_none_or(|u| now < u)
    {
        line.push_str(" banned");
        if let Some(until) = until {
            line.push_str(&format!(" until {}", crate::moderation::date(until)));
        }
    }
    line.push_str(" addresses ");
    if p.addresses.is_empty() {
        line.push('-');
    } else {
        line.push_str(&p.addresses.join(","));
    }
    line
}

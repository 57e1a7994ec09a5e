//! The ledger: the sanctions and the audit log in the store (tables `operators`, `bans`,
//! `marks`, `renames`, `audit`, `logins`; SQLite's and PostgreSQL's alike), read and written
//! on a connection of its own beside the hub's. Every order is one transaction: its rows and
//! its line of the audit log together. The statements are written once for both stores
//! (`$1`-style parameters, numbered in the order they first appear), through [`Tx`].

mod messages;

use std::sync::Arc;

use anyhow::Result;

use super::{AuditRow, Ban, Order, Sanctions};
use crate::ids::{GameId, PlayerId};

/// A value of a row or a parameter: the stores' common types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// Text.
    Text(String),
    /// No value.
    Null,
}

impl Value {
    fn int(&self) -> i64 {
        match self {
            Value::Int(n) => *n,
            _ => 0,
        }
    }

    fn text(&self) -> String {
        match self {
            Value::Text(t) => t.clone(),
            Value::Int(n) => n.to_string(),
            Value::Null => String::new(),
        }
    }

    fn opt_int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            _ => None,
        }
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<PlayerId> for Value {
    fn from(player: PlayerId) -> Value {
        Value::Int(player.0)
    }
}

impl From<&str> for Value {
    fn from(t: &str) -> Value {
        Value::Text(t.to_string())
    }
}

impl From<Option<i64>> for Value {
    fn from(n: Option<i64>) -> Value {
        n.map_or(Value::Null, Value::Int)
    }
}

/// One transaction on a store.
pub trait Tx {
    /// The rows `sql` selects.
    ///
    /// # Errors
    /// A failing store.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>>;

    /// Runs `sql`: the rows it changed.
    ///
    /// # Errors
    /// A failing store.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64>;

    /// Commits it (dropped uncommitted, it is rolled back).
    ///
    /// # Errors
    /// A failing store.
    fn commit(self: Box<Self>) -> Result<()>;
}

/// A store the ledger opens transactions on.
pub trait Store: Send + Sync {
    /// A new transaction, which writes when `write` (it then takes the store's write lock at
    /// once). Blocking: called on a thread that may wait.
    ///
    /// # Errors
    /// A store that cannot be reached.
    fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>>;
}

/// The ledger of one store.
#[derive(Clone)]
pub struct Ledger {
    store: Arc<dyn Store>,
}

/// What the store holds of a player.
struct Named {
    id: i64,
    name: String,
}

/// Who did an order, when it did not come from a player: the host's `quentin serve admin`.
pub const HOST: &str = "host";

/// The placeholder name of a player renamed by an operator, until they pick one: no player
/// can register it (a `.` is not allowed in names).
#[must_use]
pub fn placeholder(player: PlayerId) -> String {
    format!("renamed.{player}")
}

impl Ledger {
    /// The ledger on `store`.
    pub fn new(store: Arc<dyn Store>) -> Ledger {
        Ledger { store }
    }

    /// Carries out `order` of `by` at `now` in the store: its answer (`Ok`: the lines after
    /// `=`, `Err`: the reason after `?`). Blocking.
    ///
    /// # Errors
    /// A failing store: nothing of the order is kept.
    pub fn order_now(&self, by: &str, order: &Order, now: i64) -> Result<Result<String, String>> {
        let mut tx = self.store.begin(true)?;
        let answer = run(tx.as_mut(), by, order, now)?;
        if answer.is_ok() {
            tx.commit()?;
        }
        Ok(answer)
    }

    /// [`Ledger::order_now`] on a thread that may wait.
    ///
    /// # Errors
    /// A failing store.
    pub async fn order(&self, by: &str, order: &Order, now: i64) -> Result<Result<String, String>> {
        let (me, by, order) = (self.clone(), by.to_string(), order.clone());
        tokio::task::spawn_blocking(move || me.order_now(&by, &order, now)).await?
    }

    /// The sanctions in force and the last row of the audit log. Blocking.
    ///
    /// # Errors
    /// A failing store.
    pub fn sanctions_now(&self) -> Result<Sanctions> {
        let mut tx = self.store.begin(false)?;
        let tx = tx.as_mut();
        let mut s = Sanctions::default();
        for row in tx.query("SELECT player, reason, ends FROM bans", &[])? {
            s.bans.insert(
                PlayerId(row[0].int()),
                Ban {
                    reason: row[1].text(),
                    until: row[2].opt_int(),
                },
            );
        }
        s.marked = ids(tx, "SELECT player FROM marks")?;
        s.renamed = ids(tx, "SELECT player FROM renames")?;
        s.operators = ids(tx, "SELECT player FROM operators")?;
        s.aborts = tx
            .query("SELECT whom FROM audit WHERE what = 'abort'", &[])?
            .iter()
            .filter_map(|r| r[0].text().strip_prefix("game ")?.parse().ok().map(GameId))
            .collect();
        s.cancels = tx
            .query("SELECT whom FROM audit WHERE what = 'cancel'", &[])?
            .iter()
            .filter_map(|r| r[0].text().strip_prefix("tournament t")?.parse().ok())
            .collect();
        s.last = tx
            .query("SELECT COALESCE(MAX(id), 0) FROM audit", &[])?
            .first()
            .map_or(0, |r| r[0].int());
        Ok(s)
    }

    /// [`Ledger::sanctions_now`] on a thread that may wait.
    ///
    /// # Errors
    /// A failing store.
    pub async fn sanctions(&self) -> Result<Sanctions> {
        let me = self.clone();
        tokio::task::spawn_blocking(move || me.sanctions_now()).await?
    }

    /// The rows of the audit log after number `last`, in order. Blocking.
    ///
    /// # Errors
    /// A failing store.
    pub fn since_now(&self, last: i64) -> Result<Vec<AuditRow>> {
        let mut tx = self.store.begin(false)?;
        audit_rows(
            tx.as_mut(),
            "SELECT id, at, who, what, whom, why FROM audit WHERE id > $1 ORDER BY id",
            &[last.into()],
        )
    }

    /// [`Ledger::since_now`] on a thread that may wait.
    ///
    /// # Errors
    /// A failing store.
    pub async fn since(&self, last: i64) -> Result<Vec<AuditRow>> {
        let me = self.clone();
        tokio::task::spawn_blocking(move || me.since_now(last)).await?
    }

    /// Keeps a login of `key` from `address` at `at`, for `players`.
    ///
    /// # Errors
    /// A failing store.
    pub async fn login(&self, key: &str, address: &str, at: i64) -> Result<()> {
        let (me, key, address) = (self.clone(), key.to_string(), address.to_string());
        tokio::task::spawn_blocking(move || {
            let mut tx = me.store.begin(true)?;
            tx.execute(
                "INSERT INTO logins(key, address, at) VALUES ($1, $2, $3)",
                &[key.as_str().into(), address.as_str().into(), at.into()],
            )?;
            tx.commit()
        })
        .await?
    }

    /// `player`, renamed by an operator, picks `name`: kept, and said in the audit log.
    ///
    /// # Errors
    /// A failing store; inside, a name taken (the refusal's words).
    pub async fn pick_name(
        &self,
        player: PlayerId,
        name: &str,
        now: i64,
    ) -> Result<Result<(), String>> {
        let (me, name) = (self.clone(), name.to_string());
        tokio::task::spawn_blocking(move || {
            let mut tx = me.store.begin(true)?;
            let taken = tx.query(
                "SELECT id FROM players WHERE lower(name) = lower($1)",
                &[name.as_str().into()],
            )?;
            if !taken.is_empty() {
                return Ok(Err("name taken".to_string()));
            }
            let old = tx
                .query(
                    "SELECT old FROM renames WHERE player = $1",
                    &[player.into()],
                )?
                .first()
                .map_or_else(|| placeholder(player), |r| r[0].text());
            tx.execute(
                "UPDATE players SET name = $1 WHERE id = $2",
                &[name.as_str().into(), player.into()],
            )?;
            tx.execute("DELETE FROM renames WHERE player = $1", &[player.into()])?;
            audit(
                tx.as_mut(),
                now,
                &name,
                "new-name",
                &placeholder(player),
                &format!("was {old}"),
            )?;
            tx.commit()?;
            Ok(Ok(()))
        })
        .await?
    }
}

fn ids(tx: &mut dyn Tx, sql: &str) -> Result<std::collections::HashSet<PlayerId>> {
    Ok(tx
        .query(sql, &[])?
        .iter()
        .map(|r| PlayerId(r[0].int()))
        .collect())
}

fn audit_rows(tx: &mut dyn Tx, sql: &str, params: &[Value]) -> Result<Vec<AuditRow>> {
    Ok(tx
        .query(sql, params)?
        .iter()
        .map(|r| AuditRow {
            id: r[0].int(),
            at: r[1].int(),
            who: r[2].text(),
            what: r[3].text(),
            whom: r[4].text(),
            why: r[5].text(),
        })
        .collect())
}

/// Writes a row of the audit log.
fn audit(tx: &mut dyn Tx, at: i64, who: &str, what: &str, whom: &str, why: &str) -> Result<()> {
    tx.execute(
        "INSERT INTO audit(at, who, what, whom, why) VALUES ($1, $2, $3, $4, $5)",
        &[at.into(), who.into(), what.into(), whom.into(), why.into()],
    )?;
    Ok(())
}

/// The player named `name` (in any case), or why not.
fn player(tx: &mut dyn Tx, name: &str) -> Result<Result<Named, String>> {
    let rows = tx.query(
        "SELECT id, name FROM players WHERE lower(name) = lower($1)",
        &[name.into()],
    )?;
    Ok(match rows.first() {
        Some(r) => Ok(Named {
            id: r[0].int(),
            name: r[1].text(),
        }),
        None => Err(format!(
            "no player named {}",
            super::super::spec::shown(name)
        )),
    })
}

/// Carries out `order` in `tx`.
fn run(tx: &mut dyn Tx, by: &str, order: &Order, now: i64) -> Result<Result<String, String>> {
    let what = order.word();
    // Deletes `player`'s row of `table`; a refusal when there was none.
    let lift =
        |tx: &mut dyn Tx, table: &str, name: &str, none: &str| -> Result<Result<String, String>> {
            let p = match player(tx, name)? {
                Ok(p) => p,
                Err(why) => return Ok(Err(why)),
            };
            if tx.execute(
                &format!("DELETE FROM {table} WHERE player = $1"),
                &[p.id.into()],
            )? == 0
            {
                return Ok(Err(format!("{} {none}", p.name)));
            }
            audit(tx, now, by, what, &p.name, "")?;
            Ok(Ok(String::new()))
        };
    // Puts `player` in `table`.
    let put = |tx: &mut dyn Tx, table: &str, name: &str| -> Result<Result<String, String>> {
        let p = match player(tx, name)? {
            Ok(p) => p,
            Err(why) => return Ok(Err(why)),
        };
        tx.execute(
            &format!("DELETE FROM {table} WHERE player = $1"),
            &[p.id.into()],
        )?;
        tx.execute(
            &format!("INSERT INTO {table}(player, at) VALUES ($1, $2)"),
            &[p.id.into(), now.into()],
        )?;
        audit(tx, now, by, what, &p.name, "")?;
        Ok(Ok(String::new()))
    };
    Ok(match order {
        Order::Ban {
            name,
            until,
            reason,
        } => {
            let p = match player(tx, name)? {
                Ok(p) => p,
                Err(why) => return Ok(Err(why)),
            };
            tx.execute("DELETE FROM bans WHERE player = $1", &[p.id.into()])?;
            tx.execute(
                "INSERT INTO bans(player, reason, ends, at) VALUES ($1, $2, $3, $4)",
                &[
                    p.id.into(),
                    reason.as_str().into(),
                    (*until).into(),
                    now.into(),
                ],
            )?;
            // Their open challenges go (the processes drop them from memory on reading this).
            tx.execute(
                "UPDATE challenges SET open = FALSE WHERE \"by\" = $1 AND open = TRUE",
                &[p.id.into()],
            )?;
            let why = match until {
                Some(until) => format!("{reason} (until {})", super::date(*until)),
                None => reason.clone(),
            };
            audit(tx, now, by, what, &p.name, &why)?;
            Ok(String::new())
        }
        Order::Unban(name) => return lift(tx, "bans", name, "is not banned"),
        Order::Mark(name) => return put(tx, "marks", name),
        Order::Unmark(name) => return lift(tx, "marks", name, "is not marked"),
        Order::Op(name) => return put(tx, "operators", name),
        Order::Deop(name) => return lift(tx, "operators", name, "is not an operator"),
        Order::Rename(name) => {
            let p = match player(tx, name)? {
                Ok(p) => p,
                Err(why) => return Ok(Err(why)),
            };
            let new = placeholder(PlayerId(p.id));
            if p.name == new {
                return Ok(Err(format!("{} has a new name to pick already", p.name)));
            }
            tx.execute(
                "UPDATE players SET name = $1 WHERE id = $2",
                &[new.as_str().into(), p.id.into()],
            )?;
            tx.execute("DELETE FROM renames WHERE player = $1", &[p.id.into()])?;
            tx.execute(
                "INSERT INTO renames(player, old, at) VALUES ($1, $2, $3)",
                &[p.id.into(), p.name.as_str().into(), now.into()],
            )?;
            audit(
                tx,
                now,
                by,
                what,
                &p.name,
                &format!("{new} until a new name is picked"),
            )?;
            Ok(new)
        }
        Order::Abort(id) => {
            let rows = tx.query("SELECT result FROM games WHERE id = $1", &[id.0.into()])?;
            match rows.first() {
                None => Err("no such game".to_string()),
                Some(r) if r[0] != Value::Null => Err("the game is over".to_string()),
                Some(_) => {
                    audit(tx, now, by, what, &format!("game {id}"), "")?;
                    Ok(String::new())
                }
            }
        }
        Order::CancelTournament(id) => {
            let rows = tx.query(
                "SELECT status FROM tournaments WHERE id = $1",
                &[(*id).into()],
            )?;
            let shown = super::super::tournament::TournamentId(*id);
            match rows.first().map(|r| r[0].text()) {
                None => Err(format!("no tournament {shown}")),
                Some(status) if status != "open" && status != "running" => {
                    Err(format!("tournament {shown} is {status}"))
                }
                Some(_) => {
                    audit(tx, now, by, what, &format!("tournament {shown}"), "")?;
                    Ok(String::new())
                }
            }
        }
        Order::Close(id) => {
            if tx.execute(
                "UPDATE challenges SET open = FALSE WHERE id = $1 AND open = TRUE",
                &[id.0.into()],
            )? == 0
            {
                Err("no such challenge".to_string())
            } else {
                audit(tx, now, by, what, &format!("challenge {id}"), "")?;
                Ok(String::new())
            }
        }
        Order::Reset(name) => {
            let p = match player(tx, name)? {
                Ok(p) => p,
                Err(why) => return Ok(Err(why)),
            };
            tx.execute("DELETE FROM ratings WHERE player = $1", &[p.id.into()])?;
            audit(tx, now, by, what, &p.name, "")?;
            Ok(String::new())
        }
        Order::Players(name) => players(tx, name.as_deref(), now)?,
        Order::Log => Ok(audit_rows(
            tx,
            "SELECT id, at, who, what, whom, why FROM
                 (SELECT id, at, who, what, whom, why FROM audit ORDER BY id DESC LIMIT 200) AS last
             ORDER BY id",
            &[],
        )?
        .iter()
        .map(AuditRow::line)
        .collect::<Vec<_>>()
        .join("\n")),
    })
}

/// The most players `players` lists.
const MOST_LISTED: i64 = 200;

/// `players [NAME]`: a line a player (the newest first), with their key, their games and
/// aborts, their standing and the addresses of their latest logins; for one player, a line
/// more with the others who logged in from those addresses (a second key of one person?).
fn players(tx: &mut dyn Tx, name: Option<&str>, now: i64) -> Result<Result<String, String>> {
    let rows = match name {
        Some(name) => match player(tx, name)? {
            Ok(p) => tx.query(
                "SELECT id, name, key FROM players WHERE id = $1",
                &[p.id.into()],
            )?,
            Err(why) => return Ok(Err(why)),
        },
        None => tx.query(
            "SELECT id, name, key FROM players ORDER BY id DESC LIMIT $1",
            &[MOST_LISTED.into()],
        )?,
    };
    let mut lines = Vec::new();
    for row in &rows {
        let (id, who, key) = (row[0].int(), row[1].text(), row[2].text());
        let (line, addresses) = player_line(tx, id, &who, &key, now)?;
        lines.push(line);
        if name.is_some() {
            let mut others = Vec::new();
            for address in &addresses {
                for r in tx.query(
                    "SELECT DISTINCT p.name FROM logins l JOIN players p ON p.key = l.key
                     WHERE l.address = $1 AND p.id <> $2 ORDER BY p.name",
                    &[address.as_str().into(), id.into()],
                )? {
                    let other = r[0].text();
                    if !others.contains(&other) {
                        others.push(other);
                    }
                }
            }
            if !others.is_empty() {
                lines.push(format!("same addresses: {}", others.join(" ")));
            }
        }
    }
    Ok(Ok(lines.join("\n")))
}

/// One player's line of `players`, and the addresses of their latest logins.
fn player_line(
    tx: &mut dyn Tx,
    id: i64,
    name: &str,
    key: &str,
    now: i64,
) -> Result<(String, Vec<String>)> {
    let mut count = |sql: &str| -> Result<i64> {
        Ok(tx
            .query(sql, &[id.into()])?
            .first()
            .map_or(0, |r| r[0].int()))
    };
    let games = count("SELECT COUNT(*) FROM games WHERE player1 = $1 OR player2 = $1")?;
    let aborts = count(
        "SELECT COUNT(*) FROM games WHERE (player1 = $1 OR player2 = $1) AND result = 'aborted'",
    )?;
    let mut line = format!("{name} key {key} games {games} aborts {aborts}");
    for (table, word) in [
        ("operators", "operator"),
        ("marks", "marked"),
        ("renames", "renamed"),
    ] {
        let sql = format!("SELECT player FROM {table} WHERE player = $1");
        if !tx.query(&sql, &[id.into()])?.is_empty() {
            line.push(' ');
            line.push_str(word);
        }
    }
    if let Some(r) = tx
        .query(
            "SELECT reason, ends FROM bans WHERE player = $1",
            &[id.into()],
        )?
        .first()
    {
        let until = r[1].opt_int();
        if until.is_none_or(|u| now < u) {
            line.push_str(" banned");
            if let Some(until) = until {
                line.push_str(&format!(" until {}", super::date(until)));
            }
        }
    }
    let addresses: Vec<String> = tx
        .query(
            "SELECT address, MAX(at) AS last FROM logins WHERE key = $1
             GROUP BY address ORDER BY last DESC LIMIT 5",
            &[key.into()],
        )?
        .iter()
        .map(|r| r[0].text())
        .collect();
    line.push_str(" addresses ");
    if addresses.is_empty() {
        line.push('-');
    } else {
        line.push_str(&addresses.join(","));
    }
    Ok((line, addresses))
}

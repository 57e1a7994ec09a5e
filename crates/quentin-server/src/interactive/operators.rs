//! The operators' screen of the lobby (`o`, for operators only): the list of players (or the
//! audit log, or what the last order answered) above a command line that takes the orders in
//! the bot protocol's words: `ban alice until 2030-01-01 rude words`, `rename alice`, `reset
//! alice`, `mark alice`, `players alice`, `log`... Esc goes back to the lobby.

use quentin_app::input::{Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::super::Context;
use super::super::bot::Who;
use super::super::channel::Inbox;
use super::super::moderation::session;
use super::{Next, Screen, quit_key};

/// The longest command line typed.
const MAX_LINE: usize = 200;

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
    let mut line = String::new();
    // What the list shows: the players, until an order answers something else.
    let mut shown = answer(ctx, who, "players").await;
    let mut said = String::new();
    loop {
        let (title, list, prompt) = (
            "Operators: type an order, Enter to give it, Esc for the lobby",
            shown.clone(),
            format!("> {line}_"),
        );
        let said_now = said.clone();
        let drawn = screen
            .draw(|area, buf| {
                // The command line and the last answer on the last two rows; the rest above.
                let low = area.height.min(2);
                let top = Rect {
                    height: area.height - low,
                    ..area
                };
                let bottom = Rect {
                    y: area.y + top.height,
                    height: low,
                    ..area
                };
                let mut lines = vec![Line::from(title), Line::from(USAGE), Line::default()];
                lines.extend(list.lines().map(|l| Line::from(l.to_string())));
                Paragraph::new(lines)
                    .wrap(Wrap { trim: false })
                    .render(top, buf);
                Paragraph::new(vec![Line::from(said_now), Line::from(prompt)]).render(bottom, buf);
            })
            .await;
        if !drawn {
            return Next::Quit;
        }
        let Some(events) = screen.events(input.recv().await).await else {
            return Next::Quit;
        };
        for event in events {
            let Event::Key(k) = event else { continue };
            if k.kind != KeyEventKind::Press {
                continue;
            }
            match k.code {
                _ if quit_key(&event) => return Next::Quit,
                KeyCode::Esc => return Next::Lobby,
                KeyCode::Enter if !line.trim().is_empty() => {
                    let given = std::mem::take(&mut line);
                    let words: Vec<&str> = given.split_whitespace().collect();
                    let result = session::order(ctx, who, &words).await;
                    match (words[0], result) {
                        // A list asked for: shown in the list's place.
                        ("players" | "log", Ok(text)) => {
                            said = format!("= {given}");
                            shown = text;
                        }
                        (_, Ok(text)) => {
                            said = format!("= {given}{}", with(&text));
                            shown = answer(ctx, who, "players").await;
                        }
                        (_, Err(why)) => said = format!("? {why}"),
                    }
                }
                KeyCode::Backspace => {
                    line.pop();
                }
                KeyCode::Char(_)
                    if k.modifiers.contains(KeyModifiers::CONTROL)
                        || k.modifiers.contains(KeyModifiers::ALT) => {}
                KeyCode::Char(c) if line.len() < MAX_LINE && !c.is_control() => line.push(c),
                _ => {}
            }
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

//! The glue of the screens around the lobby: a notice shown until a key comes, and the pick
//! of a name, which the hub takes or refuses (at the first login with a new key, or after the
//! operators took the player's name away). The screens are the app crate's
//! (`crates/quentin-app/src/screen/notice.rs`, `crates/quentin-app/src/screen/name.rs`).

use std::convert::Infallible;

use quentin_app::screen::name::{NamePick, NoName};
use quentin_app::screen::notice::Notice;

use super::Screen;
use super::driver::{Glue, drive};
use crate::channel::Inbox;
use crate::context::Context;
use crate::ids::PlayerId;
use crate::who::Who;

/// A notice: nothing to fetch, nothing to carry out.
struct Noticed(Notice);

impl Glue for Noticed {
    type Screen = Notice;
    type Done = ();

    fn screen(&mut self) -> &mut Notice {
        &mut self.0
    }

    fn gone(&self) {}

    async fn act(&mut self, ask: Infallible) -> Option<()> {
        match ask {}
    }

    fn left(&mut self, (): ()) {}
}

/// Shows `text` until a key comes (or the client goes).
pub(super) async fn notice(screen: &mut Screen, input: &mut Inbox, text: &str) {
    drive(&mut Noticed(Notice::new(text)), screen, input).await;
}

/// The pick of a name: the name typed goes to the hub.
struct Naming<'a> {
    ctx: &'a Context,
    who: &'a Who,
    /// The player whose name the operators took away, or none for a new key.
    renamed: Option<PlayerId>,
    pick: NamePick,
}

impl Glue for Naming<'_> {
    type Screen = NamePick;
    type Done = Option<(PlayerId, String)>;

    fn screen(&mut self) -> &mut NamePick {
        &mut self.pick
    }

    fn gone(&self) -> Option<(PlayerId, String)> {
        None
    }

    async fn act(&mut self, name: String) -> Option<Option<(PlayerId, String)>> {
        let (ctx, who) = (self.ctx, self.who);
        if let Some(id) = self.renamed {
            return match crate::context::session::pick(ctx, id, &name).await {
                Ok(me) => Some(Some(me)),
                Err(why) => {
                    self.pick.say(format!("{why}: try another."));
                    None
                }
            };
        }
        match ctx.signups.may(who.address) {
            Err(why) => self.pick.say(format!("{why}.")),
            Ok(()) => match ctx.hub.register(&who.key, &name, ctx.clock.now()).await {
                Ok(me) => {
                    ctx.signups.counted(who.address);
                    return Some(Some(me));
                }
                Err(refusal) => self.pick.say(format!("{refusal}: try another.")),
            },
        }
        None
    }

    fn left(&mut self, NoName: NoName) -> Option<(PlayerId, String)> {
        None
    }
}

/// The first login with a new key (or the first after the operators took the player's name
/// away, `renamed`): the player picks a name; `None` when they leave instead.
pub(super) async fn pick_name(
    ctx: &Context,
    who: &Who,
    renamed: Option<PlayerId>,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Option<(PlayerId, String)> {
    let mut glue = Naming {
        ctx,
        who,
        renamed,
        pick: NamePick::new(renamed.is_some()),
    };
    drive(&mut glue, screen, input).await
}

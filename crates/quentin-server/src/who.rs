//! Who a session is, below everything a session does: the bot protocol, the moderation (an
//! operator's orders), the people's screens. The moderation and the bot protocol both take it
//! from here, so neither imports the other for it.

use crate::ids::PlayerId;

/// Who the session is: the key's fingerprint and, once registered, the player.
pub struct Who {
    /// The SSH key's SHA-256 fingerprint.
    pub key: String,
    /// The address it connected from.
    pub address: Option<std::net::IpAddr>,
    /// The player's number and name.
    pub player: Option<(PlayerId, String)>,
}

impl Who {
    /// Who this is, for the host's reports: the player's name, or the key of one unregistered.
    #[must_use]
    pub fn shown(&self) -> String {
        match &self.player {
            Some((_, name)) => name.clone(),
            None => format!("key {}", self.key),
        }
    }
}

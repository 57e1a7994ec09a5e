//! The computer player: everything that chooses actions, and the randomness it needs. It asks
//! the rules ([`crate::rules`]) what is legal and what an action does, and decides nothing of
//! the rules itself.

pub mod playout;

//! `quentin serve`: the game server that any SSH client reaches. Two people at different places
//! play live or one move a day, others watch, programs play through a line protocol.
//!
//! - [`spec`]: what a challenge asks for.
//! - [`store`]: the SQLite file every move is committed to before anyone hears of it.
//! - [`hub`]: players, challenges and games, behind one lock; the rules decide every move.

pub mod hub;
pub mod spec;
pub mod store;

//! What a challenge asks for, from the record crate (`quentin-record`), where the app's
//! challenge form builds it too: the server's paths to it unchanged.

pub use quentin_record::spec::{DEFAULT_CLOCK, First, Spec, TimeControl, shown};

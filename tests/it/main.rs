//! The integration tests, as modules of one test program: one link of the whole program instead
//! of one per file (a cold `cargo test --release` built 28 of them). Each module is what was a
//! test file of its own; `cargo test --release --test it tui::` runs one of them.
//!
//! The helpers the modules share: [`common`] (plain reference rules), [`pty`] (the program in a
//! pseudo-terminal), [`scratch`] (temporary directories), [`serve`] (a server and its clients).

mod common;
mod isolated;
mod pty;
mod scratch;
mod serve;

mod brique;
mod cli;
mod differential;
mod docs;
mod engine_cli;
mod game_option;
mod games;
mod gtp;
mod konobi;
mod layout;
mod learn;
mod match_gtp;
mod mistakes_tui;
mod perft;
mod proof_tui;
mod puzzle_modes;
mod puzzle_tui;
mod puzzles;
mod quentin_props;
mod quentin_rules;
mod quint;
mod random_games;
mod record;
mod replay_json;
mod review;
mod review_tui;
mod safety;
mod server_agree;
mod server_backup;
mod server_bot;
mod server_busy;
mod server_cluster;
mod server_cluster_faults;
mod server_cluster_freeze;
mod server_cluster_ops;
mod server_config;
mod server_crash;
mod server_fair;
mod server_faults;
mod server_files;
mod server_flood;
mod server_hooks;
mod server_hostile;
mod server_keys;
mod server_learn;
mod server_limits;
mod server_listings;
mod server_logins;
mod server_metrics;
mod server_metrics_slow;
mod server_moderation;
mod server_online;
mod server_outage;
mod server_play;
mod server_pool;
mod server_private;
mod server_puzzle_farm;
mod server_puzzles;
mod server_rematch_race;
mod server_sanctions;
mod server_store;
mod server_store_batch;
mod server_store_round;
mod server_tournament_acts;
mod server_tournament_race;
mod server_tournament_races;
mod server_tournament_tui;
mod server_tournaments;
mod server_truth;
mod server_web;
mod solve;
mod start_from;
mod tui;
mod typed;
mod versus;

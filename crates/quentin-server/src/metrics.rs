//! What the server counts for its host, in Prometheus's text format (0.0.4): sessions by kind,
//! connections and logins refused by reason, games running and finished, moves, the store's
//! commit time and queue, the relay between processes, the web's requests and live streams. `quentin serve --metrics ADDR:PORT`
//! serves it at `/metrics` (`crates/quentin-server/src/run/scrape.rs`, above the hub whose
//! gauges a scrape reads).
//!
//! The counters are the process's own (one registry a process, as Prometheus expects of a
//! target); the gauges of what the hub holds are set when scraped ([`Metrics::render`]).

use std::sync::LazyLock;

use prometheus::core::Collector;
use prometheus::{
    Encoder as _, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

/// The reasons of `quentin_refused_total`: the gate's ([`super::gate::Refused::label`]), and
/// a key not on a private server's list, a banned player's.
const REFUSALS: [&str; 8] = [
    "startups",
    "address",
    "early-drop",
    "penalty",
    "full",
    "key",
    "private",
    "banned",
];

/// Everything counted.
pub struct Metrics {
    registry: Registry,
    /// Sessions running, by kind: `terminal`, `bot`, `command`.
    pub sessions: IntGaugeVec,
    /// Connections and logins refused, by reason.
    pub refused: IntCounterVec,
    /// Logins let in.
    pub logins: IntCounter,
    /// Moves committed by this process.
    pub moves: IntCounter,
    /// Games that ended, committed by this process.
    pub games_finished: IntCounter,
    /// The time of each of the store's commits (one a batch).
    pub commit_seconds: Histogram,
    /// Changes sent to the store and not yet committed.
    pub store_queue: IntGauge,
    /// How long the news of the other processes waited before this one read it in.
    pub relay_seconds: Histogram,
    /// The web's requests answered (`--web`), by route and status.
    pub web_requests: IntCounterVec,
    /// The web's live streams open (a game's moves as they come).
    pub web_streams: IntGauge,
    games_running: IntGauge,
    players_online: IntGauge,
    connections: IntGauge,
}

/// The process's counters.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

/// `made`, registered in `registry`. Neither can fail: every name and help text is a constant
/// of this file, each name registered once, and `every_metric_is_registered_and_served` below
/// builds them all.
fn registered<M: Collector + Clone + 'static>(
    registry: &Registry,
    made: prometheus::Result<M>,
) -> M {
    let metric = made.expect("a well-formed metric"); // ok: constant names, built by a test
    registry
        .register(Box::new(metric.clone()))
        .expect("each name once"); // ok: each constant name registered once, built by a test
    metric
}

impl Metrics {
    fn new() -> Metrics {
        let registry = Registry::new();
        let counter = |name: &str, help: &str| registered(&registry, IntCounter::new(name, help));
        let gauge = |name: &str, help: &str| registered(&registry, IntGauge::new(name, help));
        let histogram = |name: &str, help: &str, buckets: Vec<f64>| {
            let opts = HistogramOpts::new(name, help).buckets(buckets);
            registered(&registry, Histogram::with_opts(opts))
        };
        let sessions = registered(
            &registry,
            IntGaugeVec::new(
                Opts::new("quentin_sessions", "Sessions running, by kind."),
                &["kind"],
            ),
        );
        let refused = registered(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "quentin_refused_total",
                    "Connections and logins refused, by reason.",
                ),
                &["reason"],
            ),
        );
        // Seen at once for every kind and reason, at 0: a rate of a series that appears
        // with its first event would miss that event.
        for kind in ["terminal", "bot", "command"] {
            sessions.with_label_values(&[kind]);
        }
        for reason in REFUSALS {
            refused.with_label_values(&[reason]);
        }
        let commit = vec![
            0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
        ];
        let relay = vec![0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0];
        let web_requests = registered(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "quentin_web_requests_total",
                    "The web's requests answered, by route and status.",
                ),
                &["route", "status"],
            ),
        );
        Metrics {
            sessions,
            refused,
            web_requests,
            web_streams: gauge(
                "quentin_web_streams",
                "The web's live streams open (a game's moves as they come).",
            ),
            logins: counter("quentin_logins_total", "Logins let in."),
            moves: counter(
                "quentin_moves_total",
                "Moves committed by this process (its rate: moves a second).",
            ),
            games_finished: counter(
                "quentin_games_finished_total",
                "Games that ended, committed by this process.",
            ),
            commit_seconds: histogram(
                "quentin_store_commit_seconds",
                "The time of each of the store's commits (a batch of changes, one sync).",
                commit,
            ),
            store_queue: gauge(
                "quentin_store_queue",
                "Changes sent to the store and not yet committed.",
            ),
            relay_seconds: histogram(
                "quentin_relay_seconds",
                "How long news from the other processes on the database waited before this \
                 process read it in.",
                relay,
            ),
            games_running: gauge("quentin_games_running", "Games under way."),
            players_online: gauge(
                "quentin_players_online",
                "Players with a session on this process.",
            ),
            connections: gauge("quentin_connections", "Connections open on this process."),
            registry,
        }
    }

    /// The text a scrape gets, with the gauges of what the hub holds now: the games running,
    /// the players online on this process and its connections open.
    pub fn render(
        &self,
        games_running: usize,
        players_online: usize,
        connections: usize,
    ) -> String {
        let gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        self.games_running.set(gauge(games_running));
        self.players_online.set(gauge(players_online));
        self.connections.set(gauge(connections));
        let mut text = Vec::new();
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut text);
        String::from_utf8(text).unwrap_or_default()
    }
}

/// Counts a session of `kind` for as long as it is held.
pub struct SessionCount(&'static str);

impl SessionCount {
    /// A session of `kind` begins.
    #[must_use]
    pub fn new(kind: &'static str) -> SessionCount {
        metrics().sessions.with_label_values(&[kind]).inc();
        SessionCount(kind)
    }
}

impl Drop for SessionCount {
    fn drop(&mut self) {
        metrics().sessions.with_label_values(&[self.0]).dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_registered_and_served() {
        let m = Metrics::new();
        let families = m.registry.gather();
        let names: Vec<&str> = families.iter().map(|f| f.name()).collect();
        for name in [
            "quentin_sessions",
            "quentin_refused_total",
            "quentin_logins_total",
            "quentin_moves_total",
            "quentin_games_finished_total",
            "quentin_store_commit_seconds",
            "quentin_store_queue",
            "quentin_relay_seconds",
            "quentin_games_running",
            "quentin_players_online",
            "quentin_connections",
            "quentin_web_streams",
        ] {
            assert!(names.contains(&name), "{name} not in {names:?}");
        }
    }
}

//! Win chances people can trust: the search's raw share of won playouts mapped, per game, onto
//! the share of games actually won from such positions.
//!
//! Random playouts are noisy judges: a position they call 30 % is lost far more often than 70 %
//! of the time, and one they call 70 % won far more often than 70 %; the raw figures rank well
//! but are pulled towards 50 %. [`Calibration`] is Platt scaling: a logistic function of the raw
//! figure's logit, `chance = σ(slope · logit(raw) + offset)`, two numbers per game fitted by
//! [`Calibration::fit`] to the outcomes of self-play (docs/calibration.md has the data, the
//! reliability tables and the Brier scores). It is monotone (the slope is positive), so it
//! never changes which action looks best; the search itself decides on the raw figures only.

use quentin_rules::{Game, Setup};

/// The least and most an unproved chance is ever shown as: only a proof is certain.
pub const BOUND: f64 = 0.01;

/// The raw figure is read within these bounds before its logit is taken (a share of 0 or 1 has
/// none).
const RAW_BOUND: f64 = 1e-3;

/// The smallest slope a fit may give: the mapping stays increasing whatever the data.
const MIN_SLOPE: f64 = 0.05;

/// A monotone mapping from the search's raw win share to a calibrated win chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// How much the raw figure's logit is stretched: above 1, away from 50 %.
    pub slope: f64,
    /// What is added to the stretched logit: above 0, towards the side to move.
    pub offset: f64,
}

impl Calibration {
    /// The mapping that changes nothing but the bounds ([`BOUND`]).
    pub const IDENTITY: Calibration = Calibration {
        slope: 1.0,
        offset: 0.0,
    };

    /// The fitted mapping of a game. The fit was made on 9×9 boards for the connection games and
    /// with 15 pieces for Quint (docs/calibration.md); other sizes use the same numbers.
    #[must_use]
    pub fn of(setup: Setup) -> Calibration {
        // Fitted on all the self-play positions of docs/calibration.md. Quint keeps its raw
        // figures: its fit, judged on held-out games, made them worse on one half (0.238 to
        // 0.277) by more than it made them better on the other (0.191 to 0.183).
        let (slope, offset) = match setup.game {
            Game::Quentin => (2.710, -0.243),
            Game::Konobi => (1.554, -0.081),
            Game::Brique => (2.257, -0.184),
            Game::Quint => (1.0, 0.0),
        };
        Calibration { slope, offset }
    }

    /// The calibrated chance of a raw win share, within [`BOUND`] and `1 - BOUND`.
    #[must_use]
    pub fn chance(self, raw: f64) -> f64 {
        let z = self.slope * logit(raw.clamp(RAW_BOUND, 1.0 - RAW_BOUND)) + self.offset;
        sigmoid(z).clamp(BOUND, 1.0 - BOUND)
    }

    /// The mapping that best predicts `samples`, each a raw win share and the outcome for the
    /// side to move (1 won, 0 lost, ½ drawn): the least log loss, by Newton's method from the
    /// identity, with a pull towards the identity worth one sample ([`PRIOR`]) so that data that
    /// cannot tell the two numbers apart (all raw figures alike) still gives an answer. With no
    /// samples, the identity. The slope is never below a small positive floor (the offset is
    /// then fitted alone), so that the mapping stays increasing whatever the data.
    #[must_use]
    pub fn fit(samples: &[(f64, f64)]) -> Calibration {
        let points: Vec<(f64, f64)> = samples
            .iter()
            .map(|&(raw, y)| {
                (
                    logit(raw.clamp(RAW_BOUND, 1.0 - RAW_BOUND)),
                    y.clamp(0.0, 1.0),
                )
            })
            .collect();
        if points.is_empty() {
            return Calibration::IDENTITY;
        }
        let free = newton(&points, None);
        let fitted = if free.slope >= MIN_SLOPE {
            free
        } else {
            newton(&points, Some(MIN_SLOPE))
        };
        if fitted.slope.is_finite() && fitted.offset.is_finite() {
            fitted
        } else {
            Calibration::IDENTITY
        }
    }
}

/// The weight of the pull towards the identity in a fit, in samples.
const PRIOR: f64 = 1.0;

/// The least penalised log loss of `points` (each the logit of a raw figure and an outcome) by
/// Newton's method from the identity, the slope fixed when `slope` is given.
fn newton(points: &[(f64, f64)], slope: Option<f64>) -> Calibration {
    let loss = |a: f64, b: f64| -> f64 {
        let data: f64 = points
            .iter()
            .map(|&(x, y)| {
                let z = a * x + b;
                // −log σ(z) = log(1 + e^−z), computed without overflow.
                y * softplus(-z) + (1.0 - y) * softplus(z)
            })
            .sum();
        data + 0.5 * PRIOR * ((a - 1.0).powi(2) + b * b)
    };
    let (mut a, mut b) = (slope.unwrap_or(1.0), 0.0);
    let mut current = loss(a, b);
    for _ in 0..100 {
        let (mut ga, mut gb) = (PRIOR * (a - 1.0), PRIOR * b);
        let (mut haa, mut hab, mut hbb) = (PRIOR, 0.0, PRIOR);
        for &(x, y) in points {
            let p = sigmoid(a * x + b);
            let w = p * (1.0 - p);
            ga += (p - y) * x;
            gb += p - y;
            haa += w * x * x;
            hab += w * x;
            hbb += w;
        }
        let (da, db) = if slope.is_some() {
            (0.0, gb / hbb)
        } else {
            let det = haa * hbb - hab * hab;
            if det <= 0.0 || !det.is_finite() {
                break;
            }
            ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det)
        };
        // Halve the step until the loss does not rise.
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-6 {
            let (na, nb) = (a - t * da, b - t * db);
            let next = loss(na, nb);
            if next.is_finite() && next <= current {
                improved = current - next > 1e-12 * current.max(1.0);
                (a, b, current) = (na, nb, next);
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    Calibration {
        slope: a,
        offset: b,
    }
}

/// The log-odds of a probability strictly between 0 and 1.
fn logit(p: f64) -> f64 {
    (p / (1.0 - p)).ln()
}

/// The logistic function, the inverse of [`logit`].
fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// `ln(1 + e^z)` without overflow.
fn softplus(z: f64) -> f64 {
    if z > 30.0 { z } else { z.exp().ln_1p() }
}

#[cfg(test)]
mod tests;

//! Reviews of finished games on the server: the app's review (`v` after a game) run by the
//! server, a few at a time. The host bounds how many run at once (`--review-threads`, one
//! search thread each; 0 turns reviews off), and a player has at most one running: the others
//! wait their turn, the screen saying so, and nothing else on the server waits for them.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::ids::PlayerId;
use quentin_app::app::{App, Input as AppInput};
use quentin_app::search_handle::{SearchHandle, SearchNews, SearchOrder};
use quentin_app::searching::Searching;

/// The server's review slots.
pub struct Reviews {
    slots: Arc<Semaphore>,
    /// The players with a review running.
    running: Arc<Mutex<HashSet<PlayerId>>>,
    /// How many reviews may run at once (0: none).
    threads: usize,
}

/// Why no slot was had now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// The player has a review running in another session.
    Yours,
    /// Every slot is taken.
    Full,
}

/// A review slot held: given back when dropped.
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    player: PlayerId,
    running: Arc<Mutex<HashSet<PlayerId>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        lock(&self.running).remove(&self.player);
    }
}

fn lock(set: &Mutex<HashSet<PlayerId>>) -> std::sync::MutexGuard<'_, HashSet<PlayerId>> {
    set.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Reviews {
    /// `threads` reviews at once at the most; 0 turns them off.
    #[must_use]
    pub fn new(threads: usize) -> Reviews {
        Reviews {
            slots: Arc::new(Semaphore::new(threads)),
            running: Arc::default(),
            threads,
        }
    }

    /// Whether the server runs reviews at all.
    #[must_use]
    pub fn on(&self) -> bool {
        self.threads > 0
    }

    /// A slot for `player`'s review, if one is free and the player has none running.
    ///
    /// # Errors
    /// The player's own review runs elsewhere, or every slot is taken.
    pub fn take(&self, player: PlayerId) -> Result<Slot, Busy> {
        let mut running = lock(&self.running);
        if running.contains(&player) {
            return Err(Busy::Yours);
        }
        let permit = self
            .slots
            .clone()
            .try_acquire_owned()
            .map_err(|_| Busy::Full)?;
        running.insert(player);
        Ok(Slot {
            _permit: permit,
            player,
            running: self.running.clone(),
        })
    }
}

/// One game screen's review: its search, once it has a slot, and the order that waits for one.
#[derive(Default)]
pub struct Reviewer {
    search: Option<Searching>,
    slot: Option<Slot>,
    waiting: Option<SearchOrder>,
    /// What the player was last told of the wait, not to say it again at every tick.
    told: Option<Busy>,
}

impl Reviewer {
    /// Carries out the app's order: a review's search starts when a slot is had, else waits
    /// for one; a stop stops it.
    pub fn obey(&mut self, reviews: &Reviews, player: PlayerId, order: SearchOrder, app: &mut App) {
        match order {
            SearchOrder::Review(..) => {
                self.waiting = Some(order);
                self.start(reviews, player, app);
            }
            SearchOrder::Stop => {
                self.waiting = None;
                if let Some(search) = &mut self.search {
                    search.stop();
                }
            }
            // The online app asks for no other search: hints and the analysis are refused
            // in an online game (`App::online_key`), and no computer plays in it.
            SearchOrder::Start(..) => {}
        }
    }

    /// Starts the order that waits, once a slot is had.
    fn start(&mut self, reviews: &Reviews, player: PlayerId, app: &mut App) {
        let Some(order) = self.waiting.take() else {
            return;
        };
        if self.slot.is_none() {
            match reviews.take(player) {
                Ok(slot) => self.slot = Some(slot),
                Err(busy) => {
                    if self.told != Some(busy) {
                        app.info(match busy {
                            Busy::Yours => {
                                "Your other session has a review running: this one waits for it."
                            }
                            Busy::Full => {
                                "The server's reviews are all busy: yours starts when one ends."
                            }
                        });
                        self.told = Some(busy);
                    }
                    self.waiting = Some(order);
                    return;
                }
            }
        }
        self.told = None;
        // One thread each: the host's bound is the number of threads reviews use.
        let search: &mut dyn SearchHandle = self.search.get_or_insert_with(|| Searching::new(1));
        search.obey(vec![order]);
    }

    /// Whether a review runs or waits for a slot: its screen is then drawn on a beat, for the
    /// search's news.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.search.is_some() || self.waiting.is_some()
    }

    /// The input of the review's news for the app, when the server runs reviews (with no
    /// search yet, empty news: the app asks for its review's searches on news, as the
    /// terminal's loop gives it every turn); the slot is given back once the app's review is
    /// done. A waiting order is tried again.
    pub fn news(&mut self, reviews: &Reviews, player: PlayerId, app: &mut App) -> Option<AppInput> {
        if !reviews.on() {
            return None;
        }
        if self.waiting.is_some() {
            self.start(reviews, player, app);
        }
        let Some(search) = self.search.as_mut() else {
            return Some(AppInput::Search(SearchNews::default()));
        };
        let search: &mut dyn SearchHandle = search;
        let news = search.news();
        if news.done && app.review_progress().is_none() && self.waiting.is_none() {
            self.slot = None;
        }
        Some(AppInput::Search(news))
    }
}

//! The rules text: what the program tells players about each game, its rules in short and the
//! marks on its board. One text serves both the help overlay of the interface and `quentin
//! rules`, so that the two never disagree; the full rules, with worked examples, are in
//! `docs/rules.md`.

use crate::rules::Game;
use crate::wrap::wrap;

/// One game's short rules and board marks.
#[derive(Debug)]
pub struct Guide {
    /// The game.
    pub game: Game,
    /// Who designed it and when.
    pub credit: &'static str,
    /// The rules, one paragraph each, in the order a newcomer needs them.
    pub rules: &'static [&'static str],
    /// Every mark its board shows.
    pub marks: &'static [Mark],
}

/// A mark on the board and what it means.
#[derive(Debug)]
pub struct Mark {
    /// How it looks with Unicode glyphs (and colours).
    pub unicode: &'static str,
    /// How it looks with Unicode glyphs without colours (`NO_COLOR`), when that differs.
    pub plain: Option<&'static str>,
    /// How it looks with `--ascii`.
    pub ascii: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

/// A mark that looks like `unicode` (or `ascii` with `--ascii`) and means `meaning`.
const fn mark(unicode: &'static str, ascii: &'static str, meaning: &'static str) -> Mark {
    Mark {
        unicode,
        plain: None,
        ascii,
        meaning,
    }
}

impl Mark {
    /// The mark as drawn with ASCII only or Unicode, with colours or without.
    #[must_use]
    pub fn glyph(&self, ascii: bool, colour: bool) -> &'static str {
        match (ascii, colour, self.plain) {
            (true, _, _) => self.ascii,
            (false, false, Some(plain)) => plain,
            _ => self.unicode,
        }
    }

    /// Every way the mark is drawn with Unicode or, when `ascii`, with ASCII only: for
    /// `quentin rules`, which draws no board.
    #[must_use]
    pub fn glyphs(&self, ascii: bool) -> String {
        match (ascii, self.plain) {
            (false, Some(plain)) => format!("{}  {plain}", self.unicode),
            _ => self.glyph(ascii, true).to_string(),
        }
    }
}

/// The rules the three connection games share, said once for each of them.
const GOAL: &str = "Black and White take turns placing one stone on an empty point; Black \
                    moves first. Black wins by joining the top and bottom edges with a chain of \
                    black stones, White by joining the left and right edges.";
const PIE: &str = "Pie rule (unless --no-pie): on its first turn White may swap instead of \
                   placing (key s). The players exchange colours: the one who moved second now \
                   owns the black stone, and the one who moved first plays White and moves \
                   next.";
const PASS: &str = "A player with no legal placement passes (the program plays it). There are \
                    no draws: a full board always holds a winning chain.";

const STONES: Mark = mark(
    "●  ○",
    "X  O",
    "a black stone, a white one (with colours, a light disc)",
);
const LAST: Mark = mark(
    "◉  ◎",
    "X  O underlined",
    "the last stone placed (with colours, a ringed disc)",
);
const CURSOR: Mark = mark(
    "[ ]",
    "[ ]",
    "the cursor; the panel says what playing there would do",
);
const ILLEGAL: Mark = mark(
    "×",
    "!",
    "under the cursor: the side to move may not play there (the panel says why)",
);
const EDGES: Mark = Mark {
    unicode: "▄ ▐",
    plain: Some("━ ║"),
    ascii: "=  |",
    meaning: "edge bars: Black's along the top and bottom, White's along the left and right",
};
const CHAIN: Mark = mark(
    "highlighted",
    "highlighted",
    "the winning chain, once the game is won",
);

const QUENTIN: Guide = Guide {
    game: Game::Quentin,
    credit: "Luis Bolaños Mures, 2012",
    rules: &[
        GOAL,
        "Chains run side by side (orthogonally), never corner to corner.",
        "Territories fill. After a placement, every region of empty points (joined side by side) \
         in which each point touches at least two stones is a territory. It is filled with the \
         colour that has more distinct stones touching it; a tie fills it with the colour of the \
         player who did not move.",
        "Diagonals need support. At the end of a turn, any two stones of one colour that touch \
         only corner to corner must share a neighbour of their colour (one of the other two \
         points of their 2×2 square). A placement that would leave such a pair anywhere on the \
         board, after the fills and of either colour, is illegal.",
        "A fill can complete the opponent's chain: then the opponent wins.",
        PIE,
        PASS,
    ],
    marks: &[
        STONES,
        LAST,
        CURSOR,
        mark(
            "•  ◦",
            "x  o",
            "the points that playing at the cursor would fill, black or white",
        ),
        ILLEGAL,
        EDGES,
        CHAIN,
    ],
};

const KONOBI: Guide = Guide {
    game: Game::Konobi,
    credit: "Luis Bolaños Mures, 2012",
    rules: &[
        GOAL,
        "Connections. Two stones of one colour side by side are strongly connected. Corner to \
         corner they are weakly connected when neither of the two points they both touch holds \
         their colour. Chains run through both kinds. Nothing is ever filled or removed.",
        "No crosscut. A placement may not complete a 2×2 square holding two black stones on one \
         diagonal and two white stones on the other.",
        "Weak only when forced. A placement that connects weakly to a stone is illegal if an \
         empty point beside that stone would connect to it with no weak connection at all: play \
         that point, or elsewhere. So most diagonal moves next to a lone stone are refused; \
         that is normal in Konobi.",
        PIE,
        PASS,
    ],
    marks: &[
        STONES,
        LAST,
        CURSOR,
        mark(
            "╱  ╲",
            "/  \\",
            "a weak connection between two stones, in their colour",
        ),
        ILLEGAL,
        EDGES,
        CHAIN,
    ],
};

const BRIQUE: Guide = Guide {
    game: Game::Brique,
    credit: "Luis Bolaños Mures, 2012",
    rules: &[
        "Brique is played on the squares of a checkered board whose bottom-left square, a1, is \
         light. Black and White take turns placing one stone on an empty square; Black moves \
         first. Black wins by joining the top and bottom edges with a chain of black stones, \
         White by joining the left and right edges. Chains run side by side.",
        "Escorts. A light square's escorts are the square above it and the square to its left; \
         a dark square's are the square below it and the square to its right. Squares on the \
         edge may have one escort or none.",
        "Fills. After a placement, every square whose two escorts both hold the mover's stones \
         receives a mover's stone too; an enemy stone there is removed first. A fill never \
         causes another fill. Every empty square may be played.",
        PIE,
        PASS,
    ],
    marks: &[
        STONES,
        LAST,
        mark(
            "░░",
            "::",
            "a dark square without colours (blank: a light one); with colours the \
                      squares have their own shades",
        ),
        mark(
            "red",
            "red",
            "the cursor's square (reversed without colours)",
        ),
        mark("+", "+", "an escort of the cursor's square"),
        mark(
            "•  ◦",
            "x  o",
            "a square that playing at the cursor would fill",
        ),
        mark(
            "×",
            "*",
            "an enemy stone that playing at the cursor would remove",
        ),
        EDGES,
        CHAIN,
    ],
};

const QUINT: Guide = Guide {
    game: Game::Quint,
    credit: "M. Winther, 2005",
    rules: &[
        "Quint is played on a board of 8×8 cells. Each player has 20 pieces in hand (15 or 25 \
         with --pieces); White moves first. There is no pie rule.",
        "Drops. The players take turns dropping one of their pieces on any empty cell until both \
         hands are empty. A drop never captures.",
        "Steps. Then each turn moves one of one's own pieces one cell up, down, left or right, \
         to an empty cell.",
        "Captures. After a step, each enemy piece beside the moved piece that has one of the \
         mover's pieces directly beyond it, on the same line, may be taken. Taking is optional: \
         the mover takes any of them, or none. A piece that steps in between two enemies is \
         safe.",
        "Winning. Exactly five of one's pieces in an unbroken row or column wins; six or more do \
         not count. After every turn, drops included, the mover wins with such a five, else the \
         opponent does (a capture can cut a six down to five). A player also wins when the \
         opponent, in the step phase, has no piece left or no legal step.",
        "Draw. The third time the same position occurs (board, pieces in hand, side to move), \
         the game is drawn.",
    ],
    marks: &[
        mark("○  ●", "O  X", "a white piece, a black piece"),
        mark("◎  ◉", "O  X underlined", "the last piece dropped or moved"),
        mark("[ ]", "[ ]", "the cursor"),
        mark(">○<", ">O<", "the piece selected to step"),
        mark("·", ".", "a cell the selected piece can step to"),
        mark(
            "×",
            "*",
            "a piece the step takes (every capturable piece, until spared)",
        ),
        mark("(●)", "(X)", "a capturable piece the step spares"),
        mark(
            "◌",
            "~",
            "faint: where the last step came from, and each piece it took",
        ),
        mark("highlighted", "highlighted", "the winning five"),
    ],
};

/// The guide of `game`.
#[must_use]
pub const fn guide(game: Game) -> &'static Guide {
    match game {
        Game::Quentin => &QUENTIN,
        Game::Konobi => &KONOBI,
        Game::Brique => &BRIQUE,
        Game::Quint => &QUINT,
    }
}

/// Width of the column of marks in [`Guide::text`] and in the help overlay.
pub const MARK_WIDTH: usize = 19;

impl Guide {
    /// The heading: `Quentin (Luis Bolaños Mures, 2012)`.
    #[must_use]
    pub fn heading(&self) -> String {
        format!("{} ({})", self.game.title(), self.credit)
    }

    /// The heading and each rule, in ASCII characters only when `ascii` is set.
    #[must_use]
    pub fn paragraphs(&self, ascii: bool) -> (String, Vec<String>) {
        let text = |s: &str| if ascii { to_ascii(s) } else { s.to_string() };
        (
            text(&self.heading()),
            self.rules.iter().map(|r| text(r)).collect(),
        )
    }

    /// The rules and the marks for a terminal `width` columns wide, as `quentin rules` prints
    /// them: the heading, each rule a paragraph behind a dash, then the marks of the board.
    #[must_use]
    pub fn text(&self, width: usize, ascii: bool) -> String {
        let width = width.max(MARK_WIDTH + 20);
        let (heading, rules) = self.paragraphs(ascii);
        let mut out = format!("{heading}\n\n");
        for rule in &rules {
            for (i, line) in wrap(rule, width - 2).into_iter().enumerate() {
                let bullet = if i == 0 { "- " } else { "  " };
                out.push_str(&format!("{bullet}{line}\n"));
            }
        }
        out.push_str("\nOn the board\n");
        for mark in self.marks {
            let glyph = mark.glyphs(ascii);
            let glyph = glyph.as_str();
            for (i, line) in wrap(mark.meaning, width - MARK_WIDTH - 2)
                .into_iter()
                .enumerate()
            {
                let glyph = if i == 0 { glyph } else { "" };
                out.push_str(&format!("  {glyph:<MARK_WIDTH$}{line}\n"));
            }
        }
        out
    }
}

/// `text` with its few non-ASCII characters spelled in ASCII (`2×2` as `2x2`, `ñ` as `n`), for
/// `--ascii`.
#[must_use]
pub fn to_ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '×' => 'x',
            'ñ' => 'n',
            '–' | '—' => '-',
            c if c.is_ascii() => c,
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_guide_and_the_text_keeps_to_the_width() {
        for game in Game::ALL {
            let guide = guide(game);
            assert_eq!(guide.game, game);
            assert!(guide.marks.iter().all(|m| m.ascii.is_ascii()));
            for width in [40, 80, 100] {
                for ascii in [false, true] {
                    let text = guide.text(width, ascii);
                    assert!(text.starts_with(game.title()));
                    for line in text.lines() {
                        assert!(line.chars().count() <= width, "{width}: {line:?}");
                    }
                    if ascii {
                        assert!(text.is_ascii(), "{text}");
                    }
                }
            }
        }
    }
}

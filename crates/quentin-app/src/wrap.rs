//! Text laid out for a terminal: lines broken at spaces to a width counted in the columns a
//! terminal shows (a wide character takes two), by `textwrap`.

/// Breaks `text` into lines of at most `width` columns (as the terminal shows them: a wide
/// character takes two), at spaces where it can; a word longer than the line, such as a path,
/// starts a line of its own and is cut after its last `/` that fits, or else at the width.
#[must_use]
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    use textwrap::core::{Word, display_width};
    let width = width.max(1);
    let mut lines = Vec::new();
    // The words since the last long one, each with the spaces after it, laid out first-fit.
    let mut run: Vec<Word<'_>> = Vec::new();
    let flush = |run: &mut Vec<Word<'_>>, lines: &mut Vec<String>| {
        if run.is_empty() {
            return;
        }
        let laid = textwrap::wrap_algorithms::wrap_first_fit(run, &[width as f64]);
        lines.extend(laid.into_iter().map(|line| {
            let mut text = String::new();
            for (i, word) in line.iter().enumerate() {
                text.push_str(word.word);
                if i + 1 < line.len() {
                    text.push_str(word.whitespace);
                }
            }
            text
        }));
        run.clear();
    };
    let mut rest = text;
    loop {
        let end = rest.find(' ').map_or(rest.len(), |space| space + 1);
        let (word, after) = rest.split_at(end);
        rest = after;
        let bare = word.trim_end_matches(' ');
        if display_width(bare) <= width {
            run.push(Word::from(word));
        } else {
            flush(&mut run, &mut lines);
            let mut long = bare;
            while display_width(long) > width {
                let (head, tail) = long.split_at(cut(long, width));
                lines.push(head.to_string());
                long = tail;
            }
            run.push(Word::from(&word[bare.len() - long.len()..]));
        }
        if rest.is_empty() {
            break;
        }
    }
    flush(&mut run, &mut lines);
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// Where to cut a word wider than `width` columns: after the last `/` within the first
/// `width` columns (not the first character), or else at the width (at least one character).
fn cut(word: &str, width: usize) -> usize {
    let mut columns = 0;
    let mut fits = 0;
    for (at, c) in word.char_indices() {
        columns += textwrap::core::display_width(c.encode_utf8(&mut [0; 4]));
        if columns > width {
            break;
        }
        fits = at + c.len_utf8();
    }
    let fits = fits.max(word.chars().next().map_or(0, char::len_utf8));
    match word[..fits].rfind('/') {
        Some(slash) if slash > 0 => slash + 1,
        _ => fits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_whole_and_cuts_long_ones() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(
            wrap("Record: /home/me/games/x.txt", 12),
            ["Record:", "/home/me/", "games/x.txt"]
        );
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("a  b", 9), ["a  b"]);
    }

    #[test]
    fn wrapping_counts_the_columns_a_terminal_shows() {
        // Each of these characters takes two columns.
        let lines = wrap("日本語 の 碁盤", 4);
        assert_eq!(lines, ["日本", "語", "の", "碁盤"]);
        assert!(lines.iter().all(|l| textwrap::core::display_width(l) <= 4));
    }
}

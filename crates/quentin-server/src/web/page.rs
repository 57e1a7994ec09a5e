//! What every answer shares: the page's frame (its title, its Open Graph title and
//! description, the one stylesheet), text made safe for HTML, the answers with their caching
//! headers (`Cache-Control` for what cannot change, an `ETag` for the rest, `304` when the
//! client has it), and the `404`, `400` and `429` answers.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse as _, Response};

/// The stylesheet, served at `/style.css`: no build step, no script.
const STYLE: &str = include_str!("style.css");

/// How long a client may keep what cannot change (a finished game's record).
const FOREVER: &str = "public, max-age=31536000, immutable";
/// How long a client may keep a finished game's page or JSON without asking (their
/// players' ratings shown may move on).
const SETTLED: &str = "public, max-age=300";

/// `text` made safe inside HTML, as text or an attribute's value; control characters (which
/// a player may have typed) dropped.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

/// A whole page: `title` (its Open Graph title too), `description` (its Open Graph
/// description), and `body`, HTML already made safe.
#[must_use]
pub fn frame(title: &str, description: &str, body: &str) -> String {
    let (title, description) = (escape(title), escape(description));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n\
         <meta property=\"og:title\" content=\"{title}\">\n\
         <meta property=\"og:description\" content=\"{description}\">\n\
         <meta property=\"og:type\" content=\"website\">\n\
         <meta name=\"description\" content=\"{description}\">\n\
         <link rel=\"stylesheet\" href=\"/style.css\">\n</head>\n<body>\n\
         <header><a href=\"/\">quentin</a></header>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )
}

/// Whether what is answered can still change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Never changes: kept for good.
    Forever,
    /// Settled (a finished game): kept a while, then checked by its `ETag`.
    Settled,
    /// May change at any time: checked by its `ETag` each time.
    Check,
}

/// `body` as `kind`, with its `ETag` and `Cache-Control`; `304 Not Modified` when the
/// client's `If-None-Match` names it.
#[must_use]
pub fn answer(asked: &HeaderMap, kind: &'static str, keep: Keep, body: String) -> Response {
    let tag = format!("\"{:016x}\"", fnv(body.as_bytes()));
    let cache = match keep {
        Keep::Forever => FOREVER,
        Keep::Settled => SETTLED,
        Keep::Check => "no-cache",
    };
    let known = asked
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let mut response = if known {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, kind)], body).into_response()
    };
    let headers = response.headers_mut();
    if let Ok(tag) = HeaderValue::from_str(&tag) {
        headers.insert(header::ETAG, tag);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

/// An HTML page, answered as [`answer`] does.
#[must_use]
pub fn html(asked: &HeaderMap, keep: Keep, page: String) -> Response {
    answer(asked, "text/html; charset=utf-8", keep, page)
}

/// FNV-1a, 64 bits: the same body gives the same tag on every process of a cluster.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `/style.css`.
pub async fn stylesheet(asked: HeaderMap) -> Response {
    answer(
        &asked,
        "text/css; charset=utf-8",
        Keep::Check,
        STYLE.to_string(),
    )
}

/// A `404` page that says what was not found: `no game 12`.
#[must_use]
pub fn not_found(what: &str) -> Response {
    let body = format!("<h1>Not found</h1>\n<p>{}.</p>", escape(what));
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        frame("Not found", what, &body),
    )
        .into_response()
}

/// Any address that is no page.
pub async fn not_found_route() -> Response {
    not_found("no such page")
}

/// A `400` answer with its reason, in plain text (an API's client reads it).
#[must_use]
pub fn bad_request(reason: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{reason}\n"),
    )
        .into_response()
}

/// A `404` answer in plain text, for the API.
#[must_use]
pub fn api_not_found(what: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{what}\n"),
    )
        .into_response()
}

/// `429 Too Many Requests`: the client's block asked more than its rate.
#[must_use]
pub fn too_many() -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, "1")],
        "too many requests: at most 20 a second from one network\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_made_safe_and_control_characters_dropped() {
        assert_eq!(
            escape("<b>\"a&b\"</b>\u{1b}[2J'"),
            "&lt;b&gt;&quot;a&amp;b&quot;&lt;/b&gt;[2J&#39;"
        );
    }

    #[test]
    fn an_answer_the_client_has_is_not_sent_again() {
        let first = answer(&HeaderMap::new(), "text/plain", Keep::Check, "x".into());
        assert_eq!(first.status(), StatusCode::OK);
        let tag = first.headers()[header::ETAG].clone();
        let mut asked = HeaderMap::new();
        asked.insert(header::IF_NONE_MATCH, tag);
        let again = answer(&asked, "text/plain", Keep::Check, "x".into());
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        let changed = answer(&asked, "text/plain", Keep::Check, "y".into());
        assert_eq!(changed.status(), StatusCode::OK);
    }
}

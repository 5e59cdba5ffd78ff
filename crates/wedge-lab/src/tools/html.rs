//! The frame of the tools' self-contained HTML pages (`wedge tree`, `wedge review`): one
//! document with its style and script inline, nothing fetched from anywhere, and the escaping
//! of text put into it.

/// `text` safe as HTML text or as a quoted attribute value.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: `title` (escaped here), the inline `style` sheet, the `body` markup as given,
/// and an inline `script` at the end of the body when not empty. The style and script must
/// not hold `</style>` or `</script>`.
pub(crate) fn page(title: &str, style: &str, body: &str, script: &str) -> String {
    let title = escape(title);
    let mut s = String::with_capacity(body.len() + style.len() + script.len() + 256);
    s.push_str("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    s.push_str(&format!(
        "<title>{title}</title><style>{style}</style></head><body>"
    ));
    s.push_str(body);
    if !script.is_empty() {
        s.push_str("<script>");
        s.push_str(script);
        s.push_str("</script>");
    }
    s.push_str("</body></html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_the_page_holds_everything_inline() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        let p = page("x < y", "b{}", "<p>hi</p>", "let a=1;");
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("<title>x &lt; y</title><style>b{}</style>"));
        assert!(p.ends_with("<p>hi</p><script>let a=1;</script></body></html>\n"));
        assert!(!page("t", "", "", "").contains("<script>"));
    }
}

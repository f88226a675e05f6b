//! Colour markup: renderers write `[bold]`, `[red]`, `[reset]`… in their own fixed text and the
//! pen turns the tags into ANSI escape sequences, or removes them under `-no-color`. Values from
//! configuration or state never pass through the pen, so brackets in them are safe.

#[derive(Debug, Clone, Copy)]
pub struct Pen {
    pub color: bool,
}

const TAGS: &[(&str, &str)] = &[
    ("[reset]", "\x1b[0m"),
    ("[bold]", "\x1b[1m"),
    ("[dim]", "\x1b[2m"),
    ("[red]", "\x1b[31m"),
    ("[green]", "\x1b[32m"),
    ("[yellow]", "\x1b[33m"),
    ("[cyan]", "\x1b[36m"),
    ("[dark_gray]", "\x1b[90m"),
];

impl Pen {
    pub fn paint(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        'outer: while let Some(pos) = rest.find('[') {
            out.push_str(&rest[..pos]);
            rest = &rest[pos..];
            for (tag, code) in TAGS {
                if let Some(r) = rest.strip_prefix(tag) {
                    if self.color {
                        out.push_str(code);
                    }
                    rest = r;
                    continue 'outer;
                }
            }
            out.push('[');
            rest = &rest[1..];
        }
        out.push_str(rest);
        out
    }
}

/// Wrap prose at `width` columns on spaces (existing newlines are kept).
pub fn word_wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for (i, para) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut col = 0;
        for (j, word) in para.split(' ').enumerate() {
            let len = word.chars().count();
            if j > 0 {
                if col + 1 + len > width {
                    out.push('\n');
                    col = 0;
                } else {
                    out.push(' ');
                    col += 1;
                }
            }
            out.push_str(word);
            col += len;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_become_escapes_or_vanish() {
        assert_eq!(Pen { color: false }.paint("[bold]a[reset] [x]"), "a [x]");
        assert_eq!(
            Pen { color: true }.paint("[red]-[reset]"),
            "\x1b[31m-\x1b[0m"
        );
    }

    #[test]
    fn wraps_on_spaces() {
        assert_eq!(word_wrap("aa bb cc", 5), "aa bb\ncc");
    }
}

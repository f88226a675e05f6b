//! The syntax errors of Go's `encoding/json` decoder, as `jsondecode` reports them in Terraform
//! ("invalid character 'x' looking for beginning of value"): a byte-level scan of the input
//! that stops at the first byte Go's scanner would refuse and names its context.

/// Go's description of the first syntax error in `text`, or None when the text is valid JSON
/// up to its end (truncated input and extra values are reported by the caller).
pub(crate) fn syntax_error(text: &str) -> Option<String> {
    let mut s = Scan {
        b: text.as_bytes(),
        i: 0,
    };
    s.ws();
    let scalar = !matches!(s.peek(), Some(b'{' | b'['));
    if let Err(e) = s.value() {
        return e;
    }
    // A scalar's end is only seen at the next byte, which must be white space.
    match s.peek() {
        Some(c) if scalar && !is_ws(c) => Some(invalid(c, "after top-level value")),
        _ => None,
    }
}

/// Err(Some(message)) at a syntax error, Err(None) at the end of the input.
type Step = Result<(), Option<String>>;

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: the byte as a quoted character.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_string(),
        b'"' => "'\"'".to_string(),
        b'\x07' => "'\\a'".to_string(),
        b'\x08' => "'\\b'".to_string(),
        b'\x0c' => "'\\f'".to_string(),
        b'\n' => "'\\n'".to_string(),
        b'\r' => "'\\r'".to_string(),
        b'\t' => "'\\t'".to_string(),
        b'\x0b' => "'\\v'".to_string(),
        b'\\' => "'\\\\'".to_string(),
        c if c < 0x20 || c == 0x7f => format!("'\\x{c:02x}'"),
        c if (0x80..0xa0).contains(&c) => format!("'\\u{c:04x}'"),
        c => format!("'{}'", char::from(c)),
    }
}

fn invalid(c: u8, context: &str) -> String {
    format!("invalid character {} {context}", quote_char(c))
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(is_ws) {
            self.i += 1;
        }
    }

    fn next(&mut self) -> Result<u8, Option<String>> {
        let c = self.peek().ok_or(None)?;
        self.i += 1;
        Ok(c)
    }

    fn value(&mut self) -> Step {
        self.ws();
        match self.next()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string(),
            b'-' => match self.next()? {
                c @ b'0'..=b'9' => self.number(c),
                c => Err(Some(invalid(c, "in numeric literal"))),
            },
            c @ b'0'..=b'9' => self.number(c),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            c => Err(Some(invalid(c, "looking for beginning of value"))),
        }
    }

    fn object(&mut self) -> Step {
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(());
        }
        loop {
            match self.next()? {
                b'"' => self.string()?,
                c => {
                    return Err(Some(invalid(
                        c,
                        "looking for beginning of object key string",
                    )))
                }
            }
            self.ws();
            match self.next()? {
                b':' => {}
                c => return Err(Some(invalid(c, "after object key"))),
            }
            self.value()?;
            self.ws();
            match self.next()? {
                b',' => self.ws(),
                b'}' => return Ok(()),
                c => return Err(Some(invalid(c, "after object key:value pair"))),
            }
        }
    }

    fn array(&mut self) -> Step {
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.value()?;
            self.ws();
            match self.next()? {
                b',' => {}
                b']' => return Ok(()),
                c => return Err(Some(invalid(c, "after array element"))),
            }
        }
    }

    fn string(&mut self) -> Step {
        loop {
            match self.next()? {
                b'"' => return Ok(()),
                b'\\' => match self.next()? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                    b'u' => {
                        for _ in 0..4 {
                            let c = self.next()?;
                            if !c.is_ascii_hexdigit() {
                                return Err(Some(invalid(
                                    c,
                                    "in \\u hexadecimal character escape",
                                )));
                            }
                        }
                    }
                    c => return Err(Some(invalid(c, "in string escape code"))),
                },
                c if c < 0x20 => return Err(Some(invalid(c, "in string literal"))),
                _ => {}
            }
        }
    }

    /// The rest of a number whose first digit `first` was read.
    fn number(&mut self, first: u8) -> Step {
        if first != b'0' {
            self.digits();
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            match self.next()? {
                b'0'..=b'9' => self.digits(),
                c => return Err(Some(invalid(c, "after decimal point in numeric literal"))),
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            match self.next()? {
                b'0'..=b'9' => self.digits(),
                c => return Err(Some(invalid(c, "in exponent of numeric literal"))),
            }
        }
        Ok(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
    }

    /// The rest of `true`, `false` or `null` after its first letter.
    fn literal(&mut self, word: &str) -> Step {
        for want in word.bytes().skip(1) {
            let c = self.next()?;
            if c != want {
                let context = format!("in literal {word} (expecting {})", quote_char(want));
                return Err(Some(invalid(c, &context)));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::syntax_error;

    #[test]
    fn messages_as_go_words_them() {
        let cases = [
            ("x", "invalid character 'x' looking for beginning of value"),
            (
                "{1}",
                "invalid character '1' looking for beginning of object key string",
            ),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            (
                "{\"a\":1 \"b\"}",
                "invalid character '\"' after object key:value pair",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            (
                "[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            ("tru", ""),
            (
                "trux",
                "invalid character 'x' in literal true (expecting 'e')",
            ),
            ("1x", "invalid character 'x' after top-level value"),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            ("\"a\\q\"", "invalid character 'q' in string escape code"),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
        ];
        for (input, want) in cases {
            assert_eq!(syntax_error(input).unwrap_or_default(), want, "{input}");
        }
        assert_eq!(syntax_error("{\"a\": [1, true, null]}"), None);
    }
}

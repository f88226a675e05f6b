//! The line editor of `ferro console` on a terminal, as three pure parts: [`KeyDecoder`]
//! turns the bytes a raw-mode terminal sends into [`Key`]s, [`LineEditor`] applies keys to the
//! line (and the session's history), and [`Screen`] computes the terminal output that shows the
//! prompt, the line and the cursor. `cmd_console.rs` does the reading and writing.
//!
//! Keys: printable text (UTF-8), Left/Right, Home/End, Ctrl-A/E/B/F, Backspace, Delete,
//! Ctrl-D (delete, or end of input on an empty line), Ctrl-K/U/W (kill to end, to start, the
//! word before the cursor), Up/Down and Ctrl-P/N (history), Ctrl-C (abandon the line),
//! Ctrl-L (clear the screen), Enter.

use unicode_width::UnicodeWidthChar;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Enter,
    Backspace,
    /// The Delete key.
    Delete,
    /// Ctrl-D: delete under the cursor, or end the input when the line is empty.
    CtrlD,
    Left,
    Right,
    Home,
    End,
    Up,
    Down,
    KillToEnd,
    KillToStart,
    KillWord,
    Interrupt,
    ClearScreen,
}

/// Decodes terminal input. Escape sequences and UTF-8 characters may arrive split across
/// reads: incomplete ones wait for the next bytes. Unknown sequences and control characters
/// are dropped.
#[derive(Debug, Default)]
pub struct KeyDecoder {
    pending: Vec<u8>,
}

impl KeyDecoder {
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Key> {
        self.pending.extend_from_slice(bytes);
        let mut keys = Vec::new();
        let mut i = 0;
        while i < self.pending.len() {
            match decode_one(&self.pending[i..]) {
                Decoded::Key(k, n) => {
                    keys.push(k);
                    i += n;
                }
                Decoded::Skip(n) => i += n,
                Decoded::Incomplete => break,
            }
        }
        self.pending.drain(..i);
        keys
    }
}

enum Decoded {
    Key(Key, usize),
    Skip(usize),
    Incomplete,
}

fn decode_one(b: &[u8]) -> Decoded {
    let key = |k: Key| Decoded::Key(k, 1);
    match b[0] {
        0x01 => key(Key::Home),
        0x02 => key(Key::Left),
        0x03 => key(Key::Interrupt),
        0x04 => key(Key::CtrlD),
        0x05 => key(Key::End),
        0x06 => key(Key::Right),
        0x08 | 0x7f => key(Key::Backspace),
        0x0b => key(Key::KillToEnd),
        0x0c => key(Key::ClearScreen),
        b'\r' | b'\n' => key(Key::Enter),
        0x0e => key(Key::Down),
        0x10 => key(Key::Up),
        0x15 => key(Key::KillToStart),
        0x17 => key(Key::KillWord),
        0x1b => decode_escape(b),
        c if c < 0x20 => Decoded::Skip(1),
        c => {
            let len = match c {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                0x80..=0xff => return Decoded::Skip(1),
                _ => 1,
            };
            if b.len() < len {
                return Decoded::Incomplete;
            }
            match std::str::from_utf8(&b[..len])
                .ok()
                .and_then(|s| s.chars().next())
            {
                Some(ch) => Decoded::Key(Key::Char(ch), len),
                None => Decoded::Skip(1),
            }
        }
    }
}

/// `ESC [ params final` (CSI) or `ESC O final` (SS3). Anything else after ESC: the ESC alone
/// is dropped and what follows is read normally.
fn decode_escape(b: &[u8]) -> Decoded {
    let Some(&kind) = b.get(1) else {
        return Decoded::Incomplete;
    };
    let by_final = |f: u8| match f {
        b'A' => Some(Key::Up),
        b'B' => Some(Key::Down),
        b'C' => Some(Key::Right),
        b'D' => Some(Key::Left),
        b'H' => Some(Key::Home),
        b'F' => Some(Key::End),
        _ => None,
    };
    let found = |k: Option<Key>, n: usize| k.map_or(Decoded::Skip(n), |k| Decoded::Key(k, n));
    match kind {
        b'O' => match b.get(2) {
            None => Decoded::Incomplete,
            Some(&f) => found(by_final(f), 3),
        },
        b'[' => {
            let Some(end) = b[2..].iter().position(|c| (0x40..=0x7e).contains(c)) else {
                // Parameters only: wait for the final byte, unless this is not a sequence.
                return if b.len() > 16 {
                    Decoded::Skip(1)
                } else {
                    Decoded::Incomplete
                };
            };
            let n = end + 3;
            let f = b[n - 1];
            if f != b'~' {
                return found(by_final(f), n);
            }
            let first: String = b[2..n - 1]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .map(|&c| char::from(c))
                .collect();
            let k = match first.as_str() {
                "1" | "7" => Some(Key::Home),
                "4" | "8" => Some(Key::End),
                "3" => Some(Key::Delete),
                _ => None,
            };
            found(k, n)
        }
        _ => Decoded::Skip(1),
    }
}

/// What a key did to the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The line or the cursor changed: draw it again.
    Redraw,
    /// Nothing to do here (a refused edit): ring the bell.
    Bell,
    /// Enter: the finished line.
    Submit(String),
    /// Ctrl-C: the line (empty or not) is abandoned.
    Interrupt {
        had_text: bool,
    },
    /// Ctrl-D on an empty line.
    Eof,
    ClearScreen,
}

/// The line being edited, its cursor (a char index), and the lines submitted so far.
#[derive(Debug, Default)]
pub struct LineEditor {
    line: Vec<char>,
    cursor: usize,
    history: Vec<String>,
    /// Which history entry is shown; `history.len()` is the new line.
    shown: usize,
    /// The new line, kept while history entries are shown.
    draft: Vec<char>,
}

impl LineEditor {
    pub fn line(&self) -> &[char] {
        &self.line
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Start editing a new, empty line.
    pub fn start_line(&mut self) {
        self.line.clear();
        self.cursor = 0;
        self.shown = self.history.len();
        self.draft.clear();
    }

    pub fn key(&mut self, key: Key) -> Outcome {
        match key {
            Key::Char(c) => {
                self.line.insert(self.cursor, c);
                self.cursor += 1;
            }
            Key::Enter => {
                let text: String = self.line.iter().collect();
                if !text.trim().is_empty() && self.history.last() != Some(&text) {
                    self.history.push(text.clone());
                }
                self.start_line();
                return Outcome::Submit(text);
            }
            Key::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                self.line.remove(self.cursor);
            }
            Key::CtrlD if self.line.is_empty() => return Outcome::Eof,
            Key::Delete | Key::CtrlD if self.cursor < self.line.len() => {
                self.line.remove(self.cursor);
            }
            Key::Left if self.cursor > 0 => self.cursor -= 1,
            Key::Right if self.cursor < self.line.len() => self.cursor += 1,
            Key::Home => self.cursor = 0,
            Key::End => self.cursor = self.line.len(),
            Key::Up if self.shown > 0 => {
                if self.shown == self.history.len() {
                    self.draft = std::mem::take(&mut self.line);
                }
                self.shown -= 1;
                self.show(self.history[self.shown].chars().collect());
            }
            Key::Down if self.shown < self.history.len() => {
                self.shown += 1;
                let next = match self.history.get(self.shown) {
                    Some(h) => h.chars().collect(),
                    None => std::mem::take(&mut self.draft),
                };
                self.show(next);
            }
            Key::KillToEnd => self.line.truncate(self.cursor),
            Key::KillToStart => {
                self.line.drain(..self.cursor);
                self.cursor = 0;
            }
            Key::KillWord => {
                let mut start = self.cursor;
                while start > 0 && self.line[start - 1].is_whitespace() {
                    start -= 1;
                }
                while start > 0 && !self.line[start - 1].is_whitespace() {
                    start -= 1;
                }
                self.line.drain(start..self.cursor);
                self.cursor = start;
            }
            Key::Interrupt => {
                let had_text = !self.line.is_empty();
                self.start_line();
                return Outcome::Interrupt { had_text };
            }
            Key::ClearScreen => return Outcome::ClearScreen,
            Key::Backspace
            | Key::Delete
            | Key::CtrlD
            | Key::Left
            | Key::Right
            | Key::Up
            | Key::Down => return Outcome::Bell,
        }
        Outcome::Redraw
    }

    fn show(&mut self, line: Vec<char>) {
        self.line = line;
        self.cursor = self.line.len();
    }
}

/// Columns a character takes on the terminal (control characters none).
fn width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The drawing of the prompt and line on the terminal. It may wrap over several rows; the
/// screen remembers where it left the cursor so that the next drawing starts by erasing the
/// previous one. Output is for a terminal in raw mode (`\r\n` for a new line).
#[derive(Debug, Default)]
pub struct Screen {
    /// The row of the drawing (0 is the prompt's) the cursor was left on.
    cursor_row: usize,
}

impl Screen {
    /// Erase the previous drawing and draw `prompt` and `line` with the cursor at char
    /// index `cursor`, on a terminal `cols` columns wide.
    pub fn draw(&mut self, prompt: &str, line: &[char], cursor: usize, cols: usize) -> String {
        let cols = cols.max(1);
        let mut out = String::new();
        if self.cursor_row > 0 {
            out.push_str(&format!("\x1b[{}A", self.cursor_row));
        }
        // To the start of the first row, and erase from there to the end of the screen.
        out.push_str("\r\x1b[J");
        out.push_str(prompt);
        out.extend(line.iter());
        let start: usize = prompt.chars().map(width).sum();
        let total = start + line.iter().copied().map(width).sum::<usize>();
        let at = start
            + line[..cursor.min(line.len())]
                .iter()
                .copied()
                .map(width)
                .sum::<usize>();
        // Text ending exactly at the right edge leaves the terminal waiting to wrap: go to the
        // next row so that the cursor can be shown there.
        if total > 0 && total.is_multiple_of(cols) {
            out.push_str("\r\n");
        }
        let end_row = total / cols;
        let (row, col) = (at / cols, at % cols);
        if end_row > row {
            out.push_str(&format!("\x1b[{}A", end_row - row));
        }
        out.push('\r');
        if col > 0 {
            out.push_str(&format!("\x1b[{col}C"));
        }
        self.cursor_row = row;
        out
    }

    /// Leave the drawing: put the cursor after the end of the line, write `tail` there (`^C`
    /// or `exit`) and start a new row. The next drawing starts on that row.
    pub fn leave(
        &mut self,
        prompt: &str,
        line: &[char],
        cursor: usize,
        cols: usize,
        tail: &str,
    ) -> String {
        let cols = cols.max(1);
        let start: usize = prompt.chars().map(width).sum();
        let total = start + line.iter().copied().map(width).sum::<usize>();
        let at = start
            + line[..cursor.min(line.len())]
                .iter()
                .copied()
                .map(width)
                .sum::<usize>();
        let mut out = String::new();
        let (end_row, row) = (total / cols, at / cols);
        if end_row > row {
            out.push_str(&format!("\x1b[{}B", end_row - row));
        }
        if total > 0 && total.is_multiple_of(cols) && tail.is_empty() {
            // Already at the start of a fresh row (see `draw`).
            out.push('\r');
        } else {
            out.push('\r');
            if !total.is_multiple_of(cols) {
                out.push_str(&format!("\x1b[{}C", total % cols));
            }
            out.push_str(tail);
            out.push_str("\r\n");
        }
        self.cursor_row = 0;
        out
    }

    /// Clear the whole screen; the next drawing goes to its top.
    pub fn clear(&mut self) -> String {
        self.cursor_row = 0;
        "\x1b[H\x1b[2J".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<Key> {
        KeyDecoder::default().feed(text.as_bytes())
    }

    /// Type `input` (raw terminal bytes) into `ed`; what the keys did, apart from redrawing.
    fn edit(ed: &mut LineEditor, input: &str) -> Vec<Outcome> {
        keys(input)
            .into_iter()
            .map(|k| ed.key(k))
            .filter(|o| !matches!(o, Outcome::Redraw))
            .collect()
    }

    fn state(ed: &LineEditor) -> (String, usize) {
        (ed.line().iter().collect(), ed.cursor())
    }

    #[test]
    fn decodes_keys_and_sequences() {
        use Key::*;
        assert_eq!(keys("aé\r"), vec![Char('a'), Char('é'), Enter]);
        assert_eq!(
            keys("\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F\x1bOH\x1bOF\x1b[1~\x1b[4~\x1b[3~\x1b[1;5C\x7f\x08"),
            vec![Up, Down, Right, Left, Home, End, Home, End, Home, End, Delete, Right, Backspace, Backspace]
        );
        assert_eq!(
            keys("\x01\x02\x03\x04\x05\x06\x0b\x0c\x0e\x10\x15\x17"),
            vec![
                Home,
                Left,
                Interrupt,
                CtrlD,
                End,
                Right,
                KillToEnd,
                ClearScreen,
                Down,
                Up,
                KillToStart,
                KillWord
            ]
        );
        // Unknown sequences, stray controls and invalid UTF-8 are dropped; ESC + letter keeps the letter.
        assert_eq!(
            KeyDecoder::default().feed(b"\x1b[15~\x00\x09\xffx\x1bq"),
            vec![Char('x'), Char('q')]
        );
    }

    #[test]
    fn sequences_split_across_reads_wait_for_the_rest() {
        let mut d = KeyDecoder::default();
        assert_eq!(d.feed(b"\x1b"), vec![]);
        assert_eq!(d.feed(b"["), vec![]);
        assert_eq!(d.feed(b"D"), vec![Key::Left]);
        let euro = "€".as_bytes();
        assert_eq!(d.feed(&euro[..1]), vec![]);
        assert_eq!(d.feed(&euro[1..2]), vec![]);
        assert_eq!(d.feed(&euro[2..]), vec![Key::Char('€')]);
    }

    #[test]
    fn moving_inserting_and_deleting() {
        let mut ed = LineEditor::default();
        // Type "uper(1)", go home, right once, insert "p"; end; backspace twice; type "2)".
        edit(&mut ed, "uper(1)\x01\x1b[Cp");
        assert_eq!(state(&ed), ("upper(1)".into(), 2));
        edit(&mut ed, "\x05\x7f\x7f2)");
        assert_eq!(state(&ed), ("upper(2)".into(), 8));
        // Ctrl-B twice, Delete, Ctrl-F: "upper(2" + ")" removed then nothing after.
        edit(&mut ed, "\x02\x02\x1b[3~");
        assert_eq!(state(&ed), ("upper()".into(), 6));
        edit(&mut ed, "\x04");
        assert_eq!(state(&ed), ("upper(".into(), 6));
        // At the end of the line Delete, Ctrl-D and Right refuse; at the start Backspace and Left.
        assert_eq!(edit(&mut ed, "\x04\x1b[3~\x06"), vec![Outcome::Bell; 3]);
        assert_eq!(edit(&mut ed, "\x01\x7f\x1b[D"), vec![Outcome::Bell; 2]);
    }

    #[test]
    fn killing() {
        let mut ed = LineEditor::default();
        edit(&mut ed, "one two  three\x17");
        assert_eq!(state(&ed), ("one two  ".into(), 9));
        edit(&mut ed, "\x17");
        assert_eq!(state(&ed), ("one ".into(), 4));
        edit(&mut ed, "abc\x02\x02\x0b");
        assert_eq!(state(&ed), ("one a".into(), 5));
        edit(&mut ed, "\x02\x15");
        assert_eq!(state(&ed), ("a".into(), 0));
    }

    #[test]
    fn utf8_text_is_edited_by_character() {
        let mut ed = LineEditor::default();
        edit(&mut ed, "\"héllo\"\x1b[D\x1b[D\x7f");
        assert_eq!(state(&ed), ("\"hélo\"".into(), 4));
    }

    #[test]
    fn submitting_interrupting_and_end_of_input() {
        let mut ed = LineEditor::default();
        assert_eq!(
            edit(&mut ed, "1 + 2\r"),
            vec![Outcome::Submit("1 + 2".into())]
        );
        assert_eq!(state(&ed), (String::new(), 0));
        assert_eq!(
            edit(&mut ed, "junk\x03"),
            vec![Outcome::Interrupt { had_text: true }]
        );
        assert_eq!(state(&ed), (String::new(), 0));
        assert_eq!(
            edit(&mut ed, "\x03"),
            vec![Outcome::Interrupt { had_text: false }]
        );
        assert_eq!(edit(&mut ed, "\x04"), vec![Outcome::Eof]);
        assert_eq!(edit(&mut ed, "\x0c"), vec![Outcome::ClearScreen]);
    }

    #[test]
    fn history_of_the_session() {
        let mut ed = LineEditor::default();
        edit(&mut ed, "first\r second \r\r   \rsecond \r");
        // Blank lines and an immediate repeat are not recorded.
        assert_eq!(
            ed.history,
            vec![
                "first".to_string(),
                " second ".to_string(),
                "second ".to_string()
            ]
        );
        edit(&mut ed, "draft\x1b[A");
        assert_eq!(state(&ed), ("second ".into(), 7));
        edit(&mut ed, "\x10\x10");
        assert_eq!(state(&ed), ("first".into(), 5));
        assert_eq!(edit(&mut ed, "\x1b[A"), vec![Outcome::Bell]);
        // Down walks back to the draft, then refuses.
        edit(&mut ed, "\x1b[B\x0e\x1b[B");
        assert_eq!(state(&ed), ("draft".into(), 5));
        assert_eq!(edit(&mut ed, "\x1b[B"), vec![Outcome::Bell]);
        // A recalled line can be edited and submitted.
        assert_eq!(
            edit(&mut ed, "\x15\x1b[A\x1b[A!\r"),
            vec![Outcome::Submit(" second !".into())]
        );
    }

    #[test]
    fn drawing_on_one_row() {
        let mut s = Screen::default();
        let line: Vec<char> = "1 + 2".chars().collect();
        assert_eq!(s.draw("> ", &line, 5, 80), "\r\x1b[J> 1 + 2\r\x1b[7C");
        assert_eq!(s.draw("> ", &line, 0, 80), "\r\x1b[J> 1 + 2\r\x1b[2C");
        assert_eq!(s.leave("> ", &line, 0, 80, ""), "\r\x1b[7C\r\n");
        let wide: Vec<char> = "\"日本\"".chars().collect();
        assert_eq!(s.draw("> ", &wide, 3, 80), "\r\x1b[J> \"日本\"\r\x1b[7C");
    }

    #[test]
    fn drawing_over_rows() {
        let mut s = Screen::default();
        let line: Vec<char> = "abcdefghijkl".chars().collect();
        // 10 columns: "> abcdefgh" / "ijkl"; cursor on 'c' (row 0, column 4).
        assert_eq!(
            s.draw("> ", &line, 2, 10),
            "\r\x1b[J> abcdefghijkl\x1b[1A\r\x1b[4C"
        );
        // Cursor at the end (row 1): the next drawing first goes up one row.
        assert_eq!(
            s.draw("> ", &line, 12, 10),
            "\r\x1b[J> abcdefghijkl\r\x1b[4C"
        );
        assert_eq!(
            s.draw("> ", &line, 0, 10),
            "\x1b[1A\r\x1b[J> abcdefghijkl\x1b[1A\r\x1b[2C"
        );
        // Exactly at the right edge: move to a fresh row.
        let full: Vec<char> = "abcdefgh".chars().collect();
        assert_eq!(s.draw("> ", &full, 8, 10), "\r\x1b[J> abcdefgh\r\n\r");
        assert_eq!(s.leave("> ", &full, 8, 10, ""), "\r");
        assert_eq!(s.leave("> ", &full, 8, 10, "^C"), "\r^C\r\n");
    }
}

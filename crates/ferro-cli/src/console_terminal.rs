//! Reading the lines of `ferro console` from a terminal with the line editor: the terminal is
//! in raw mode while a line is edited (and back in its previous mode when the line is done,
//! before it is evaluated and when reading fails or panics), keys go through
//! [`crate::line_editor`], and its drawing is written to the terminal.

use crate::line_editor::{Key, KeyDecoder, LineEditor, Outcome, Screen};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

pub(crate) const PROMPT: &str = "> ";

/// How reading a line ended.
#[derive(Debug)]
pub(crate) enum LineRead {
    Line(String),
    /// Ctrl-C; Terraform ends the session when the line was empty.
    Interrupted {
        had_text: bool,
    },
    /// Ctrl-D on an empty line, or the input was closed.
    End,
}

/// The console's terminal: its input descriptor and the session's editor (with the history).
/// Without termios (not Unix) lines are read without editing and the editor goes unused.
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) struct Terminal<'fd> {
    #[cfg(unix)]
    fd: std::os::fd::BorrowedFd<'fd>,
    #[cfg(not(unix))]
    _fd: std::marker::PhantomData<&'fd ()>,
    editor: LineEditor,
    decoder: KeyDecoder,
    /// Keys that arrived after the end of the previous line (typed ahead or pasted).
    queued: VecDeque<Key>,
}

impl<'fd> Terminal<'fd> {
    #[cfg(unix)]
    pub(crate) fn new(fd: std::os::fd::BorrowedFd<'fd>) -> Self {
        Terminal {
            fd,
            editor: LineEditor::default(),
            decoder: KeyDecoder::default(),
            queued: VecDeque::new(),
        }
    }

    /// A terminal without line editing (systems without termios).
    #[cfg(not(unix))]
    pub(crate) fn plain() -> Self {
        Terminal {
            _fd: std::marker::PhantomData,
            editor: LineEditor::default(),
            decoder: KeyDecoder::default(),
            queued: VecDeque::new(),
        }
    }

    /// Read one line, showing the prompt. When the terminal cannot be put in raw mode, the
    /// line is read as the terminal delivers it (no editing).
    pub(crate) fn read_line(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> io::Result<LineRead> {
        #[cfg(unix)]
        if let Ok(raw) = ferro_term::RawMode::enter(self.fd) {
            let cols = ferro_term::columns(self.fd).map_or(80, usize::from);
            let result = self.edit_line(input, out, cols);
            drop(raw);
            return result;
        }
        write!(out, "{PROMPT}")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(LineRead::End);
        }
        Ok(LineRead::Line(
            line.trim_end_matches(['\n', '\r']).to_string(),
        ))
    }

    /// The editing loop, with the terminal in raw mode.
    #[cfg_attr(not(unix), allow(dead_code))]
    fn edit_line(
        &mut self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        cols: usize,
    ) -> io::Result<LineRead> {
        let mut screen = Screen::default();
        self.editor.start_line();
        write!(
            out,
            "{}",
            screen.draw(PROMPT, self.editor.line(), self.editor.cursor(), cols)
        )?;
        out.flush()?;
        loop {
            while let Some(key) = self.queued.pop_front() {
                let (line, cursor) = (self.editor.line().to_vec(), self.editor.cursor());
                let (text, done) = match self.editor.key(key) {
                    Outcome::Redraw => (
                        screen.draw(PROMPT, self.editor.line(), self.editor.cursor(), cols),
                        None,
                    ),
                    Outcome::Bell => ("\x07".to_string(), None),
                    Outcome::ClearScreen => {
                        let clear = screen.clear();
                        (
                            clear
                                + &screen.draw(
                                    PROMPT,
                                    self.editor.line(),
                                    self.editor.cursor(),
                                    cols,
                                ),
                            None,
                        )
                    }
                    Outcome::Submit(s) => (
                        screen.leave(PROMPT, &line, cursor, cols, ""),
                        Some(LineRead::Line(s)),
                    ),
                    Outcome::Interrupt { had_text } => (
                        screen.leave(PROMPT, &line, cursor, cols, "^C"),
                        Some(LineRead::Interrupted { had_text }),
                    ),
                    Outcome::Eof => (
                        screen.leave(PROMPT, &line, cursor, cols, "exit"),
                        Some(LineRead::End),
                    ),
                };
                write!(out, "{text}")?;
                if let Some(done) = done {
                    out.flush()?;
                    return Ok(done);
                }
            }
            out.flush()?;
            let bytes = input.fill_buf()?;
            if bytes.is_empty() {
                let text = screen.leave(PROMPT, self.editor.line(), self.editor.cursor(), cols, "");
                write!(out, "{text}")?;
                out.flush()?;
                return Ok(LineRead::End);
            }
            let n = bytes.len();
            self.queued.extend(self.decoder.feed(bytes));
            input.consume(n);
        }
    }
}

//! The termios and pseudo-terminal calls (Unix).

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd};

/// The current termios settings of `fd`.
fn attributes(fd: BorrowedFd<'_>) -> io::Result<libc::termios> {
    // SAFETY: termios is plain data; tcgetattr fills it completely on success.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: `fd` is open for the duration of the call and `t` is a valid termios.
    if unsafe { libc::tcgetattr(fd.as_raw_fd(), &mut t) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(t)
}

fn set_attributes(fd: BorrowedFd<'_>, t: &libc::termios) -> io::Result<()> {
    // SAFETY: `fd` is open and `t` points to a valid termios.
    if unsafe { libc::tcsetattr(fd.as_raw_fd(), libc::TCSADRAIN, t) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A terminal in raw mode: bytes arrive one by one as typed, nothing is echoed, Ctrl-C and
/// Ctrl-Z arrive as bytes instead of signals, and output is written as is (`\n` does not
/// return the carriage). Dropping the guard restores the previous mode, also when unwinding
/// from a panic.
pub struct RawMode<'fd> {
    fd: BorrowedFd<'fd>,
    saved: libc::termios,
}

impl<'fd> RawMode<'fd> {
    /// Switch the terminal `fd` to raw mode. Fails when `fd` is not a terminal.
    pub fn enter(fd: BorrowedFd<'fd>) -> io::Result<RawMode<'fd>> {
        let saved = attributes(fd)?;
        let mut raw = saved;
        raw.c_iflag &= !(libc::BRKINT | libc::ICRNL | libc::INPCK | libc::ISTRIP | libc::IXON);
        raw.c_oflag &= !libc::OPOST;
        raw.c_cflag |= libc::CS8;
        raw.c_lflag &= !(libc::ECHO | libc::ICANON | libc::IEXTEN | libc::ISIG);
        raw.c_cc[libc::VMIN] = 1;
        raw.c_cc[libc::VTIME] = 0;
        set_attributes(fd, &raw)?;
        Ok(RawMode { fd, saved })
    }
}

impl Drop for RawMode<'_> {
    fn drop(&mut self) {
        // Nothing better can be done if this fails (the terminal went away).
        let _ = set_attributes(self.fd, &self.saved);
    }
}

/// Whether the terminal `fd` is in canonical mode (line editing by the terminal, echo on),
/// the mode programs normally leave it in.
pub fn is_canonical(fd: BorrowedFd<'_>) -> io::Result<bool> {
    let t = attributes(fd)?;
    Ok(t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0)
}

/// The width of the terminal `fd` in columns; None when it is not a terminal or reports 0.
pub fn columns(fd: BorrowedFd<'_>) -> Option<u16> {
    // SAFETY: winsize is plain data, filled by the ioctl on success.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one winsize through the pointer; `fd` is open.
    if unsafe { libc::ioctl(fd.as_raw_fd(), libc::TIOCGWINSZ, &mut ws) } != 0 || ws.ws_col == 0 {
        return None;
    }
    Some(ws.ws_col)
}

/// Both ends of a pseudo-terminal: a program given `terminal` as its standard streams sees a
/// terminal, and whoever holds `controller` types into it and reads what it writes.
#[cfg(target_os = "linux")]
pub struct Pty {
    pub controller: OwnedFd,
    pub terminal: OwnedFd,
}

/// Open a pseudo-terminal of `cols` × `rows` characters.
#[cfg(target_os = "linux")]
pub fn open_pty(cols: u16, rows: u16) -> io::Result<Pty> {
    // SAFETY: posix_openpt returns a new descriptor or -1.
    let raw = unsafe { libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC) };
    if raw < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `raw` is a freshly opened descriptor that nothing else owns.
    let controller = unsafe { OwnedFd::from_raw_fd(raw) };
    let fd = controller.as_raw_fd();
    // SAFETY: plain calls on the open controller descriptor.
    if unsafe { libc::grantpt(fd) } != 0 || unsafe { libc::unlockpt(fd) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let mut name = [0 as libc::c_char; 128];
    // SAFETY: ptsname_r writes a NUL-terminated path of at most `name.len()` bytes.
    let rc = unsafe { libc::ptsname_r(fd, name.as_mut_ptr(), name.len()) };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    let path: Vec<u8> = name
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    let path = String::from_utf8(path)
        .map_err(|_| io::Error::other("pseudo-terminal name is not UTF-8"))?;
    use std::os::unix::fs::OpenOptionsExt;
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(path)?;
    let ws = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCSWINSZ reads one winsize through the pointer; `fd` is open.
    if unsafe { libc::ioctl(fd, libc::TIOCSWINSZ, &ws) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(Pty {
        controller,
        terminal: terminal.into(),
    })
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::fd::AsFd;

    #[test]
    fn raw_mode_is_entered_and_restored() {
        let pty = open_pty(100, 30).expect("pseudo-terminal");
        assert_eq!(columns(pty.terminal.as_fd()), Some(100));
        assert!(is_canonical(pty.terminal.as_fd()).unwrap());
        {
            let _raw = RawMode::enter(pty.terminal.as_fd()).unwrap();
            assert!(!is_canonical(pty.terminal.as_fd()).unwrap());
            // Raw: a byte is readable at once, without a newline, and is not echoed back.
            let mut controller = std::fs::File::from(pty.controller.try_clone().unwrap());
            controller.write_all(b"x").unwrap();
            let mut terminal = std::fs::File::from(pty.terminal.try_clone().unwrap());
            let mut b = [0u8; 1];
            terminal.read_exact(&mut b).unwrap();
            assert_eq!(&b, b"x");
        }
        assert!(is_canonical(pty.terminal.as_fd()).unwrap());
    }

    #[test]
    fn not_a_terminal() {
        let f = std::fs::File::open("/dev/null").unwrap();
        assert!(RawMode::enter(f.as_fd()).is_err());
        assert_eq!(columns(f.as_fd()), None);
    }
}

//! The source side of the scp protocol, as Terraform's communicator speaks it to a remote
//! `scp -t` (files: `C0644 SIZE NAME`, the bytes, a zero byte; directories: `D0755 0 NAME`, their
//! entries, `E`; each answered by one status byte, non-zero followed by the error line).

use crate::{err, Checker, Error};
use russh::client::{Handle, Msg};
use russh::{Channel, ChannelMsg};
use std::collections::VecDeque;
use std::path::Path;

struct Scp {
    channel: Channel<Msg>,
    input: VecDeque<u8>,
    exit: Option<u32>,
    closed: bool,
}

impl Scp {
    async fn start(handle: &Handle<Checker>, command: String) -> Result<Scp, Error> {
        let channel = handle
            .channel_open_session()
            .await
            .map_err(|e| err(format!("ssh: {e}")))?;
        channel
            .exec(true, command.into_bytes())
            .await
            .map_err(|e| err(format!("ssh: {e}")))?;
        Ok(Scp {
            channel,
            input: VecDeque::new(),
            exit: None,
            closed: false,
        })
    }

    /// Take the next message of the channel; false once it is closed.
    async fn pump(&mut self) -> bool {
        if self.closed {
            return false;
        }
        match self.channel.wait().await {
            Some(ChannelMsg::Data { data }) => self.input.extend(data.iter()),
            Some(ChannelMsg::ExitStatus { exit_status }) => self.exit = Some(exit_status),
            Some(ChannelMsg::Close) | None => self.closed = true,
            // Standard error (scp -v's debug lines) and window changes.
            Some(_) => {}
        }
        true
    }

    async fn byte(&mut self) -> Result<u8, Error> {
        loop {
            if let Some(b) = self.input.pop_front() {
                return Ok(b);
            }
            if !self.pump().await {
                return Err(self.ended());
            }
        }
    }

    /// The error for a remote scp that stopped answering.
    fn ended(&self) -> Error {
        match self.exit {
            Some(127) => err("SCP failed to start. This usually means that SCP is not\nproperly installed on the remote system."),
            Some(s) => err(format!("Process exited with status {s}")),
            None => err("EOF"),
        }
    }

    /// One status answer: 0 is success, anything else is followed by the error line.
    async fn status(&mut self) -> Result<(), Error> {
        let code = self.byte().await?;
        if code == 0 {
            return Ok(());
        }
        let mut line = Vec::new();
        loop {
            match self.byte().await {
                Ok(b'\n') => break,
                Ok(b) => line.push(b),
                Err(_) => break,
            }
        }
        Err(err(String::from_utf8_lossy(&line).into_owned()))
    }

    async fn send(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.channel
            .data(bytes)
            .await
            .map_err(|e| err(format!("ssh: {e}")))
    }

    async fn file(&mut self, name: &str, data: &[u8]) -> Result<(), Error> {
        self.send(format!("C0644 {} {name}\n", data.len()).as_bytes())
            .await?;
        self.status().await?;
        self.send(data).await?;
        self.send(b"\0").await?;
        self.status().await
    }

    /// End the transfer: close our side and wait for the remote scp to exit.
    async fn finish(mut self) -> Result<(), Error> {
        let _ = self.channel.eof().await;
        while self.pump().await {}
        match self.exit {
            Some(0) | None => Ok(()),
            Some(_) => Err(self.ended()),
        }
    }
}

/// The directory part and file name of a remote path, as Go's `filepath.Dir`/`Base` split it.
fn split(path: &str) -> (String, String) {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rfind('/') {
        Some(0) => ("/".into(), trimmed[1..].into()),
        Some(i) => (trimmed[..i].into(), trimmed[i + 1..].into()),
        None => (".".into(), trimmed.into()),
    }
}

pub(crate) async fn upload_file(
    handle: &Handle<Checker>,
    path: &str,
    data: &[u8],
) -> Result<(), Error> {
    let (dir, name) = split(path);
    let mut scp = Scp::start(handle, format!("scp -vt {dir}")).await?;
    scp.file(&name, data).await?;
    scp.finish().await
}

pub(crate) async fn upload_dir(
    handle: &Handle<Checker>,
    dst: &str,
    src: &Path,
    trailing_slash: bool,
) -> Result<(), Error> {
    let mut scp = Scp::start(handle, format!("scp -rvt {dst}")).await?;
    if trailing_slash {
        entries(&mut scp, src).await?;
    } else {
        let name = src
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| ".".into());
        directory(&mut scp, &name, src).await?;
    }
    scp.finish().await
}

async fn directory(scp: &mut Scp, name: &str, path: &Path) -> Result<(), Error> {
    scp.send(format!("D0755 0 {name}\n").as_bytes()).await?;
    scp.status().await?;
    Box::pin(entries(scp, path)).await?;
    scp.send(b"E\n").await?;
    scp.status().await
}

/// The entries of `dir` (symbolic links followed), in name order.
async fn entries(scp: &mut Scp, dir: &Path) -> Result<(), Error> {
    let io = |e: std::io::Error| err(e.to_string());
    let mut list: Vec<_> = std::fs::read_dir(dir)
        .map_err(io)?
        .collect::<Result<_, _>>()
        .map_err(io)?;
    list.sort_by_key(|e| e.file_name());
    for e in list {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        let is_dir = std::fs::metadata(&path).map_err(io)?.is_dir();
        if is_dir {
            directory(scp, &name, &path).await?;
        } else {
            let data = std::fs::read(&path).map_err(io)?;
            scp.file(&name, &data).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn remote_paths_split_as_go_splits_them() {
        let s = |p: &str| super::split(p);
        assert_eq!(s("/tmp/a.sh"), ("/tmp".into(), "a.sh".into()));
        assert_eq!(s("/a"), ("/".into(), "a".into()));
        assert_eq!(s("a"), (".".into(), "a".into()));
        assert_eq!(s("dir/sub/f"), ("dir/sub".into(), "f".into()));
    }
}

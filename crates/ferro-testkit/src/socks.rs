//! A SOCKS5 proxy (RFC 1928) for the tests of connections made through one: `CONNECT` only,
//! with no authentication or with one username and password (RFC 1929), recording the target
//! of every tunnel it opens.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

pub struct Socks5Proxy {
    pub port: u16,
    targets: Arc<Mutex<Vec<String>>>,
}

impl Socks5Proxy {
    /// Start a proxy; with `login`, only that username and password are accepted.
    pub fn start(login: Option<(&str, &str)>) -> Socks5Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let targets: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = targets.clone();
        let login = login.map(|(u, p)| (u.to_string(), p.to_string()));
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let (seen, login) = (seen.clone(), login.clone());
                std::thread::spawn(move || {
                    let _ = serve(client, login.as_ref(), &seen);
                });
            }
        });
        Socks5Proxy { port, targets }
    }

    /// The `host:port` of every tunnel opened so far.
    pub fn targets(&self) -> Vec<String> {
        self.targets.lock().unwrap().clone()
    }
}

fn read_n(s: &mut TcpStream, n: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0; n];
    s.read_exact(&mut buf)?;
    Ok(buf)
}

fn serve(
    mut client: TcpStream,
    login: Option<&(String, String)>,
    seen: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let head = read_n(&mut client, 2)?;
    let methods = read_n(&mut client, usize::from(head[1]))?;
    let want = if login.is_some() { 2 } else { 0 };
    if head[0] != 5 || !methods.contains(&want) {
        client.write_all(&[5, 0xff])?;
        return Ok(());
    }
    client.write_all(&[5, want])?;
    if let Some((user, pass)) = login {
        let v = read_n(&mut client, 2)?;
        let u = read_n(&mut client, usize::from(v[1]))?;
        let plen = read_n(&mut client, 1)?;
        let p = read_n(&mut client, usize::from(plen[0]))?;
        let ok = u == user.as_bytes() && p == pass.as_bytes();
        client.write_all(&[1, if ok { 0 } else { 1 }])?;
        if !ok {
            return Ok(());
        }
    }
    let req = read_n(&mut client, 4)?;
    let host = match req[3] {
        1 => {
            let a = read_n(&mut client, 4)?;
            format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3])
        }
        3 => {
            let len = read_n(&mut client, 1)?;
            String::from_utf8_lossy(&read_n(&mut client, usize::from(len[0]))?).into_owned()
        }
        4 => {
            let a: [u8; 16] = read_n(&mut client, 16)?.try_into().unwrap_or([0; 16]);
            format!("[{}]", std::net::Ipv6Addr::from(a))
        }
        _ => return Ok(()),
    };
    let port = read_n(&mut client, 2)?;
    let target = format!("{host}:{}", u16::from_be_bytes([port[0], port[1]]));
    seen.lock().unwrap().push(target.clone());
    let Ok(upstream) = TcpStream::connect(&target) else {
        client.write_all(&[5, 5, 0, 1, 0, 0, 0, 0, 0, 0])?;
        return Ok(());
    };
    client.write_all(&[5, 0, 0, 1, 127, 0, 0, 1, 0, 0])?;
    let (mut up_read, mut up_write) = (upstream.try_clone()?, upstream);
    let (mut c_read, mut c_write) = (client.try_clone()?, client);
    let forward = std::thread::spawn(move || {
        let _ = std::io::copy(&mut c_read, &mut up_write);
        let _ = up_write.shutdown(std::net::Shutdown::Write);
    });
    let _ = std::io::copy(&mut up_read, &mut c_write);
    let _ = c_write.shutdown(std::net::Shutdown::Write);
    let _ = forward.join();
    Ok(())
}

//! The stdio transport: `Content-Length` framed JSON-RPC on stdin/stdout.
//!
//! `lsp-server`'s own stdio transport ends the connection at the first
//! message whose body is not valid JSON-RPC; this one logs such a message to
//! stderr and reads on, so that no input can stop the server. Framing and
//! message types are `lsp-server`'s ([`Message`]).

use lsp_server::Message;
use std::io::{self, BufRead, Write};
use std::thread;

/// Threads of the transport, joined on shutdown.
pub struct IoThreads {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for the writer to flush every message; the reader is not waited
    /// for when it is blocked on a stdin that the client keeps open.
    pub fn join(self) -> io::Result<()> {
        let r = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("writer panicked")));
        if self.reader.is_finished() {
            let _ = self.reader.join();
        }
        r
    }
}

/// One framed message's body; `Ok(None)` at end of input.
fn read_body(r: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut len: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                len = value.trim().parse().ok();
            }
        }
    }
    let Some(len) = len else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "message without a valid Content-Length",
        ));
    };
    let mut buf = vec![0; len];
    r.read_exact(&mut buf)?;
    String::from_utf8(buf)
        .map(Some)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// What the server sends: a message, or one already serialised (large
/// notifications are written straight to JSON text, without building a
/// `serde_json::Value` first).
pub enum Outgoing {
    /// A message.
    Message(Message),
    /// The JSON text of one complete JSON-RPC message.
    Raw(String),
}

/// The two ends the server uses.
pub struct Connection {
    /// To the client.
    pub sender: crossbeam_channel::Sender<Outgoing>,
    /// From the client.
    pub receiver: crossbeam_channel::Receiver<Message>,
}

/// A connection over stdin/stdout.
pub fn stdio() -> (Connection, IoThreads) {
    let (to_server, from_client) = crossbeam_channel::unbounded::<Message>();
    let (to_client, from_server) = crossbeam_channel::unbounded::<Outgoing>();
    let reader = thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut stdin = stdin.lock();
            loop {
                match read_body(&mut stdin) {
                    Ok(None) => break,
                    Ok(Some(text)) => match serde_json::from_str::<Message>(&text) {
                        Ok(msg) => {
                            let exit =
                                matches!(&msg, Message::Notification(n) if n.method == "exit");
                            if to_server.send(msg).is_err() || exit {
                                break;
                            }
                        }
                        Err(e) => eprintln!(
                            "warpscope lsp: ignoring a message that is not JSON-RPC ({e})"
                        ),
                    },
                    // A header without a length: skip it and resynchronise
                    // on the next header block.
                    Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                        eprintln!("warpscope lsp: ignoring a malformed message ({e})")
                    }
                    Err(_) => break,
                }
            }
        })
        .expect("spawn the reader thread");
    let writer = thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            let stdout = io::stdout();
            let mut stdout = stdout.lock();
            for out in from_server {
                match out {
                    Outgoing::Message(msg) => msg.write(&mut stdout)?,
                    Outgoing::Raw(text) => {
                        write!(stdout, "Content-Length: {}\r\n\r\n", text.len())?;
                        stdout.write_all(text.as_bytes())?;
                    }
                }
                stdout.flush()?;
            }
            Ok(())
        })
        .expect("spawn the writer thread");
    (
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        IoThreads { reader, writer },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_read_and_bad_headers_reported() {
        let input = "Content-Length: 2\r\n\r\n{}Content-Type: x\r\ncontent-length:3\r\n\r\n[1]X-Nothing: 1\r\n\r\n";
        let mut r = io::BufReader::new(input.as_bytes());
        assert_eq!(read_body(&mut r).unwrap().as_deref(), Some("{}"));
        assert_eq!(read_body(&mut r).unwrap().as_deref(), Some("[1]"));
        assert_eq!(
            read_body(&mut r).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
        assert_eq!(read_body(&mut r).unwrap(), None);
    }
}

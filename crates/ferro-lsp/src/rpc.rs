//! JSON-RPC 2.0 over the LSP base protocol: `Content-Length` framed messages on a byte stream,
//! read on a thread of their own so the server can look ahead for cancellations.

use serde_json::{json, Value};
use std::io::{BufRead, Write};

/// JSON-RPC and LSP error codes.
pub mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    pub const SERVER_NOT_INITIALIZED: i64 = -32002;
    pub const REQUEST_CANCELLED: i64 = -32800;
}

/// One incoming message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
    /// A response to a request the server sent (the server sends none it waits for).
    Response,
    /// A body that is not JSON or not a JSON-RPC message: answered with an error, with the
    /// request's id when one could be read.
    Invalid {
        id: Value,
        code: i64,
        message: String,
    },
}

/// Read one framed message; `Ok(None)` at the end of the stream.
pub fn read_message(r: &mut dyn BufRead) -> std::io::Result<Option<Message>> {
    let mut length: Option<usize> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if length.is_some() {
                break;
            }
            // Blank lines before a header are tolerated.
            continue;
        }
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
                if length.is_none() {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("invalid Content-Length header: {text:?}"),
                    ));
                }
            }
        }
    }
    let len = length.unwrap_or(0);
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    Ok(Some(decode(&body)))
}

/// Classify a message body.
pub fn decode(body: &[u8]) -> Message {
    let v: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Message::Invalid {
                id: Value::Null,
                code: code::PARSE_ERROR,
                message: format!("the message is not valid JSON: {e}"),
            }
        }
    };
    let id = v.get("id").cloned();
    let method = v.get("method").and_then(Value::as_str).map(str::to_string);
    let params = v.get("params").cloned().unwrap_or(Value::Null);
    match (id, method) {
        (Some(id), Some(method)) if id.is_number() || id.is_string() => {
            Message::Request { id, method, params }
        }
        (None, Some(method)) => Message::Notification { method, params },
        (Some(_), None) if v.get("result").is_some() || v.get("error").is_some() => {
            Message::Response
        }
        (id, _) => Message::Invalid {
            id: id
                .filter(|i| i.is_number() || i.is_string())
                .unwrap_or(Value::Null),
            code: code::INVALID_REQUEST,
            message: "the message is not a JSON-RPC request, notification or response".into(),
        },
    }
}

/// Write one framed message.
pub fn write_message(w: &mut dyn Write, v: &Value) -> std::io::Result<()> {
    let body = serde_json::to_vec(v).map_err(std::io::Error::other)?;
    write!(w, "Content-Length: {}\r\n\r\n", body.len())?;
    w.write_all(&body)?;
    w.flush()
}

pub fn response(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_bad_bodies_are_classified() {
        let mut buf = Vec::new();
        write_message(&mut buf, &json!({"jsonrpc": "2.0", "id": 1, "method": "x"})).unwrap();
        buf.extend_from_slice(b"Content-Length: 3\r\n\r\n\xff\xfe{");
        let mut r = std::io::BufReader::new(&buf[..]);
        assert!(matches!(
            read_message(&mut r).unwrap(),
            Some(Message::Request { method, .. }) if method == "x"
        ));
        assert!(matches!(
            read_message(&mut r).unwrap(),
            Some(Message::Invalid {
                code: code::PARSE_ERROR,
                ..
            })
        ));
        assert_eq!(read_message(&mut r).unwrap(), None);
        assert!(matches!(
            decode(br#"{"id": 3}"#),
            Message::Invalid {
                code: code::INVALID_REQUEST,
                ..
            }
        ));
    }
}

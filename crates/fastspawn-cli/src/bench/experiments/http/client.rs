//! A small HTTP/1.1 client for the checks around the load: is the server
//! up, does it answer with exactly the child's output, and its `/__stats`.
//! hey reports status codes but reads no body (and counts no bytes of a
//! chunked one), so the bodies are checked here.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};

/// A response: status code and decoded body.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

/// `GET path` on 127.0.0.1:port with `Connection: close`.
pub fn get(port: u16, path: &str, timeout: Duration) -> Result<Response> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut stream = TcpStream::connect_timeout(&addr, timeout)
        .with_context(|| format!("connecting to {addr}"))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .with_context(|| format!("reading the answer to GET {path}"))?;
    parse(&raw).with_context(|| format!("the answer to GET {path}"))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Parses a whole HTTP/1.1 response (the connection closed after it): the
/// body is delimited by Content-Length, chunked encoding, or the close.
pub fn parse(raw: &[u8]) -> Result<Response> {
    let head_end = find(raw, b"\r\n\r\n").context("no end of headers")?;
    let head = std::str::from_utf8(&raw[..head_end]).context("headers are not UTF-8")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or("");
    ensure!(
        version.starts_with("HTTP/1."),
        "not an HTTP/1 status line: {status_line:?}"
    );
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("no status code in {status_line:?}"))?;
    let mut length = None;
    let mut chunked = false;
    for line in lines {
        let (name, value) = line
            .split_once(':')
            .with_context(|| format!("bad header line {line:?}"))?;
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(
                value
                    .parse::<usize>()
                    .with_context(|| format!("bad Content-Length {value:?}"))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value
                .split(',')
                .any(|v| v.trim().eq_ignore_ascii_case("chunked"));
        }
    }
    let rest = &raw[head_end + 4..];
    let body = if chunked {
        dechunk(rest)?
    } else if let Some(length) = length {
        ensure!(
            rest.len() >= length,
            "body cut short: {} of {length} bytes",
            rest.len()
        );
        rest[..length].to_vec()
    } else {
        rest.to_vec()
    };
    Ok(Response { status, body })
}

/// Decodes a chunked body; fails if the last (empty) chunk is missing.
fn dechunk(mut data: &[u8]) -> Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = find(data, b"\r\n").context("chunked body cut short (no chunk size)")?;
        let size_text = std::str::from_utf8(&data[..line_end])?;
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16)
            .with_context(|| format!("bad chunk size {size_text:?}"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        if data.len() < size + 2 {
            bail!(
                "chunked body cut short: a chunk of {size} bytes has {}",
                data.len()
            );
        }
        ensure!(
            &data[size..size + 2] == b"\r\n",
            "chunk not followed by CRLF"
        );
        body.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

/// Fails unless the response is a 200 whose body is exactly `expected`.
pub fn check(response: &Response, expected: &[u8]) -> Result<()> {
    ensure!(
        response.status == 200,
        "status {} (body {:?})",
        response.status,
        String::from_utf8_lossy(&response.body[..response.body.len().min(200)])
    );
    if response.body != expected {
        let at = response
            .body
            .iter()
            .zip(expected)
            .position(|(a, b)| a != b)
            .unwrap_or(response.body.len().min(expected.len()));
        bail!(
            "body of {} bytes, expected {} bytes; first difference at byte {at}{}",
            response.body.len(),
            expected.len(),
            if expected.len() <= 64 {
                format!(
                    " (got {:?}, expected {:?})",
                    String::from_utf8_lossy(&response.body[..response.body.len().min(64)]),
                    String::from_utf8_lossy(expected)
                )
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_are_decoded() {
        let raw = b"HTTP/1.1 200 OK\r\nDate: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nhi\n\r\n0\r\n\r\n";
        let r = parse(raw).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.body, b"hi\n");
        check(&r, b"hi\n").unwrap();

        let raw = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2;ext=1\r\nab\r\na\r\n0123456789\r\n0\r\n\r\n";
        assert_eq!(parse(raw).unwrap().body, b"ab0123456789");
    }

    #[test]
    fn content_length_and_close_delimited_bodies() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nhi\n";
        assert_eq!(parse(raw).unwrap().body, b"hi\n");
        let raw = b"HTTP/1.0 500 Internal Server Error\r\n\r\nboom";
        let r = parse(raw).unwrap();
        assert_eq!((r.status, r.body.as_slice()), (500, &b"boom"[..]));
    }

    #[test]
    fn truncated_responses_are_errors() {
        assert!(parse(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhi\n").is_err());
        assert!(
            parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhi\n\r\n").is_err()
        );
        assert!(parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nhi\n").is_err());
        assert!(parse(b"HTTP/1.1 200 OK\r\n").is_err());
        assert!(parse(b"SSH-2.0-OpenSSH\r\n\r\n").is_err());
    }

    #[test]
    fn checks_want_status_200_and_the_exact_body() {
        let ok = Response {
            status: 200,
            body: b"hi\n".to_vec(),
        };
        check(&ok, b"hi\n").unwrap();
        let err = check(&ok, b"hi\n\n").unwrap_err().to_string();
        assert!(err.contains("body of 3 bytes, expected 4"), "{err}");
        let err = check(
            &Response {
                status: 200,
                body: b"ho\n".to_vec(),
            },
            b"hi\n",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("first difference at byte 1"), "{err}");
        let err = check(
            &Response {
                status: 500,
                body: b"spawn failed".to_vec(),
            },
            b"hi\n",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("status 500"), "{err}");
        let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let mut cut = big.clone();
        cut.truncate(65_536);
        let err = check(
            &Response {
                status: 200,
                body: cut,
            },
            &big,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("body of 65536 bytes, expected 200000"),
            "{err}"
        );
    }
}

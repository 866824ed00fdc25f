//! Plain HTTP/1.1 to a test server's `http://` address on a `TcpStream` (`Connection: close`,
//! every read bounded by [`super::WAIT`]).

use std::io::{Read, Write};
use std::net::TcpStream;

use super::{Server, WAIT};

/// Plain HTTP/1.1 requests to the server's `http://` address.
pub trait Http {
    fn request(&self, method: &str, headers: &[(&str, &str)], body: &str) -> Reply;
    fn post(&self, headers: &[(&str, &str)], body: &str) -> Reply;
}

impl Http for Server {
    /// Sends one request (`Connection: close`) and reads the whole response.
    fn request(&self, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let addr = self.addr("http");
        let mut stream = TcpStream::connect(&addr).expect("the server accepts");
        stream.set_read_timeout(Some(WAIT)).unwrap();
        let mut head = format!(
            "{method} /mcp HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        // The real Host unless the test gives one.
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            head.push_str(&format!("Host: {addr}\r\n"));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let mut raw = Vec::new();
        stream
            .read_to_end(&mut raw)
            .expect("the response ends in time");
        Reply::parse(&String::from_utf8(raw).expect("a UTF-8 response"))
    }

    fn post(&self, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        all.extend_from_slice(headers);
        self.request("POST", &all, body)
    }
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn parse(raw: &str) -> Reply {
        let (head, body) = raw.split_once("\r\n\r\n").expect("a head and a body");
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .map(|l| l.split_once(':').unwrap())
            .map(|(n, v)| (n.to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Reply {
            status,
            headers,
            body: body.to_string(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

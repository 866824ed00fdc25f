//! Server-Sent Events (`text/event-stream`) read as their bytes arrive, per the WHATWG HTML
//! standard's [event stream interpretation](https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
//! lines end with `\r\n`, `\r` or `\n` (a `\r\n` split between two chunks is one line end), a
//! leading byte order mark is dropped, `:` starts a comment, a field's value loses one leading
//! space, `data` lines join with `\n`, `event` names the event, `id` sets the last event id (one
//! holding NUL is ignored), `retry` takes ASCII digits only, other fields are ignored, and a blank
//! line dispatches the event (none when it had no data).
//!
//! Bytes are kept until their line ends, so a UTF-8 character split between chunks is decoded
//! whole (a line's bytes are decoded at once, invalid sequences as U+FFFD). The work is linear in
//! the bytes read; an event (its pending line and its data) longer than the reader's bound is an
//! error. One deviation, on purpose: [`EventStream::finish`] hands over the event a stream ended
//! in before its blank line (the standard drops it): a checker reports what the server sent.
//!
//! The CLI's HTTP link (`jrpc probe`) and the page's (the live link and its Probe) both read their
//! event streams with it.

use std::fmt;

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The event type (`event:`), `"message"` when none was given.
    pub kind: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    /// The last event id when the event was dispatched ("" when none was ever set).
    pub last_event_id: String,
}

impl Event {
    /// The message the event carries for JSON-RPC over SSE: its data, unless that is blank.
    pub fn message(self) -> Option<String> {
        (!self.data.trim().is_empty()).then_some(self.data)
    }
}

/// An event (its pending line and data) passed the reader's bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventTooLong {
    pub max: usize,
}

impl fmt::Display for EventTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "an event of the stream is longer than {} bytes",
            self.max
        )
    }
}

/// The reader's state between chunks.
#[derive(Debug)]
pub struct EventStream {
    /// The bytes of the line not yet ended.
    line: Vec<u8>,
    /// The last byte read was a `\r`: a `\n` right after it ends no other line.
    after_cr: bool,
    /// No byte read yet (a byte order mark may come first).
    at_start: bool,
    data: String,
    kind: String,
    last_event_id: String,
    /// The reconnection time the stream asked for (`retry:`), in milliseconds.
    pub retry_ms: Option<u64>,
    max_event: usize,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl EventStream {
    /// A reader whose events (pending line and data together) may hold at most `max_event` bytes.
    pub fn new(max_event: usize) -> EventStream {
        EventStream {
            line: Vec::new(),
            after_cr: false,
            at_start: true,
            data: String::new(),
            kind: String::new(),
            last_event_id: String::new(),
            retry_ms: None,
            max_event,
        }
    }

    /// The stream's last event id so far ("" when none was set): what a client resuming the
    /// stream sends as `Last-Event-ID`. Set by an `id:` line even when its event dispatches
    /// nothing (a priming event with empty data).
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// Reads `chunk`; the events it completes, in order.
    pub fn push(&mut self, mut chunk: &[u8]) -> Result<Vec<Event>, EventTooLong> {
        let mut events = Vec::new();
        if self.at_start {
            // The BOM may itself be split: wait for three bytes before deciding.
            let seen = self.line.len() + chunk.len();
            if seen < BOM.len() && BOM.starts_with(&[&self.line[..], chunk].concat()) {
                self.line.extend_from_slice(chunk);
                return Ok(events);
            }
            self.at_start = false;
            let mut head = std::mem::take(&mut self.line);
            let take = BOM.len().saturating_sub(head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..take]);
            if head.starts_with(BOM) {
                chunk = &chunk[take..];
                head.drain(..BOM.len());
            } else {
                chunk = &chunk[take..];
            }
            // What came before (at most three bytes, no BOM) is read as any other bytes.
            let earlier = head;
            self.scan(&earlier, &mut events)?;
        }
        self.scan(chunk, &mut events)?;
        Ok(events)
    }

    /// The event the stream ended in before its blank line, if it has data (see the module's
    /// note: the standard would drop it).
    pub fn finish(mut self) -> Option<Event> {
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.field(&String::from_utf8_lossy(&line));
        }
        self.dispatch()
    }

    fn scan(&mut self, bytes: &[u8], events: &mut Vec<Event>) -> Result<(), EventTooLong> {
        let mut rest = bytes;
        if self.after_cr && rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
        if !bytes.is_empty() {
            self.after_cr = false;
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\r' || b == b'\n') {
            self.grow(end)?;
            self.line.extend_from_slice(&rest[..end]);
            let line = std::mem::take(&mut self.line);
            if line.is_empty() {
                events.extend(self.dispatch());
            } else {
                self.field(&String::from_utf8_lossy(&line));
            }
            // Reuse the allocation of the line just read.
            self.line = line;
            self.line.clear();
            let cr = rest[end] == b'\r';
            rest = &rest[end + 1..];
            if cr {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.grow(rest.len())?;
        self.line.extend_from_slice(rest);
        Ok(())
    }

    /// `more` bytes join the pending line: an error when the event would pass the bound.
    fn grow(&self, more: usize) -> Result<(), EventTooLong> {
        if self.line.len() + self.data.len() + self.kind.len() + more > self.max_event {
            return Err(EventTooLong {
                max: self.max_event,
            });
        }
        Ok(())
    }

    /// One line that is not blank.
    fn field(&mut self, line: &str) {
        if line.starts_with(':') {
            return;
        }
        let (name, value) = match line.split_once(':') {
            Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match name {
            "event" => value.clone_into(&mut self.kind),
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
            }
            "id" if !value.contains('\0') => value.clone_into(&mut self.last_event_id),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry_ms = value.parse().ok();
            }
            _ => {}
        }
    }

    fn dispatch(&mut self) -> Option<Event> {
        let kind = std::mem::take(&mut self.kind);
        if self.data.is_empty() {
            return None;
        }
        let mut data = std::mem::take(&mut self.data);
        data.pop();
        Some(Event {
            kind: if kind.is_empty() {
                "message".into()
            } else {
                kind
            },
            data,
            last_event_id: self.last_event_id.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: &str, data: &str, id: &str) -> Event {
        Event {
            kind: kind.into(),
            data: data.into(),
            last_event_id: id.into(),
        }
    }

    /// Everything `chunks` give, in order, then what `finish` hands over.
    fn read(chunks: &[&[u8]], max: usize) -> Result<Vec<Event>, EventTooLong> {
        let mut stream = EventStream::new(max);
        let mut all = Vec::new();
        for chunk in chunks {
            all.extend(stream.push(chunk)?);
        }
        all.extend(stream.finish());
        Ok(all)
    }

    /// Sample streams and the events each holds.
    fn samples() -> Vec<(&'static [u8], Vec<Event>)> {
        vec![
            (
                b"data: {\"a\":1}\n\ndata: {\"b\":2}\n\n",
                vec![
                    event("message", "{\"a\":1}", ""),
                    event("message", "{\"b\":2}", ""),
                ],
            ),
            // CRLF line ends: two events, not one.
            (
                b"event: message\r\ndata: one\r\n\r\ndata: two\r\n\r\n",
                vec![event("message", "one", ""), event("message", "two", "")],
            ),
            // CR alone ends a line too.
            (
                b"data: one\r\rdata: two\r\r",
                vec![event("message", "one", ""), event("message", "two", "")],
            ),
            // Multi-byte UTF-8 (2, 3 and 4 bytes), several data lines, no space after the colon.
            (
                "data: é€😀\ndata:é\n\n".as_bytes(),
                vec![event("message", "é€😀\né", "")],
            ),
            // Comments, id, retry, a named event, an unknown field, a field with no colon.
            (
                b": keep-alive\nid: 7\nretry: 100\nevent: ping\nfoo: bar\ndata\n\ndata: x\n\n",
                vec![event("ping", "", "7"), event("message", "x", "7")],
            ),
            // An event with no data is not dispatched; its type does not carry over.
            (
                b"event: a\nid: 1\n\ndata: b\n\n",
                vec![event("message", "b", "1")],
            ),
            // A leading byte order mark is dropped; an event cut by the end is still handed over.
            (
                b"\xEF\xBB\xBFdata: {}\n\ndata: [1",
                vec![event("message", "{}", ""), event("message", "[1", "")],
            ),
            // Invalid UTF-8 is U+FFFD, once per bad byte sequence.
            (
                b"data: a\xFFb\n\n",
                vec![event("message", "a\u{FFFD}b", "")],
            ),
        ]
    }

    #[test]
    fn every_sample_reads_the_same_whole_and_split_at_every_byte() {
        for (stream, expected) in samples() {
            let shown = String::from_utf8_lossy(stream);
            assert_eq!(
                read(&[stream], 1 << 20).unwrap(),
                expected,
                "{shown:?} whole"
            );
            for at in 0..=stream.len() {
                let (a, b) = stream.split_at(at);
                assert_eq!(
                    read(&[a, b], 1 << 20).unwrap(),
                    expected,
                    "{shown:?} split at {at}"
                );
                // And a second split anywhere after the first.
                for second in at..=stream.len() {
                    let (b1, b2) = stream[at..].split_at(second - at);
                    assert_eq!(
                        read(&[a, b1, b2], 1 << 20).unwrap(),
                        expected,
                        "{shown:?} split at {at} and {second}"
                    );
                }
            }
            let bytes: Vec<&[u8]> = stream.chunks(1).collect();
            assert_eq!(
                read(&bytes, 1 << 20).unwrap(),
                expected,
                "{shown:?} byte by byte"
            );
        }
    }

    #[test]
    fn a_crlf_split_between_chunks_is_one_line_end() {
        let mut stream = EventStream::new(1 << 20);
        assert_eq!(stream.push(b"data: a\r").unwrap(), vec![]);
        assert_eq!(
            stream.push(b"\n\r").unwrap(),
            vec![event("message", "a", "")]
        );
        assert_eq!(
            stream.push(b"\ndata: b\r\n\r\n").unwrap(),
            vec![event("message", "b", "")]
        );
    }

    #[test]
    fn retry_takes_digits_only_and_id_with_nul_is_ignored() {
        let mut stream = EventStream::new(1 << 20);
        stream
            .push(b"retry: 250\nretry: 1x\nid: a\0b\ndata: d\n\n")
            .unwrap();
        assert_eq!(stream.retry_ms, Some(250));
        assert_eq!(stream.finish(), None);
        let mut stream = EventStream::new(1 << 20);
        let events = stream.push(b"id: a\0b\ndata: d\n\n").unwrap();
        assert_eq!(events, vec![event("message", "d", "")]);
    }

    #[test]
    fn an_event_longer_than_the_bound_is_an_error_whether_one_line_or_many() {
        let mut stream = EventStream::new(16);
        assert_eq!(stream.push(b"data: 0123456789"), Ok(vec![]));
        assert_eq!(stream.push(b"abcdef"), Err(EventTooLong { max: 16 }));
        let mut stream = EventStream::new(16);
        let many = b"data: 1\ndata: 2\ndata: 3\ndata: 4\ndata: 5\ndata: 6\n";
        assert_eq!(stream.push(many), Err(EventTooLong { max: 16 }));
        // Events within the bound, one after another, never add up.
        let mut stream = EventStream::new(16);
        for _ in 0..1000 {
            assert_eq!(stream.push(b"data: 12345\n\n").unwrap().len(), 1);
        }
    }

    #[test]
    fn a_blank_data_is_no_message() {
        assert_eq!(event("message", " \n", "").message(), None);
        assert_eq!(event("message", "{}", "").message().as_deref(), Some("{}"));
    }
}

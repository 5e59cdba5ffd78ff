//! Splitting raw input bytes into lines: `\n` ends a line, a `\r` before it is dropped, invalid
//! UTF-8 is replaced, a line longer than the limit is dropped whole (reported by length) so
//! garbage can never grow memory without bound, and a line holding a NUL byte is refused (every
//! protocol answers it with an error and runs nothing of it).

use super::input::{Input, Refused};

/// The longest line accepted, in bytes (a full GGF game with notes is about 2 KB).
pub const MAX_LINE: usize = 64 * 1024;

/// Accumulates bytes until a line is complete.
#[derive(Debug)]
pub struct LineSplitter {
    buf: Vec<u8>,
    len: usize,
    max: usize,
}

impl LineSplitter {
    pub fn new(max: usize) -> LineSplitter {
        LineSplitter {
            buf: Vec::new(),
            len: 0,
            max,
        }
    }

    /// Takes bytes from `chunk` up to and including the first newline. Returns how many bytes
    /// were used and the line, when one was completed.
    pub fn feed(&mut self, chunk: &[u8]) -> (usize, Option<Input>) {
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                self.take(&chunk[..i]);
                (i + 1, Some(self.finish()))
            }
            None => {
                self.take(chunk);
                (chunk.len(), None)
            }
        }
    }

    /// The last line when the input ends without a newline.
    pub fn end(&mut self) -> Option<Input> {
        (self.len > 0).then(|| self.finish())
    }

    fn take(&mut self, piece: &[u8]) {
        self.len += piece.len();
        if self.len <= self.max {
            self.buf.extend_from_slice(piece);
        }
    }

    fn finish(&mut self) -> Input {
        let len = std::mem::take(&mut self.len);
        let mut bytes = std::mem::take(&mut self.buf);
        if len > self.max {
            return Input::Refused(Refused::Overlong(len));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        let line = String::from_utf8_lossy(&bytes).into_owned();
        if bytes.contains(&0) {
            return Input::Refused(Refused::Nul(line));
        }
        Input::Line(line)
    }
}

/// Splits a whole text into inputs (tests and scripts).
pub fn split_all(bytes: &[u8], max: usize) -> Vec<Input> {
    let mut s = LineSplitter::new(max);
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (used, line) = s.feed(rest);
        rest = &rest[used..];
        out.extend(line);
    }
    out.extend(s.end());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_crlf_long_and_binary_lines() {
        let mut input = b"ping 1\r\nhint 2\n".to_vec();
        input.extend(vec![b'x'; 20]);
        input.extend(b"\n\xff\xfego\nsave\0abc\r\nlast");
        let v = split_all(&input, 10);
        assert_eq!(
            v,
            vec![
                Input::Line("ping 1".into()),
                Input::Line("hint 2".into()),
                Input::Refused(Refused::Overlong(20)),
                Input::Line("\u{fffd}\u{fffd}go".into()),
                Input::Refused(Refused::Nul("save\0abc".into())),
                Input::Line("last".into()),
            ]
        );
    }

    #[test]
    fn a_line_split_across_chunks_is_joined() {
        let mut s = LineSplitter::new(100);
        assert_eq!(s.feed(b"pi"), (2, None));
        assert_eq!(
            s.feed(b"ng 3\nrest"),
            (5, Some(Input::Line("ping 3".into())))
        );
        assert_eq!(s.end(), None);
    }
}

//! The framing Wedge's binary files share: an 8-byte magic, a little-endian `u32` version,
//! little-endian fields written by a [`Writer`] and read back through a bounded [`Reader`], and
//! a checksum. Weights, label caches, training checkpoints, self-play batches, book forests and
//! the book file use it.
//!
//! Two checksums are in shipped files and both stay, so no file's bytes change: [`fnv1a64`],
//! the 8-byte trailer of every file but the book, and [`lanes64`], the book's header and table
//! checksum (four lanes, so gigabyte tables are checked at memory speed).

/// FNV-1a, 64-bit.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One 64-bit checksum over a byte slice whose length is a multiple of 32: four independent
/// multiply-rotate lanes over little-endian words, so it runs at memory speed.
pub fn lanes64(bytes: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x27D4_EB2F_1656_67C5,
    ];
    let mut lanes = [1u64, 2, 3, 4];
    for chunk in bytes.chunks_exact(32) {
        for (i, lane) in lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(chunk[8 * i..8 * i + 8].try_into().unwrap());
            *lane = (lane.rotate_left(23) ^ w).wrapping_mul(K[i]);
        }
    }
    let mut h = bytes.len() as u64;
    for (i, lane) in lanes.iter().enumerate() {
        h = (h ^ lane).wrapping_mul(K[(i + 1) % 4]).rotate_left(31);
    }
    h
}

/// Bytes of the [`fnv1a64`] trailer.
pub const TRAILER_LEN: usize = 8;

/// A read past the end: the input's length and the length the read needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{len} bytes, need {need}")]
pub struct Truncated {
    pub len: usize,
    pub need: usize,
}

/// A trailer that is not the checksum of what precedes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("checksum mismatch: stored {stored:#018x}, computed {computed:#018x} (corrupted)")]
pub struct ChecksumMismatch {
    pub stored: u64,
    pub computed: u64,
}

/// Checks the [`fnv1a64`] trailer of `bytes` and returns what it covers. The caller has
/// checked the length (shorter input fails with a stored checksum of 0).
pub fn verify_trailer(bytes: &[u8]) -> Result<&[u8], ChecksumMismatch> {
    let end = bytes.len().saturating_sub(TRAILER_LEN);
    let (body, tail) = bytes.split_at(end);
    let stored = tail.try_into().map_or(0, u64::from_le_bytes);
    let computed = fnv1a64(body);
    if stored == computed && tail.len() == TRAILER_LEN {
        Ok(body)
    } else {
        Err(ChecksumMismatch { stored, computed })
    }
}

/// A bounds-checked little-endian reader over a byte slice.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    /// Bytes read so far (the offset of the next read).
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Truncated> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(e) => {
                let s = &self.bytes[self.pos..e];
                self.pos = e;
                Ok(s)
            }
            None => Err(Truncated {
                len: self.bytes.len(),
                need: self.pos.saturating_add(n),
            }),
        }
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], Truncated> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    pub fn u8(&mut self) -> Result<u8, Truncated> {
        Ok(self.take(1)?[0])
    }

    pub fn u16(&mut self) -> Result<u16, Truncated> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn u32(&mut self) -> Result<u32, Truncated> {
        self.array().map(u32::from_le_bytes)
    }

    pub fn u64(&mut self) -> Result<u64, Truncated> {
        self.array().map(u64::from_le_bytes)
    }

    pub fn f32(&mut self) -> Result<f32, Truncated> {
        self.array().map(f32::from_le_bytes)
    }
}

/// Writes a file's fields little-endian after its magic and version.
#[derive(Debug)]
pub struct Writer {
    out: Vec<u8>,
}

impl Writer {
    /// A file that starts with `magic` and `version`; `capacity` is the expected total size.
    pub fn new(magic: &[u8; 8], version: u32, capacity: usize) -> Writer {
        let mut out = Vec::with_capacity(capacity);
        out.extend_from_slice(magic);
        out.extend_from_slice(&version.to_le_bytes());
        Writer { out }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    pub fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }

    pub fn u8(&mut self, v: u8) {
        self.out.push(v);
    }

    pub fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn i16(&mut self, v: i16) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    pub fn f32(&mut self, v: f32) {
        self.bytes(&v.to_le_bytes());
    }

    /// The file with its [`fnv1a64`] trailer.
    pub fn finish(mut self) -> Vec<u8> {
        let sum = fnv1a64(&self.out);
        self.u64(sum);
        self.out
    }

    /// The file without a trailer (formats checked another way).
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_reads_back_and_its_trailer_verifies() {
        let mut w = Writer::new(b"WEDGETST", 3, 0);
        w.u8(7);
        w.u16(0x1234);
        w.i16(-2);
        w.u32(0xdead_beef);
        w.u64(u64::MAX - 1);
        w.f32(1.5);
        let bytes = w.finish();
        assert_eq!(bytes.len(), 8 + 4 + 1 + 2 + 2 + 4 + 8 + 4 + 8);
        let body = verify_trailer(&bytes).unwrap();
        let mut r = Reader::new(body);
        assert_eq!(&r.array::<8>().unwrap(), b"WEDGETST");
        assert_eq!(r.u32(), Ok(3));
        assert_eq!(r.u8(), Ok(7));
        assert_eq!(r.u16(), Ok(0x1234));
        assert_eq!(r.u16(), Ok((-2i16) as u16));
        assert_eq!(r.u32(), Ok(0xdead_beef));
        assert_eq!(r.u64(), Ok(u64::MAX - 1));
        assert_eq!(r.f32(), Ok(1.5));
        assert_eq!(r.remaining(), 0);
        assert_eq!(r.u8(), Err(Truncated { len: 33, need: 34 }));
        let mut bad = bytes.clone();
        bad[9] ^= 1;
        assert!(verify_trailer(&bad).is_err());
        assert!(verify_trailer(&bytes[..5]).is_err());
    }

    #[test]
    fn a_huge_read_is_refused_without_overflow() {
        let mut r = Reader::new(&[1, 2, 3]);
        r.u8().unwrap();
        assert_eq!(
            r.take(usize::MAX),
            Err(Truncated {
                len: 3,
                need: usize::MAX
            })
        );
        assert_eq!(r.pos(), 1);
    }

    #[test]
    fn fnv1a64_matches_the_published_vectors() {
        // FNV-1a 64 test vectors; the book checksum is pinned by the shipped book verifying.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}

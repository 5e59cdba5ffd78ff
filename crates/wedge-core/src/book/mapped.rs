//! The memory-mapping layer: a book file mapped read-only and shared through the page cache
//! by every process that opens it. The only unsafe code of the book lives here.

use std::io;
use std::path::Path;

/// The bytes of a book: a read-only map of a file, or an owned buffer (tests, tools).
pub enum BookBytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl BookBytes {
    /// Maps `path` read-only (a regular file: see [`crate::paths::regular_file`]).
    pub fn map(path: &Path) -> io::Result<BookBytes> {
        let file = crate::paths::open_file(path)?;
        if file.metadata()?.len() == 0 {
            // Mapping an empty file fails on some systems; an empty book is simply too short.
            return Ok(BookBytes::Owned(Vec::new()));
        }
        // SAFETY: a book file is never written in place: every writer builds a temporary file
        // and renames it over the old name, so the inode we map keeps its bytes for as long as
        // the map lives (the old inode survives the rename while it is mapped). The map is
        // read-only and only ever read through `&[u8]`.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Ok(BookBytes::Mapped(map))
    }

    #[inline(always)]
    pub fn bytes(&self) -> &[u8] {
        match self {
            BookBytes::Mapped(m) => m,
            BookBytes::Owned(v) => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_file_reads_the_same_bytes_as_a_plain_read() {
        let dir = std::env::temp_dir().join(format!("wedge-map-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bytes.bin");
        let data: Vec<u8> = (0..100_000u32).map(|i| (i * 7 + i / 300) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let mapped = BookBytes::map(&path).unwrap();
        assert!(matches!(mapped, BookBytes::Mapped(_)));
        assert_eq!(mapped.bytes(), &std::fs::read(&path).unwrap()[..]);
        std::fs::write(&path, b"").unwrap();
        assert!(BookBytes::map(&path).unwrap().bytes().is_empty());
        assert!(BookBytes::map(&dir.join("missing")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

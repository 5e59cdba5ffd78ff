//! Training checkpoints: the model, the optimiser's moments and the epoch reached, written
//! atomically after every epoch so an interrupted run resumes losing at most the epoch in
//! progress. A checkpoint made under a different configuration or dataset is not resumed.

use super::dataset::{write_cache, CacheError, CacheProblem};
use std::path::Path;
use wedge_core::framing::{Reader, Truncated, Writer};

/// Everything needed to resume a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Hash of the configuration and dataset it belongs to.
    pub config_hash: u64,
    /// Epochs completed.
    pub epoch: u32,
    /// Optimiser steps taken.
    pub step: u64,
    pub w: Vec<f32>,
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

const MAGIC: [u8; 8] = *b"WEDGECKP";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8 + 4 + 8 + 8;

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.w.len();
        let mut out = Writer::new(&MAGIC, VERSION, HEADER + 12 * n + 8);
        out.u64(self.config_hash);
        out.u32(self.epoch);
        out.u64(self.step);
        out.u64(n as u64);
        for arr in [&self.w, &self.m, &self.v] {
            for &x in arr.iter() {
                out.f32(x);
            }
        }
        out.finish()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CacheProblem> {
        let mut r = Reader::new(bytes);
        let bad = |_: Truncated| CacheProblem::NotACache("checkpoint");
        let magic = r.array::<8>().map_err(bad)?;
        if bytes.len() < HEADER + 8 || magic != MAGIC {
            return Err(bad(Truncated {
                len: bytes.len(),
                need: HEADER + 8,
            }));
        }
        let version = r.u32().map_err(bad)?;
        if version != VERSION {
            return Err(CacheProblem::CheckpointVersion(version));
        }
        let (config_hash, epoch) = (r.u64().map_err(bad)?, r.u32().map_err(bad)?);
        let (step, n) = (r.u64().map_err(bad)?, r.u64().map_err(bad)?);
        let expected = (HEADER as u64)
            .saturating_add(n.saturating_mul(12))
            .saturating_add(8);
        let body = super::dataset::check_size_and_checksum(bytes, expected)?;
        let n = n as usize;
        let floats: Vec<f32> = body[HEADER..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Checkpoint {
            config_hash,
            epoch,
            step,
            w: floats[..n].to_vec(),
            m: floats[n..2 * n].to_vec(),
            v: floats[2 * n..].to_vec(),
        })
    }

    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        write_cache(path, &self.to_bytes())
    }

    /// The checkpoint at `path`, `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, CacheError> {
        match wedge_core::paths::read_file(path) {
            Ok(bytes) => {
                Checkpoint::from_bytes(&bytes)
                    .map(Some)
                    .map_err(|problem| CacheError::Bad {
                        path: path.to_path_buf(),
                        problem,
                    })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(CacheError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_round_trip() {
        let c = Checkpoint {
            config_hash: 42,
            epoch: 3,
            step: 99,
            w: vec![1.5, -2.0, 0.25],
            m: vec![0.0, 1.0, 2.0],
            v: vec![3.0, 4.0, 5.0],
        };
        let b = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&b).unwrap(), c);
        let mut bad = b.clone();
        bad[40] ^= 1;
        assert!(Checkpoint::from_bytes(&bad).is_err());
        assert!(Checkpoint::from_bytes(&b[..b.len() - 1]).is_err());
    }
}

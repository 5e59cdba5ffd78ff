//! Training checkpoints: the model, the optimiser's moments and the epoch reached, written
//! atomically after every epoch so an interrupted run resumes losing at most the epoch in
//! progress. A checkpoint made under a different configuration or dataset is not resumed.

use crate::eval::weights::{fnv1a64, write_atomic};
use std::path::Path;

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
        let mut out = Vec::with_capacity(HEADER + 12 * n + 8);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.config_hash.to_le_bytes());
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&(n as u64).to_le_bytes());
        for arr in [&self.w, &self.m, &self.v] {
            for x in arr.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < HEADER + 8 || bytes[..8] != MAGIC {
            return Err("not a checkpoint (bad magic or too short)".into());
        }
        let u64_at = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&bytes[i..i + 8]);
            u64::from_le_bytes(a)
        };
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if u32_at(8) != VERSION {
            return Err(format!("checkpoint version {}", u32_at(8)));
        }
        let n = u64_at(32);
        let expected = (HEADER as u64)
            .saturating_add(n.saturating_mul(12))
            .saturating_add(8);
        super::dataset::check_size_and_checksum(bytes, expected)?;
        let end = bytes.len() - 8;
        let n = n as usize;
        let floats: Vec<f32> = bytes[HEADER..end]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Checkpoint {
            config_hash: u64_at(12),
            epoch: u32_at(20),
            step: u64_at(24),
            w: floats[..n].to_vec(),
            m: floats[n..2 * n].to_vec(),
            v: floats[2 * n..].to_vec(),
        })
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_atomic(path, &self.to_bytes())
            .map_err(|e| format!("cannot write checkpoint {}: {e}", path.display()))
    }

    /// The checkpoint at `path`, `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, String> {
        match std::fs::read(path) {
            Ok(bytes) => Checkpoint::from_bytes(&bytes)
                .map(Some)
                .map_err(|e| format!("checkpoint {}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read checkpoint {}: {e}", path.display())),
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

//! The CI smoke run of the fuzz targets, on the stable toolchain and without AFL++: each target
//! runs over its seed corpus (`corpus/<target>/`), then over a few thousand inputs mutated from
//! those seeds by a fixed-seed generator (bit flips, byte overwrites, insertions, deletions,
//! splices, interesting integers), plus some purely random inputs. Any panic fails the test.
//!
//! `WEDGE_FUZZ_ITERS` sets the mutated inputs per target (default 20000).
//! `cargo test -- --ignored write_binary_seeds` regenerates the binary seed files.

use std::path::{Path, PathBuf};

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target)
}

/// The repository's WTHOR files (`data/wthor`): the wthor target's seeds are cut from them.
fn wthor_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/wthor")
}

/// A game file of 1990 cut to its header and first two games, and the players' file cut to
/// its header and first two names (small seeds keep the mutations near the structure).
fn wthor_seeds() -> Vec<Vec<u8>> {
    let dir = wthor_data();
    let read = |name: &str, keep: usize| {
        let path = dir.join(name);
        let mut bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; the wthor seeds come from data/wthor",
                path.display()
            )
        });
        bytes.truncate(keep);
        bytes
    };
    vec![
        read("WTH_1990.wtb", 16 + 2 * 68),
        read("WTH_1990.wtb", 16),
        read("WTHOR.JOU", 16 + 2 * 20),
    ]
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    if target == "wthor" {
        return wthor_seeds();
    }
    let dir = corpus_dir(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// SplitMix64: small, deterministic, good enough to drive mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INTERESTING: &[u64] = &[
    0,
    1,
    2,
    0x7f,
    0x80,
    0xff,
    0x100,
    0xffff,
    0x7fff_ffff,
    u64::MAX,
];
const TOKENS: &[&[u8]] = &[
    b"(;",
    b";)",
    b"[",
    b"]",
    b"\\",
    b"B[",
    b"W[",
    b"PA",
    b"pass",
    b"%",
    b";",
    b":",
    b"/",
    b"\n",
    b"\r\n",
    b"\t",
    b"#",
    b" ",
    b"-",
    b"+",
    b"99999999999999999999",
    b"\xc3\xa9",
    b"\xff",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, pool: &[Vec<u8>]) {
    for _ in 0..1 + rng.below(4) {
        let len = input.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                input[i] = rng.next() as u8;
            }
            2 => {
                let i = rng.below(len + 1);
                input.insert(i, rng.next() as u8);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(16));
                input.drain(i..i + n);
            }
            4 => {
                let i = rng.below(len + 1);
                let tok = TOKENS[rng.below(TOKENS.len())];
                input.splice(i..i, tok.iter().copied());
            }
            5 if len > 0 => {
                // An interesting integer at a random offset, little-endian, 1 to 8 bytes.
                let v = INTERESTING[rng.below(INTERESTING.len())].to_le_bytes();
                let i = rng.below(len);
                let n = (1 << rng.below(4)).min(len - i);
                input[i..i + n].copy_from_slice(&v[..n]);
            }
            6 => {
                // Splice: a slice of another seed.
                let other = &pool[rng.below(pool.len())];
                if !other.is_empty() {
                    let a = rng.below(other.len());
                    let b = a + rng.below((other.len() - a).min(256)) + 1;
                    let i = rng.below(len + 1);
                    input.splice(i..i, other[a..b].iter().copied());
                }
            }
            7 if len > 0 => input.truncate(rng.below(len)),
            _ if len > 1 => {
                // Duplicate a chunk in place.
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                let chunk = input[i..i + n].to_vec();
                input.splice(i..i, chunk);
            }
            _ => input.push(rng.next() as u8),
        }
    }
}

fn iterations() -> usize {
    std::env::var("WEDGE_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000)
}

fn smoke(name: &str) {
    let target = wedge_fuzz::TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap()
        .1;
    let pool = seeds(name);
    assert!(!pool.is_empty(), "no seeds for {name}");
    for s in &pool {
        target(s);
    }
    let seed = name
        .bytes()
        .fold(0x5745_4447u64, |h, b| h.wrapping_mul(31) ^ u64::from(b));
    let mut rng = Rng(seed);
    for i in 0..iterations() {
        let mut input = if i % 10 == 9 {
            // Purely random bytes now and then.
            (0..rng.below(300)).map(|_| rng.next() as u8).collect()
        } else {
            pool[rng.below(pool.len())].clone()
        };
        mutate(&mut rng, &mut input, &pool);
        let result = std::panic::catch_unwind(|| target(&input));
        if result.is_err() {
            let path = std::env::temp_dir().join(format!("wedge-fuzz-{name}-crash"));
            std::fs::write(&path, &input).unwrap();
            panic!("{name}: input {i} panicked; saved to {}", path.display());
        }
    }
}

macro_rules! smoke_tests {
    ($($t:ident),*) => {$(
        #[test]
        fn $t() {
            smoke(stringify!($t));
        }
    )*};
}

smoke_tests!(nboard, gtp, console, ggf, obf, transcript, wthor, book, weights, batch, labels);

/// Every target has a test above and seeds: a seed directory, or for wthor the files in data/wthor.
#[test]
fn every_target_has_seeds() {
    for (name, _) in wedge_fuzz::TARGETS {
        assert!(!seeds(name).is_empty(), "no seeds for {name}");
    }
}

/// Writes the binary seeds (small valid files made by Wedge's own writers).
#[test]
#[ignore]
fn write_binary_seeds() {
    for (name, files) in wedge_fuzz::seeds::binary_seeds() {
        let dir = corpus_dir(name);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, bytes) in files {
            std::fs::write(dir.join(file), bytes).unwrap();
        }
    }
}

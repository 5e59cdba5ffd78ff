//! The weights file through the public API: a generated test file round-trips through disk and
//! evaluates identically; corrupted copies on disk are refused with an error naming the file.

use wedge_core::board::Board;
use wedge_core::eval::test_weights;
use wedge_core::eval::{Evaluator, PatternEval, Weights};

#[test]
fn weights_file_on_disk_round_trips_and_corruption_is_refused() {
    let dir = std::env::temp_dir().join(format!("wedge-eval-wts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("test.wts");
    let w = test_weights(3, 42);
    w.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(Weights::load(&path).unwrap(), w);
    let a = PatternEval::from_weights(&w).unwrap();
    let b = PatternEval::load(&path).unwrap();
    assert_eq!(a.eighths(&Board::START), b.eighths(&Board::START));

    let bad = dir.join("bad.wts");
    // Truncations, a flipped header byte, a flipped body byte, a wrong version.
    let mut cases: Vec<Vec<u8>> = vec![
        bytes[..bytes.len() - 1].to_vec(),
        bytes[..bytes.len() / 2].to_vec(),
        bytes[..10].to_vec(),
        Vec::new(),
    ];
    for i in [
        0usize,
        9,
        13,
        17,
        21,
        25,
        33,
        40,
        bytes.len() / 2,
        bytes.len() - 3,
    ] {
        let mut c = bytes.clone();
        c[i] ^= 0x20;
        cases.push(c);
    }
    let mut c = bytes.clone();
    c[8] = 9;
    cases.push(c);
    for case in cases {
        std::fs::write(&bad, &case).unwrap();
        let err = PatternEval::load(&bad).unwrap_err().to_string();
        assert!(err.contains("bad.wts"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shipped_weights_verify_and_serialise_to_their_own_bytes() {
    let path =
        wedge_core::paths::find_data_file("weights", "default.wts").expect("weights/default.wts");
    let bytes = std::fs::read(&path).unwrap();
    let w = Weights::from_bytes(&bytes).unwrap();
    assert_eq!(w.to_bytes().unwrap(), bytes);
}

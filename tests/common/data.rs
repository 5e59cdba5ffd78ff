//! The repository's own test data: the FFO suites in `data/ffo` and the WTHOR games in
//! `data/wthor`. A missing file fails the test that needs it.

use std::path::PathBuf;

/// `data/<rel>` in the checkout; panics, naming the path, when it is not there.
pub fn data_path(rel: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(rel);
    assert!(
        path.exists(),
        "{} is missing: the test data ships in the repository's data/ folder",
        path.display()
    );
    path
}

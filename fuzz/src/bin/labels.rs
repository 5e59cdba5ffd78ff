//! AFL++ harness for the `labels` target (see src/lib.rs); build with `cargo afl build`.
fn main() {
    afl::fuzz!(|data: &[u8]| wedge_fuzz::labels(data));
}

//! AFL++ harness for the `ggf` target (see src/lib.rs); build with `cargo afl build`.
fn main() {
    afl::fuzz!(|data: &[u8]| wedge_fuzz::ggf(data));
}

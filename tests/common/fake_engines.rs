//! Small fake engines (shell scripts) for the tests that drive engines over NBoard.

/// An NBoard engine that answers pings, then does `on_go` (shell) when asked to move.
pub fn fake_nboard(on_go: &str) -> String {
    format!(
        "sh -c 'while read -r c a; do case \"$c\" in ping) echo \"pong $a\";; go) {on_go};; esac; done'"
    )
}

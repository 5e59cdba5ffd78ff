//! `wedge tree`: the search tree of a position as one self-contained HTML file.

use super::{parse_board_or_transcript, write_file, CliError, Common};
use clap::Args;
use std::path::PathBuf;

/// `wedge tree`.
#[derive(Args)]
pub struct TreeArgs {
    /// A board string (64 squares and the side to move) or a move transcript from the start.
    pub position: String,
    /// Depth in plies.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
    /// Output file.
    #[arg(long, short, default_value = "tree.html")]
    pub out: PathBuf,
}

/// Records the tree, writes the page and says what it holds.
pub fn run(common: &Common, args: &TreeArgs) -> Result<(), CliError> {
    let board = parse_board_or_transcript(&args.position)?;
    let eval = common.builder().evaluation()?;
    let tree = wedge_lab::tools::tree::record(&eval, &board, args.depth)?;
    let title = format!("Search tree: {}, depth {}", args.position, args.depth);
    write_file(
        &args.out,
        wedge_lab::tools::tree::to_html(&tree, &title).as_bytes(),
    )?;
    let bad = tree.nodes.iter().filter(|n| n.violation.is_some()).count();
    println!(
        "{}: {} nodes, root value {}, {} invariant violations",
        args.out.display(),
        tree.nodes.len(),
        tree.nodes[0].value,
        bad
    );
    Ok(())
}

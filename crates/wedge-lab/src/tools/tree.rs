//! `wedge tree`: records a principal-variation search (the search's own rule for each move,
//! [`principal_variation_rule`], with its evaluation; mobility order and no table, so every
//! node is shown) and writes one self-contained HTML file showing each node's window, value
//! and cut-off, with the negamax invariant checked at every interior node.

use crate::tools::html::{escape, page};
use std::fmt::Write as _;
use wedge_core::board::{Board, Move};
use wedge_core::eval::Evaluator;
use wedge_core::search::{mobility_order, principal_variation_rule};

/// One recorded node.
#[derive(Clone, Debug)]
pub struct TreeNode {
    /// The move that led here (`None` at the root).
    pub mv: Option<Move>,
    pub alpha: i32,
    pub beta: i32,
    pub depth: u32,
    pub value: i32,
    /// Searched with a null window (a scout search).
    pub scout: bool,
    /// The search stopped early at this node because a value reached beta.
    pub cutoff: bool,
    pub children: Vec<usize>,
    /// Why the negamax invariant fails here, if it does.
    pub violation: Option<String>,
}

/// A recorded search tree; `nodes[0]` is the root.
#[derive(Clone, Debug, Default)]
pub struct SearchTree {
    pub nodes: Vec<TreeNode>,
}

/// Most nodes recorded (a deeper request is refused rather than writing a huge file).
pub const MAX_NODES: usize = 200_000;

/// The search has more than [`MAX_NODES`] nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than {MAX_NODES} nodes: choose a smaller depth")]
pub struct TreeTooLarge;

struct Recorder<'a, E: Evaluator> {
    eval: &'a E,
    tree: SearchTree,
}

impl<E: Evaluator> Recorder<'_, E> {
    fn node(&mut self, mv: Option<Move>, alpha: i32, beta: i32, depth: u32) -> usize {
        self.tree.nodes.push(TreeNode {
            mv,
            alpha,
            beta,
            depth,
            value: 0,
            scout: beta == alpha + 1,
            cutoff: false,
            children: Vec::new(),
            violation: None,
        });
        self.tree.nodes.len() - 1
    }

    fn search(
        &mut self,
        b: Board,
        mv: Option<Move>,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> Result<(usize, i32), TreeTooLarge> {
        if self.tree.nodes.len() >= MAX_NODES {
            return Err(TreeTooLarge);
        }
        let id = self.node(mv, alpha, beta, depth);
        let moves = b.legal_moves();
        let value = if moves == 0 && b.pass().legal_moves() == 0 {
            b.final_score()
        } else if depth == 0 {
            self.eval.discs(&b)
        } else if moves == 0 {
            let (child, v) = self.search(b.pass(), Some(Move::Pass), -beta, -alpha, depth - 1)?;
            self.tree.nodes[id].children.push(child);
            -v
        } else {
            let order = mobility_order(&b);
            let (mut a, mut best) = (alpha, i32::MIN);
            for (i, &sq) in order.iter().enumerate() {
                let child_board = b.play(sq).expect("a legal move");
                let mv = Some(Move::Play(sq));
                let v = principal_variation_rule(i, (a, beta), |(lo, hi), _| {
                    let (child, cv) = self.search(child_board, mv, -hi, -lo, depth - 1)?;
                    self.tree.nodes[id].children.push(child);
                    Ok(-cv)
                })?;
                best = best.max(v);
                if v > a {
                    a = v;
                }
                if v >= beta {
                    self.tree.nodes[id].cutoff = i + 1 < order.len();
                    break;
                }
            }
            best
        };
        self.tree.nodes[id].value = value;
        Ok((id, value))
    }
}

/// Records the search of `board` to `depth` with a full window.
pub fn record<E: Evaluator>(
    eval: &E,
    board: &Board,
    depth: u32,
) -> Result<SearchTree, TreeTooLarge> {
    let mut r = Recorder {
        eval,
        tree: SearchTree::default(),
    };
    r.search(*board, None, -64, 64, depth)?;
    check_invariant(&mut r.tree);
    Ok(r.tree)
}

/// Marks every interior node whose value is not the negamax of its children: the maximum of
/// the negated values of its final searches (a re-searched move counts once, by its last
/// search), and, after a cut-off, at least beta.
pub(crate) fn check_invariant(tree: &mut SearchTree) -> usize {
    let mut bad = 0;
    for id in 0..tree.nodes.len() {
        let n = &tree.nodes[id];
        if n.children.is_empty() {
            continue;
        }
        // Keep the last search of each move.
        let mut last: Vec<(Option<Move>, i32)> = Vec::new();
        for &c in &n.children {
            let child = &tree.nodes[c];
            match last.iter_mut().find(|(m, _)| *m == child.mv) {
                Some(e) => e.1 = -child.value,
                None => last.push((child.mv, -child.value)),
            }
        }
        let max = last.iter().map(|x| x.1).max().unwrap_or(i32::MIN);
        let problem = if n.value != max {
            Some(format!(
                "value {} but the best child gives {}",
                n.value, max
            ))
        } else if n.cutoff && n.value < n.beta {
            Some(format!(
                "cut off with value {} below beta {}",
                n.value, n.beta
            ))
        } else {
            None
        };
        if problem.is_some() {
            bad += 1;
        }
        tree.nodes[id].violation = problem;
    }
    bad
}

/// The tree as one self-contained HTML page (collapsible nodes, no external resources).
pub fn to_html(tree: &SearchTree, title: &str) -> String {
    let violations = tree.nodes.iter().filter(|n| n.violation.is_some()).count();
    let cutoffs = tree.nodes.iter().filter(|n| n.cutoff).count();
    let mut s = String::with_capacity(tree.nodes.len() * 160);
    let _ = write!(
        s,
        "<h1>{t}</h1><p>{n} nodes, {c} cut-offs, {v} invariant violations. Each line: move, \
         depth, window (alpha, beta), value. <span class=\"cut\">cut</span> = stopped early at \
         beta; grey = null-window search.</p>",
        t = escape(title),
        n = tree.nodes.len(),
        c = cutoffs,
        v = violations
    );
    if !tree.nodes.is_empty() {
        write_node(tree, 0, &mut s);
    }
    page(title, STYLE, &s, "")
}

/// The page's style sheet.
const STYLE: &str = "body{font:13px monospace;margin:1em} details{margin-left:1.4em} \
    summary{cursor:pointer} .cut{color:#b35c00} .bad{color:#fff;background:#c00} \
    .scout{color:#666} .leaf{margin-left:2.6em} .v{font-weight:bold}";

fn write_node(tree: &SearchTree, id: usize, s: &mut String) {
    let n = &tree.nodes[id];
    let label = n.mv.map_or("root".to_string(), |m| m.to_string());
    let mut class = String::new();
    if n.scout {
        class.push_str("scout ");
    }
    if n.cutoff {
        class.push_str("cut ");
    }
    let mut line = format!(
        "<span class=\"{}\">{} d{} ({}, {}) = <span class=\"v\">{}</span>{}</span>",
        class.trim(),
        label,
        n.depth,
        n.alpha,
        n.beta,
        n.value,
        if n.cutoff { " cut" } else { "" }
    );
    if let Some(v) = &n.violation {
        let _ = write!(line, " <span class=\"bad\">{}</span>", escape(v));
    }
    if n.children.is_empty() {
        let _ = write!(s, "<div class=\"leaf\">{line}</div>");
    } else {
        let open = if id == 0 { " open" } else { "" };
        let _ = write!(s, "<details{open}><summary>{line}</summary>");
        for &c in &n.children {
            write_node(tree, c, s);
        }
        s.push_str("</details>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::eval::Heuristic;

    #[test]
    fn recorded_tree_satisfies_negamax_and_matches_plain_alpha_beta() {
        let b = Board::START
            .play(wedge_core::board::Square::from_index(37))
            .unwrap();
        let tree = record(&Heuristic, &b, 4).unwrap();
        assert!(tree.nodes.iter().all(|n| n.violation.is_none()));
        assert!(tree.nodes.iter().any(|n| n.cutoff));
        // The root value equals a plain full-window negamax.
        fn negamax(b: Board, d: u32) -> i32 {
            let m = b.legal_moves();
            if m == 0 && b.pass().legal_moves() == 0 {
                return b.final_score();
            }
            if d == 0 {
                return Heuristic.discs(&b);
            }
            if m == 0 {
                return -negamax(b.pass(), d - 1);
            }
            wedge_core::board::Squares(m)
                .map(|sq| -negamax(b.play(sq).unwrap(), d - 1))
                .max()
                .unwrap()
        }
        assert_eq!(tree.nodes[0].value, negamax(b, 4));
        let html = to_html(&tree, "test");
        assert!(html.starts_with("<!DOCTYPE html>") && html.contains("0 invariant violations"));
    }

    #[test]
    fn a_wrong_value_is_flagged() {
        let b = Board::START;
        let mut tree = record(&Heuristic, &b, 2).unwrap();
        tree.nodes[0].value += 1;
        assert_eq!(check_invariant(&mut tree), 1);
        assert!(to_html(&tree, "t").contains("class=\"bad\""));
    }
}

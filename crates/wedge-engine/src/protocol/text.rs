//! Text shared by the protocols: the board drawing with coordinates, whose turn and the legal
//! moves; scores and principal variations; the result line of a finished game.

use std::fmt::Write as _;
use wedge_core::board::{Move, Square, Squares};
use wedge_core::formats::{Color, Position};

/// A board drawing: columns `a`-`h` across, rows 1-8 down (a1 top left), `X` Black, `O`
/// White, `*` on the legal moves of the side to move, `.` elsewhere; then whose turn it is
/// (or the result), the disc counts and the legal moves.
pub fn drawing(pos: &Position) -> String {
    let legal = pos.board.legal_moves();
    let mut s = String::from("  a b c d e f g h\n");
    for row in 0..8u8 {
        let _ = write!(s, "{}", row + 1);
        for col in 0..8u8 {
            let c = match Square::from_coords(col, row) {
                Some(sq) => match pos.color_at(sq) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if legal & sq.bit() != 0 => '*',
                    None => '.',
                },
                None => '?',
            };
            let _ = write!(s, " {c}");
        }
        let _ = writeln!(s, " {}", row + 1);
    }
    s.push_str("  a b c d e f g h\n");
    let (b, w) = counts(pos);
    if pos.board.is_game_over() {
        let _ = write!(s, "game over: {}", result_text(pos));
    } else {
        let _ = write!(
            s,
            "{} to move; black {b}, white {w}; legal: {}",
            side_name(pos.to_move),
            legal_list(pos)
        );
    }
    s
}

/// `black (X)` or `white (O)`.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black (X)",
        Color::White => "white (O)",
    }
}

/// Disc counts `(black, white)`.
pub fn counts(pos: &Position) -> (u32, u32) {
    (pos.black().count_ones(), pos.white().count_ones())
}

/// The legal moves in lower case separated by spaces, `pass` when forced, `none` at the end.
pub fn legal_list(pos: &Position) -> String {
    let moves = pos.board.moves();
    if moves.is_empty() {
        return "none".into();
    }
    if moves == [Move::Pass] {
        return "pass".into();
    }
    let v: Vec<String> = Squares(pos.board.legal_moves())
        .map(|q| q.to_string())
        .collect();
    v.join(" ")
}

/// Black's final margin with the empties going to the winner (the WOF/GGS rule).
pub fn black_margin(pos: &Position) -> i32 {
    let s = pos.board.final_score();
    match pos.to_move {
        Color::Black => s,
        Color::White => -s,
    }
}

/// `Black wins 40-24 (+16)`, `White wins ...` or `draw 32-32`, counting the discs on the board
/// and giving the empties to the winner in the margin.
pub fn result_text(pos: &Position) -> String {
    let (b, w) = counts(pos);
    let m = black_margin(pos);
    match m.cmp(&0) {
        std::cmp::Ordering::Greater => format!("black wins {b}-{w} (+{m})"),
        std::cmp::Ordering::Less => format!("white wins {w}-{b} (+{})", -m),
        std::cmp::Ordering::Equal => format!("draw {b}-{w}"),
    }
}

/// Moves in upper case (`F5`, `PA`).
pub fn upper(mv: Move) -> String {
    mv.to_string().to_ascii_uppercase()
}

/// A principal variation as upper-case moves joined by `sep`.
pub fn pv_text(pv: &[Move], sep: &str) -> String {
    let v: Vec<String> = pv.iter().map(|&m| upper(m)).collect();
    v.join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_the_start() {
        let d = drawing(&Position::START);
        assert!(d.contains("4 . . * O X . . . 4"), "{d}");
        assert!(d.ends_with("legal: d3 c4 f5 e6"), "{d}");
        assert_eq!(result_text(&Position::START), "draw 2-2");
    }
}

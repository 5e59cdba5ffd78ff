//! GGF game records (GGS, NBoard): `(;GM[Othello]PB[..]…BO[8 … *]B[f5//1.2]W[d6];)`.
//!
//! What is kept and how:
//! - `GM` must be `Othello` (any case) when present; it is always printed.
//! - `PB`, `PW`, `PC`, `DT` go to [`Game::info`] (`black`, `white`, `event`, `date`) verbatim.
//! - `RB`, `RW` (ratings) are parsed as numbers; `RE` as a [`GgfResult`] (`+12.5`, `-3:r`, `?`).
//! - `TI`, `TB`, `TW` (clocks) are kept as the raw text; [`parse_clock`](super::parse_clock)
//!   reads them into milliseconds when needed.
//! - `TY` is parsed into a [`GameType`]. Only 8x8 boards are supported: the flags `s` (synchro),
//!   `k` (komi), `a` (anti), `r`/`rN` (random start), `b`/`w` (colour preference) are accepted and
//!   kept, any other size (`10`, `88`, …) is an error. `BO` must be of type `8`; without `BO` the
//!   standard start is assumed.
//! - `B`/`W` moves are replayed and must be legal; a missing forced pass (a move by the wrong
//!   colour when the side to move has no square) is inserted. Per-move eval and time are kept as
//!   [`MoveNote`]s.
//! - Any other tag (`KB`, `KW`, `KM`, `CO`, …) is kept, in order, in [`GgfGame::other_tags`] and
//!   printed after `BO` (their position among the moves is not kept).
//!
//! Values may escape `]` and `\` with a backslash; printing escapes them the same way. A file may
//! hold several games, each optionally preceded by a GGS count (`1 (;…;)`, `2 (;…;)(;…;)`).

use super::board_string::{format_cells, parse_position, BoardStringErrorKind};
use super::error::TextLocation;
use super::game::{needs_inferred_pass, Game, IllegalReason};
use super::move_item::{
    format_move_item, parse_finite, parse_move_item, MoveItem, MoveItemError, MoveNote,
};
use super::{parse_clock, Clock, ClockError, Color, Position};
use crate::board::Move;
use std::collections::HashSet;
use std::fmt;

/// The `TY` game type of an 8x8 game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GameType {
    /// `s`: one of a synchro pair.
    pub synchro: bool,
    /// `k`: komi game.
    pub komi: bool,
    /// `a`: anti-Othello (fewest discs wins).
    pub anti: bool,
    /// `r` or `rN`: random start, with the disc count when written.
    pub random: Option<Option<u32>>,
    /// `b` / `w`: colour preference (match requests only).
    pub preference: Option<Color>,
}

/// How a game ended, from the `RE` suffix.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum GgfResultKind {
    #[default]
    Normal,
    /// `:r`
    Resigned,
    /// `:t`
    Timeout,
    /// `:s` (mutually agreed score)
    Agreed,
    /// `:l` (adjourned or left)
    Left,
}

/// The `RE` result: Black's margin in discs (`None` for `?`, unfinished) and how it ended.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct GgfResult {
    pub black_margin: Option<f64>,
    pub kind: GgfResultKind,
}

/// A tag this parser does not interpret, kept verbatim (value unescaped).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GgfTag {
    pub name: String,
    pub value: String,
}

/// One GGF game: the replayed [`Game`] (names in its `info`), the per-move notes and the header.
#[derive(Clone, PartialEq, Debug)]
pub struct GgfGame {
    pub black_rating: Option<f64>,
    pub white_rating: Option<f64>,
    /// `TI`: both players' clock, raw text.
    pub clock_both: Option<String>,
    /// `TB`: Black's clock, raw text.
    pub clock_black: Option<String>,
    /// `TW`: White's clock, raw text.
    pub clock_white: Option<String>,
    pub game_type: Option<GameType>,
    pub result: Option<GgfResult>,
    pub other_tags: Vec<GgfTag>,
    game: Game,
    /// One per move of `game` (inferred passes get an empty note).
    notes: Vec<MoveNote>,
}

impl GgfGame {
    /// A record of `game` with no header fields and no move notes.
    pub fn from_game(game: Game) -> GgfGame {
        let notes = vec![MoveNote::default(); game.moves().len()];
        GgfGame {
            black_rating: None,
            white_rating: None,
            clock_both: None,
            clock_black: None,
            clock_white: None,
            game_type: None,
            result: None,
            other_tags: Vec::new(),
            game,
            notes,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The names (`PB`, `PW`, `PC`, `DT`) live in the game's info.
    pub fn info_mut(&mut self) -> &mut super::GameInfo {
        &mut self.game.info
    }

    pub fn into_game(self) -> Game {
        self.game
    }

    /// Black's and White's clocks at the start: `TB` and `TW`, else `TI` (none: no clock).
    /// Every clock written must parse, `TI` first.
    pub fn start_clocks(&self) -> Result<[Option<Clock>; 2], ClockError> {
        let parse = |text: &Option<String>| text.as_deref().map(parse_clock).transpose();
        let both = parse(&self.clock_both)?;
        Ok([
            parse(&self.clock_black)?.or(both),
            parse(&self.clock_white)?.or(both),
        ])
    }

    /// The note of each move, parallel to `game().moves()`.
    pub fn notes(&self) -> &[MoveNote] {
        &self.notes
    }

    /// The moves with their notes.
    pub fn items(&self) -> impl Iterator<Item = MoveItem> + '_ {
        self.game
            .moves()
            .iter()
            .zip(&self.notes)
            .map(|(&mv, &note)| MoveItem { mv, note })
    }

    /// Plays a move with its note, if legal.
    pub fn play(&mut self, item: MoveItem) -> Result<(), IllegalReason> {
        self.game.play(item.mv)?;
        self.notes.push(item.note);
        Ok(())
    }
}

/// What is wrong in a GGF text.
#[derive(Clone, PartialEq, Debug, thiserror::Error)]
pub enum GgfErrorKind {
    #[error("no game found (expected \"(;\")")]
    NoGame,
    #[error("unexpected {found:?} outside a game (expected \"(;\")")]
    UnexpectedText { found: char },
    #[error("text after the game")]
    TrailingText,
    #[error("the game is not closed with \";)\"")]
    UnterminatedGame,
    #[error("unexpected {found:?} where a tag (upper-case letters) or \";)\" was expected")]
    BadTag { found: char },
    #[error("tag {tag} has no [value]")]
    MissingValue { tag: String },
    #[error("the value of {tag} is not closed with ']'")]
    UnterminatedValue { tag: String },
    #[error("GM[{found}] is not an Othello game")]
    NotOthello { found: String },
    #[error("tag {tag} appears twice")]
    DuplicateTag { tag: String },
    #[error("{tag}[{found}] is not a number")]
    BadNumber { tag: String, found: String },
    #[error("TY[{found}] is not a game type (expected e.g. 8, s8r20, 8k)")]
    BadGameType { found: String },
    #[error("board size {found:?} is not supported (only 8x8)")]
    UnsupportedBoardSize { found: String },
    #[error("RE[{found}] is not a result (expected e.g. +12.00, -3:r or ?)")]
    BadResult { found: String },
    #[error("BO board: {0}")]
    Board(BoardStringErrorKind),
    #[error("move {move_number}: {error}")]
    BadMove {
        move_number: usize,
        error: MoveItemError,
    },
    #[error("move {move_number}: a {found} move where {expected} is to move")]
    WrongColor {
        move_number: usize,
        expected: Color,
        found: Color,
    },
    #[error("move {move_number}: {mv} by {to_move} is illegal: {reason}")]
    IllegalMove {
        move_number: usize,
        mv: Move,
        to_move: Color,
        reason: IllegalReason,
    },
}

/// A GGF error and where it is in the whole text.
#[derive(Clone, PartialEq, Debug, thiserror::Error)]
#[error("GGF {location}: {kind}")]
pub struct GgfError {
    pub location: TextLocation,
    pub kind: GgfErrorKind,
}

fn error_at(text: &str, offset: usize, kind: GgfErrorKind) -> GgfError {
    GgfError {
        location: TextLocation::of_offset(text, offset),
        kind,
    }
}

/// One `TAG[value]` with the byte offsets of the tag and of the value's first character.
struct Property {
    tag: String,
    tag_offset: usize,
    value: String,
    value_offset: usize,
}

/// A lexical error: byte offset and reason.
type LexError = (usize, GgfErrorKind);

/// Reads the properties of the game whose `(;` starts at `start`; returns them and the offset
/// just past the closing `;)`.
fn lex_game(text: &str, start: usize) -> Result<(Vec<Property>, usize), LexError> {
    let bytes = text.as_bytes();
    let mut pos = start + 2;
    let mut props = Vec::new();
    loop {
        while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
            pos += 1;
        }
        match bytes.get(pos) {
            None => return Err((start, GgfErrorKind::UnterminatedGame)),
            Some(b';') if bytes.get(pos + 1) == Some(&b')') => return Ok((props, pos + 2)),
            Some(b) if b.is_ascii_uppercase() => {
                let (prop, next) = lex_property(text, pos)?;
                props.push(prop);
                pos = next;
            }
            Some(_) => {
                let found = text
                    .get(pos..)
                    .and_then(|s| s.chars().next())
                    .unwrap_or('?');
                return Err((pos, GgfErrorKind::BadTag { found }));
            }
        }
    }
}

/// Reads `TAG[value]` at `pos` (which holds an upper-case letter).
fn lex_property(text: &str, pos: usize) -> Result<(Property, usize), LexError> {
    let bytes = text.as_bytes();
    let tag_end = pos
        + bytes
            .get(pos..)
            .unwrap_or(&[])
            .iter()
            .take_while(|b| b.is_ascii_uppercase())
            .count();
    let tag = text.get(pos..tag_end).unwrap_or("").to_string();
    let mut open = tag_end;
    while bytes.get(open).is_some_and(u8::is_ascii_whitespace) {
        open += 1;
    }
    if bytes.get(open) != Some(&b'[') {
        return Err((tag_end, GgfErrorKind::MissingValue { tag }));
    }
    let value_offset = open + 1;
    let (value, close) = read_value(text, value_offset).ok_or_else(|| {
        (
            value_offset,
            GgfErrorKind::UnterminatedValue { tag: tag.clone() },
        )
    })?;
    let prop = Property {
        tag,
        tag_offset: pos,
        value,
        value_offset,
    };
    Ok((prop, close + 1))
}

/// Reads an escaped value from `start` up to the closing `]`; returns it and the `]` offset.
fn read_value(text: &str, start: usize) -> Option<(String, usize)> {
    let rest = text.get(start..)?;
    let mut value = String::new();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            ']' => return Some((value, start + i)),
            '\\' => value.push(chars.next()?.1),
            _ => value.push(c),
        }
    }
    None
}

/// Escapes `\` and `]` for printing inside `[...]`.
fn escape_value(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '\\' || c == ']' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Parses a `TY` value.
fn parse_game_type(value: &str) -> Result<GameType, GgfErrorKind> {
    let bad = || GgfErrorKind::BadGameType {
        found: value.to_string(),
    };
    let text = value.trim();
    let mut ty = GameType::default();
    let rest = match text.strip_prefix('s') {
        Some(r) => {
            ty.synchro = true;
            r
        }
        None => text,
    };
    let size_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (size, mut flags) = rest.split_at(size_len);
    if size.is_empty() {
        return Err(bad());
    }
    if size != "8" {
        return Err(GgfErrorKind::UnsupportedBoardSize {
            found: size.to_string(),
        });
    }
    while let Some(flag) = flags.chars().next() {
        flags = flags.get(1..).unwrap_or("");
        match flag {
            'k' => ty.komi = true,
            'a' => ty.anti = true,
            'b' => ty.preference = Some(Color::Black),
            'w' => ty.preference = Some(Color::White),
            'r' => {
                let digits = flags.bytes().take_while(u8::is_ascii_digit).count();
                let (count, after) = flags.split_at(digits);
                ty.random = Some(if count.is_empty() {
                    None
                } else {
                    Some(count.parse().map_err(|_| bad())?)
                });
                flags = after;
            }
            _ => return Err(bad()),
        }
    }
    Ok(ty)
}

/// Prints a game type in the order `s 8 k a rN b|w`.
fn format_game_type(ty: &GameType) -> String {
    let mut s = String::new();
    if ty.synchro {
        s.push('s');
    }
    s.push('8');
    if ty.komi {
        s.push('k');
    }
    if ty.anti {
        s.push('a');
    }
    match ty.random {
        Some(Some(n)) => s.push_str(&format!("r{n}")),
        Some(None) => s.push('r'),
        None => {}
    }
    match ty.preference {
        Some(Color::Black) => s.push('b'),
        Some(Color::White) => s.push('w'),
        None => {}
    }
    s
}

/// Parses an `RE` value: `?`, or a signed margin, optionally followed by `:r`, `:t`, `:s`, `:l`.
fn parse_result(value: &str) -> Result<GgfResult, GgfErrorKind> {
    let bad = || GgfErrorKind::BadResult {
        found: value.to_string(),
    };
    let (score, suffix) = value.trim().split_once(':').unwrap_or((value.trim(), ""));
    let kind = match suffix {
        "" => GgfResultKind::Normal,
        "r" => GgfResultKind::Resigned,
        "t" => GgfResultKind::Timeout,
        "s" => GgfResultKind::Agreed,
        "l" => GgfResultKind::Left,
        _ => return Err(bad()),
    };
    let black_margin = match score {
        "?" => None,
        s => Some(parse_finite(s).ok_or_else(bad)?),
    };
    Ok(GgfResult { black_margin, kind })
}

fn format_result(result: &GgfResult) -> String {
    let mut s = match result.black_margin {
        Some(m) => format!("{m:+}"),
        None => "?".to_string(),
    };
    s.push_str(match result.kind {
        GgfResultKind::Normal => "",
        GgfResultKind::Resigned => ":r",
        GgfResultKind::Timeout => ":t",
        GgfResultKind::Agreed => ":s",
        GgfResultKind::Left => ":l",
    });
    s
}

/// Parses a `BO` value `8 <64 cells> <side>`; on error returns the byte offset in the value.
fn parse_board(value: &str) -> Result<Position, (usize, GgfErrorKind)> {
    let lead = value.len() - value.trim_start().len();
    let body = value.trim_start();
    let type_len = body.find(char::is_whitespace).unwrap_or(body.len());
    let (board_type, cells) = body.split_at(type_len);
    if board_type != "8" {
        return Err((
            lead,
            GgfErrorKind::UnsupportedBoardSize {
                found: board_type.to_string(),
            },
        ));
    }
    parse_position(cells).map_err(|e| {
        let within = cells
            .char_indices()
            .nth(e.column.saturating_sub(1))
            .map_or(cells.len(), |(i, _)| i);
        (lead + type_len + within, GgfErrorKind::Board(e.kind))
    })
}

/// Accumulates a game while its properties are read.
struct GameBuilder {
    record: GgfGame,
    seen: HashSet<String>,
}

impl GameBuilder {
    fn new() -> GameBuilder {
        GameBuilder {
            record: GgfGame::from_game(Game::new(Position::START)),
            seen: HashSet::new(),
        }
    }

    /// Applies one header property (anything but `B`, `W`, `BO`).
    fn header(&mut self, prop: &Property) -> Result<(), GgfErrorKind> {
        let known = matches!(
            prop.tag.as_str(),
            "GM" | "PC" | "DT" | "PB" | "PW" | "RB" | "RW" | "TI" | "TB" | "TW" | "TY" | "RE"
        );
        if known && !self.seen.insert(prop.tag.clone()) {
            return Err(GgfErrorKind::DuplicateTag {
                tag: prop.tag.clone(),
            });
        }
        let value = prop.value.clone();
        let r = &mut self.record;
        match prop.tag.as_str() {
            "GM" if value.trim().eq_ignore_ascii_case("othello") => {}
            "GM" => return Err(GgfErrorKind::NotOthello { found: value }),
            "PC" => r.game.info.event = Some(value),
            "DT" => r.game.info.date = Some(value),
            "PB" => r.game.info.black = Some(value),
            "PW" => r.game.info.white = Some(value),
            "RB" => r.black_rating = parse_rating(&prop.tag, &value)?,
            "RW" => r.white_rating = parse_rating(&prop.tag, &value)?,
            "TI" => r.clock_both = Some(value),
            "TB" => r.clock_black = Some(value),
            "TW" => r.clock_white = Some(value),
            "TY" => r.game_type = Some(parse_game_type(&value)?),
            "RE" if value.trim().is_empty() => {}
            "RE" => r.result = Some(parse_result(&value)?),
            _ => r.other_tags.push(GgfTag {
                name: prop.tag.clone(),
                value,
            }),
        }
        Ok(())
    }

    /// Plays the `move_number`-th move property (`B` or `W`).
    fn play(&mut self, prop: &Property, move_number: usize) -> Result<(), GgfErrorKind> {
        let color = if prop.tag == "B" {
            Color::Black
        } else {
            Color::White
        };
        let item = parse_move_item(&prop.value)
            .map_err(|error| GgfErrorKind::BadMove { move_number, error })?;
        let current = self.record.game.position();
        if color != current.to_move {
            if !needs_inferred_pass(&current, item.mv) {
                return Err(GgfErrorKind::WrongColor {
                    move_number,
                    expected: current.to_move,
                    found: color,
                });
            }
            self.push(Move::Pass, MoveNote::default(), move_number)?;
        }
        self.push(item.mv, item.note, move_number)
    }

    fn push(&mut self, mv: Move, note: MoveNote, move_number: usize) -> Result<(), GgfErrorKind> {
        let to_move = self.record.game.position().to_move;
        self.record
            .play(MoveItem { mv, note })
            .map_err(|reason| GgfErrorKind::IllegalMove {
                move_number,
                mv,
                to_move,
                reason,
            })
    }
}

/// A rating: a number, or blank for none.
fn parse_rating(tag: &str, value: &str) -> Result<Option<f64>, GgfErrorKind> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    parse_finite(value)
        .map(Some)
        .ok_or_else(|| GgfErrorKind::BadNumber {
            tag: tag.to_string(),
            found: value.to_string(),
        })
}

fn is_move_tag(tag: &str) -> bool {
    tag == "B" || tag == "W"
}

/// Builds the game from its properties: header first, then `BO`, then the moves in order.
fn interpret(text: &str, props: &[Property]) -> Result<GgfGame, GgfError> {
    let mut builder = GameBuilder::new();
    for prop in props
        .iter()
        .filter(|p| !is_move_tag(&p.tag) && p.tag != "BO")
    {
        builder
            .header(prop)
            .map_err(|kind| error_at(text, prop.value_offset, kind))?;
    }
    let mut boards = props.iter().filter(|p| p.tag == "BO");
    if let Some(bo) = boards.next() {
        let start = parse_board(&bo.value)
            .map_err(|(within, kind)| error_at(text, bo.value_offset + within, kind))?;
        let info = builder.record.game.info.clone();
        builder.record.game = Game::new(start);
        builder.record.game.info = info;
    }
    if let Some(second) = boards.next() {
        let kind = GgfErrorKind::DuplicateTag {
            tag: "BO".to_string(),
        };
        return Err(error_at(text, second.tag_offset, kind));
    }
    for (i, prop) in props.iter().filter(|p| is_move_tag(&p.tag)).enumerate() {
        builder
            .play(prop, i + 1)
            .map_err(|kind| error_at(text, prop.value_offset, kind))?;
    }
    Ok(builder.record)
}

/// Iterator over the games of a GGF text; see [`parse_ggf_games`].
pub struct GgfGames<'a> {
    text: &'a str,
    pos: usize,
}

impl GgfGames<'_> {
    /// Skips whitespace and GGS game counts (`1 `, `2 `) between games.
    fn skip_separators(&mut self) {
        let bytes = self.text.as_bytes();
        while bytes
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_whitespace() || b.is_ascii_digit())
        {
            self.pos += 1;
        }
    }

    /// Moves to the next `(;` after `from`, or to the end.
    fn resync(&mut self, from: usize) {
        self.pos = self
            .text
            .get(from..)
            .and_then(|s| s.find("(;"))
            .map_or(self.text.len(), |i| from + i);
    }
}

impl Iterator for GgfGames<'_> {
    type Item = Result<GgfGame, GgfError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.skip_separators();
        let rest = self.text.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let start = self.pos;
        if !rest.starts_with("(;") {
            let found = rest.chars().next().unwrap_or('?');
            self.resync(start + 1);
            let kind = GgfErrorKind::UnexpectedText { found };
            return Some(Err(error_at(self.text, start, kind)));
        }
        match lex_game(self.text, start) {
            Ok((props, end)) => {
                self.pos = end;
                Some(interpret(self.text, &props))
            }
            Err((offset, kind)) => {
                self.resync(start + 2);
                Some(Err(error_at(self.text, offset, kind)))
            }
        }
    }
}

/// The games of a GGF file or stream, each parsed on its own: a bad game yields an error and
/// the reader goes on with the next `(;`.
pub fn parse_ggf_games(text: &str) -> GgfGames<'_> {
    GgfGames { text, pos: 0 }
}

/// Parses exactly one game (optionally preceded by a GGS count and surrounded by whitespace).
pub fn parse_ggf(text: &str) -> Result<GgfGame, GgfError> {
    let mut games = parse_ggf_games(text);
    let game = games
        .next()
        .unwrap_or_else(|| Err(error_at(text, text.len(), GgfErrorKind::NoGame)))?;
    games.skip_separators();
    if games.pos < text.len() {
        return Err(error_at(text, games.pos, GgfErrorKind::TrailingText));
    }
    Ok(game)
}

fn push_tag(out: &mut String, tag: &str, value: &str) {
    out.push_str(tag);
    out.push('[');
    out.push_str(&escape_value(value));
    out.push(']');
}

/// Prints a game in NBoard's tag order (`GM PC DT PB PW RE RB RW TI TB TW TY BO`, other tags,
/// moves) on one line.
pub fn format_ggf(record: &GgfGame) -> String {
    let mut s = String::from("(;GM[Othello]");
    let info = &record.game.info;
    let optional = [
        ("PC", info.event.clone()),
        ("DT", info.date.clone()),
        ("PB", info.black.clone()),
        ("PW", info.white.clone()),
        ("RE", record.result.as_ref().map(format_result)),
        ("RB", record.black_rating.map(|r| r.to_string())),
        ("RW", record.white_rating.map(|r| r.to_string())),
        ("TI", record.clock_both.clone()),
        ("TB", record.clock_black.clone()),
        ("TW", record.clock_white.clone()),
        ("TY", record.game_type.as_ref().map(format_game_type)),
    ];
    for (tag, value) in optional {
        if let Some(v) = value {
            push_tag(&mut s, tag, &v);
        }
    }
    let start = record.game.start();
    let side = match start.to_move {
        Color::Black => '*',
        Color::White => 'O',
    };
    let board = format!("8 {} {side}", format_cells(&start, '*', 'O', '-'));
    push_tag(&mut s, "BO", &board);
    for tag in &record.other_tags {
        push_tag(&mut s, &tag.name, &tag.value);
    }
    let mut mover = start.to_move;
    for item in record.items() {
        let tag = if mover == Color::Black { "B" } else { "W" };
        push_tag(&mut s, tag, &format_move_item(&item));
        mover = mover.opposite();
    }
    s.push_str(";)");
    s
}

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_ggf(self))
    }
}

impl std::str::FromStr for GgfGame {
    type Err = GgfError;

    fn from_str(s: &str) -> Result<GgfGame, GgfError> {
        parse_ggf(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn parses_the_nboard_example() {
        let g = parse_ggf(NBOARD).unwrap();
        assert_eq!(g.game().info.black.as_deref(), Some("./mEdax"));
        assert_eq!(g.game().info.white.as_deref(), Some("chris"));
        assert_eq!(g.game().info.event.as_deref(), Some("NBoard"));
        assert_eq!(g.clock_both.as_deref(), Some("15:00"));
        assert_eq!(
            g.result,
            Some(GgfResult {
                black_margin: None,
                kind: GgfResultKind::Normal
            })
        );
        assert_eq!(g.game().start(), Position::START);
        assert_eq!(g.game().transcript(), "f5f6d3c5e6f7e7f4");
        assert_eq!(format_ggf(&g), NBOARD);
        assert_eq!(parse_ggf(&format_ggf(&g)).unwrap(), g);
    }

    #[test]
    fn parses_ggs_style_records() {
        let text = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[alice]PW[bob]RB[2196.37]RW[1800]TI[05:00//02:00]TY[s8r20]RE[-22.87:r]\nBO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\nB[f5//1.23]W[d6/2.39/0.01]B[c3]KM[1.5];)\n";
        let g = parse_ggf(text).unwrap();
        assert_eq!(g.black_rating, Some(2196.37));
        assert_eq!(g.white_rating, Some(1800.0));
        let ty = g.game_type.unwrap();
        assert!(ty.synchro && ty.random == Some(Some(20)) && !ty.komi);
        assert_eq!(g.result.unwrap().black_margin, Some(-22.87));
        assert_eq!(g.result.unwrap().kind, GgfResultKind::Resigned);
        assert_eq!(
            g.notes()[0],
            MoveNote {
                eval: None,
                time: Some(1.23)
            }
        );
        assert_eq!(
            g.notes()[1],
            MoveNote {
                eval: Some(2.39),
                time: Some(0.01)
            }
        );
        assert_eq!(
            g.other_tags,
            vec![GgfTag {
                name: "KM".into(),
                value: "1.5".into()
            }]
        );
        assert_eq!(parse_ggf(&format_ggf(&g)).unwrap(), g);
    }

    #[test]
    fn passes_explicit_and_inferred() {
        // White to move with no square (Black a1, White b1); Black then plays c1.
        let bo = format!("BO[8 *O{} O]", "-".repeat(62));
        let explicit = parse_ggf(&format!("(;GM[Othello]{bo}W[PA]B[C1];)")).unwrap();
        let inferred = parse_ggf(&format!("(;GM[Othello]{bo}B[c1];)")).unwrap();
        assert_eq!(explicit, inferred);
        assert_eq!(
            explicit.game().moves(),
            &[Move::Pass, "c1".parse().unwrap()]
        );
        let printed = format_ggf(&explicit);
        assert!(printed.contains("W[PA]B[C1]"), "{printed}");
    }

    #[test]
    fn several_games_and_recovery() {
        let bad = NBOARD.replace("W[F4]", "W[A1]");
        let text = format!("{NBOARD}\n2 {bad} junk {NBOARD}");
        let results: Vec<_> = parse_ggf_games(&text).collect();
        assert_eq!(results.len(), 4);
        assert!(results[0].is_ok());
        let e = results[1].as_ref().unwrap_err();
        assert!(matches!(
            e.kind,
            GgfErrorKind::IllegalMove { move_number: 8, .. }
        ));
        assert_eq!(e.location.line, 2);
        assert!(matches!(
            results[2].as_ref().unwrap_err().kind,
            GgfErrorKind::UnexpectedText { found: 'j' }
        ));
        assert!(results[3].is_ok());
    }

    #[test]
    fn errors_name_the_problem_and_place() {
        let kind = |t: &str| parse_ggf(t).unwrap_err().kind;
        assert!(matches!(kind(""), GgfErrorKind::NoGame));
        assert!(matches!(
            kind("(;GM[Othello]"),
            GgfErrorKind::UnterminatedGame
        ));
        assert!(matches!(
            kind("(;GM[Othello;)"),
            GgfErrorKind::UnterminatedValue { .. }
        ));
        assert!(matches!(
            kind("(;GM[Go];)"),
            GgfErrorKind::NotOthello { .. }
        ));
        assert!(matches!(
            kind("(;TY[10];)"),
            GgfErrorKind::UnsupportedBoardSize { .. }
        ));
        assert!(matches!(
            kind("(;TY[8q];)"),
            GgfErrorKind::BadGameType { .. }
        ));
        assert!(matches!(kind("(;RB[x];)"), GgfErrorKind::BadNumber { .. }));
        assert!(matches!(
            kind("(;RE[+3:z];)"),
            GgfErrorKind::BadResult { .. }
        ));
        assert!(matches!(
            kind("(;PB[a]PB[b];)"),
            GgfErrorKind::DuplicateTag { .. }
        ));
        assert!(matches!(
            kind("(;gm[x];)"),
            GgfErrorKind::BadTag { found: 'g' }
        ));
        assert!(matches!(kind("(;GM ;)"), GgfErrorKind::MissingValue { .. }));
        assert!(matches!(kind("(;W[d3];)"), GgfErrorKind::WrongColor { .. }));
        assert!(matches!(kind("(;B[z9];)"), GgfErrorKind::BadMove { .. }));
        assert!(matches!(
            kind("(;BO[10 ---];)"),
            GgfErrorKind::UnsupportedBoardSize { .. }
        ));
        assert!(matches!(kind("(;;) x"), GgfErrorKind::TrailingText));
        let e = parse_ggf("(;GM[Othello]\nBO[8 ---?]\n;)").unwrap_err();
        assert!(matches!(
            e.kind,
            GgfErrorKind::Board(BoardStringErrorKind::BadCell { found: '?' })
        ));
        assert_eq!((e.location.line, e.location.column), (2, 9));
    }

    #[test]
    fn escaped_values_round_trip() {
        let mut g = parse_ggf("(;PB[a\\]b\\\\c];)").unwrap();
        assert_eq!(g.game().info.black.as_deref(), Some("a]b\\c"));
        g.info_mut().white = Some("x]".into());
        assert_eq!(parse_ggf(&format_ggf(&g)).unwrap(), g);
    }
}

//! GGF clock strings (`TI`, `TB`, `TW`): `main[/increment[/extension]]`, each time written
//! `[[h:]m:]s` with an optional `d.` day prefix and an optional fraction of a second
//! (`05:00//02:00`, `15:00`, `0//0`, `1.00:00:00`). A blank increment is 0; an omitted extension
//! means the GGS default of 2:00 (see [`Clock::extension_or_default`]).

use std::fmt;

/// A parsed clock, all times in milliseconds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    pub main_ms: u64,
    pub increment_ms: u64,
    /// Grace time after the first time-out, when written.
    pub extension_ms: Option<u64>,
}

impl Clock {
    /// The GGS default extension when none is written: two minutes.
    pub const DEFAULT_EXTENSION_MS: u64 = 120_000;

    pub fn extension_or_default(&self) -> u64 {
        self.extension_ms.unwrap_or(Clock::DEFAULT_EXTENSION_MS)
    }
}

/// One side's clock through a game record: its start clock, and the moves it made and the time
/// they took by the record, so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClockSpent {
    clock: Clock,
    moves: u64,
    used_ms: u64,
}

impl ClockSpent {
    /// `clock` before the side's first move.
    pub fn new(clock: Clock) -> ClockSpent {
        ClockSpent {
            clock,
            moves: 0,
            used_ms: 0,
        }
    }

    /// Counts a move of the side that took `seconds` by the record (none, or less than zero,
    /// counts as zero).
    pub fn spend(&mut self, seconds: Option<f64>) {
        // `max` turns NaN into zero, `min` keeps an infinite time countable, and rounding
        // keeps a recorded 0.894 s at 894 ms.
        let ms = (seconds.unwrap_or(0.0).max(0.0) * 1000.0).min(1e15).round() as u64;
        self.moves += 1;
        self.used_ms = self.used_ms.saturating_add(ms);
    }

    /// The time the side has left now, in milliseconds: the main time, plus the increment after
    /// each move, less the time used; the extension is added once the main time is gone, and
    /// the clock stops at zero.
    pub fn left_ms(&self) -> u64 {
        let credit = (self.clock.increment_ms).saturating_mul(self.moves);
        let earned = self.clock.main_ms.saturating_add(credit);
        match earned.checked_sub(self.used_ms) {
            Some(left) if left > 0 => left,
            _ => {
                let over = self.used_ms - earned;
                self.clock.extension_or_default().saturating_sub(over)
            }
        }
    }
}

/// A clock string that did not parse.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("clock {text:?}: {part} time {found:?} is not [d.][[h:]m:]s")]
pub struct ClockError {
    pub text: String,
    /// `main`, `increment` or `extension`, or `clock` for too many parts.
    pub part: &'static str,
    pub found: String,
}

const MS_PER_SECOND: u64 = 1000;
const MS_PER_DAY: u64 = 86_400_000;

/// Seconds with an optional fraction (up to millisecond precision): `5`, `07`, `2.5`.
fn parse_seconds_ms(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let whole_ms = parse_digits(whole)?.checked_mul(MS_PER_SECOND)?;
    if !fraction.bytes().all(|b| b.is_ascii_digit()) || fraction.len() > 3 {
        return None;
    }
    let fraction_ms = format!("{fraction:0<3}").parse::<u64>().ok()?;
    whole_ms.checked_add(fraction_ms)
}

/// Decimal digits only (an empty string is 0, so `:30` reads as 0 minutes 30 seconds).
fn parse_digits(text: &str) -> Option<u64> {
    if text.is_empty() {
        return Some(0);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// One time value `[d.][[h:]m:]s` in milliseconds.
fn parse_time_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let (days, clock) = match text.split_once('.') {
        Some((d, rest)) if rest.contains(':') => (parse_digits(d)?, rest),
        _ => (0, text),
    };
    let fields: Vec<&str> = clock.split(':').collect();
    let (hours, minutes, seconds) = match fields.as_slice() {
        [s] => ("", "", *s),
        [m, s] => ("", *m, *s),
        [h, m, s] => (*h, *m, *s),
        _ => return None,
    };
    let total = days
        .checked_mul(MS_PER_DAY)?
        .checked_add(parse_digits(hours)?.checked_mul(3_600_000)?)?
        .checked_add(parse_digits(minutes)?.checked_mul(60_000)?)?
        .checked_add(parse_seconds_ms(seconds)?)?;
    Some(total)
}

/// Parses a GGF clock string.
pub fn parse_clock(text: &str) -> Result<Clock, ClockError> {
    let error = |part: &'static str, found: &str| ClockError {
        text: text.to_string(),
        part,
        found: found.to_string(),
    };
    let parts: Vec<&str> = text.split('/').collect();
    let (main, increment, extension) = match parts.as_slice() {
        [m] => (*m, None, None),
        [m, i] => (*m, Some(*i), None),
        [m, i, e] => (*m, Some(*i), Some(*e)),
        _ => return Err(error("clock", text)),
    };
    let main_ms = parse_time_ms(main).ok_or_else(|| error("main", main))?;
    let increment_ms = match increment {
        Some(i) if !i.trim().is_empty() => parse_time_ms(i).ok_or_else(|| error("increment", i))?,
        _ => 0,
    };
    let extension_ms = match extension {
        Some(e) if !e.trim().is_empty() => {
            Some(parse_time_ms(e).ok_or_else(|| error("extension", e))?)
        }
        _ => None,
    };
    Ok(Clock {
        main_ms,
        increment_ms,
        extension_ms,
    })
}

/// `h:mm:ss` (or `mm:ss` under an hour), with `.fff` when there are milliseconds.
fn format_time_ms(ms: u64) -> String {
    let seconds = ms / MS_PER_SECOND;
    let millis = ms % MS_PER_SECOND;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut out = if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    };
    if millis > 0 {
        let fraction = format!("{millis:03}");
        out.push('.');
        out.push_str(fraction.trim_end_matches('0'));
    }
    out
}

/// Prints a clock so that [`parse_clock`] gives it back: `05:00`, `05:00/10`, `05:00//02:00`.
pub fn format_clock(clock: &Clock) -> String {
    let mut s = format_time_ms(clock.main_ms);
    if clock.increment_ms > 0 || clock.extension_ms.is_some() {
        s.push('/');
        if clock.increment_ms > 0 {
            s.push_str(&format_time_ms(clock.increment_ms));
        }
    }
    if let Some(e) = clock.extension_ms {
        s.push('/');
        s.push_str(&format_time_ms(e));
    }
    s
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_clock(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ggs_clocks() {
        let c = parse_clock("05:00//02:00").unwrap();
        assert_eq!(
            c,
            Clock {
                main_ms: 300_000,
                increment_ms: 0,
                extension_ms: Some(120_000)
            }
        );
        let c = parse_clock("15:00").unwrap();
        assert_eq!((c.main_ms, c.extension_or_default()), (900_000, 120_000));
        assert_eq!(parse_clock("0//0").unwrap().extension_ms, Some(0));
        assert_eq!(parse_clock("1:00:00/5").unwrap().increment_ms, 5000);
        assert_eq!(parse_clock("1.00:00:01").unwrap().main_ms, 86_401_000);
        assert_eq!(parse_clock("2.5").unwrap().main_ms, 2500);
    }

    #[test]
    fn a_clock_spent_counts_the_increment_after_each_move_and_the_extension_once() {
        let mut spent = ClockSpent::new(parse_clock("1:00/2").unwrap());
        assert_eq!(spent.left_ms(), 60_000);
        spent.spend(Some(9.106));
        spent.spend(Some(0.894));
        spent.spend(None);
        spent.spend(Some(-3.0));
        spent.spend(Some(f64::NAN));
        // 60 + 5 x 2 - 10 s.
        assert_eq!(spent.left_ms(), 60_000);
        spent.spend(Some(80.5));
        // 10 + 80.5 s used against 60 + 6 x 2 earned: 18.5 s past the main time, taken from
        // the default extension of 2:00.
        assert_eq!(spent.left_ms(), 101_500);
        spent.spend(Some(f64::INFINITY));
        assert_eq!(spent.left_ms(), 0);
        let mut exact = ClockSpent::new(parse_clock("0:10//0").unwrap());
        exact.spend(Some(10.0));
        assert_eq!(exact.left_ms(), 0);
    }

    #[test]
    fn rejects_bad_clocks() {
        for bad in [
            "",
            "x",
            "1/2/3/4",
            "5:xx",
            "1:2:3:4",
            "1.2345",
            "99999999999999999999",
        ] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
        let e = parse_clock("05:00/zz").unwrap_err();
        assert_eq!(e.part, "increment");
    }

    #[test]
    fn prints_and_round_trips() {
        for text in [
            "05:00//02:00",
            "15:00",
            "00:00//00:00",
            "1:00:00/00:05",
            "00:02.5",
        ] {
            let c = parse_clock(text).unwrap();
            assert_eq!(format_clock(&c), text);
            assert_eq!(parse_clock(&format_clock(&c)).unwrap(), c);
        }
    }
}

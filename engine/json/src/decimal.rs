//! JSON number text → `f64`, rounded to nearest (ties to even) exactly as `str::parse::<f64>`
//! does, and the exact "is this number an integer?" question, without the standard library's
//! float parser.
//!
//! Why our own: `f64::from_str` links a 10 KB table of powers of five that gzip cannot shrink
//! (~9 KB of the web build), and the engine only needs numbers as floats in cold places (the
//! mock server's arithmetic, the fractional-id rule). Almost every number takes Clinger's fast
//! path (at most 15 significant digits and a power of ten at most 22: one exact multiplication or
//! division); the others are computed exactly with a small big-integer quotient. Tested against
//! `str::parse::<f64>` on boundary cases and on generated numbers.

/// Significant digits kept; more are folded into a sticky bit. Any halfway point between two
/// doubles has at most 767 significant digits, so rounding is decided within the kept digits.
const MAX_DIGITS: usize = 800;

/// The parts of a number's text: `digits × 10^exp`, `digits` without leading or trailing zeros.
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    exp: i64,
    /// Nonzero digits were dropped beyond [`MAX_DIGITS`].
    sticky: bool,
}

/// Splits JSON number text (`-? int frac? exp?`); `None` when it is not one.
fn decimal(text: &str) -> Option<Decimal> {
    let b = text.as_bytes();
    let mut i = 0;
    let negative = b.first() == Some(&b'-');
    if negative {
        i += 1;
    }
    let mut digits = Vec::new();
    let mut exp: i64 = 0;
    let mut sticky = false;
    let mut seen = false;
    let mut push = |d: u8, digits: &mut Vec<u8>, fraction: bool, exp: &mut i64| {
        if digits.is_empty() && d == 0 {
            // A leading zero: only its place counts.
            if fraction {
                *exp -= 1;
            }
        } else if digits.len() < MAX_DIGITS {
            digits.push(d);
            if fraction {
                *exp -= 1;
            }
        } else {
            sticky |= d != 0;
            if !fraction {
                *exp += 1;
            }
        }
    };
    while i < b.len() && b[i].is_ascii_digit() {
        push(b[i] - b'0', &mut digits, false, &mut exp);
        seen = true;
        i += 1;
    }
    if !seen {
        return None;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let from = i;
        while i < b.len() && b[i].is_ascii_digit() {
            push(b[i] - b'0', &mut digits, true, &mut exp);
            i += 1;
        }
        if i == from {
            return None;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        let minus = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let from = i;
        let mut e: i64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            // Saturates far beyond any double (the result is then 0 or infinite anyway).
            e = (e * 10 + i64::from(b[i] - b'0')).min(1 << 40);
            i += 1;
        }
        if i == from {
            return None;
        }
        exp += if minus { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    while digits.last() == Some(&0) {
        digits.pop();
        exp += 1;
    }
    Some(Decimal {
        negative,
        digits,
        exp,
        sticky,
    })
}

/// Whether `text` is what [`decimal`] reads (digits, an optional fraction and exponent), without
/// collecting its digits (no allocation: ids are checked with it on every message).
fn is_number(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = usize::from(b.first() == Some(&b'-'));
    let end = digits(i);
    if end == i {
        return false;
    }
    i = end;
    if b.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return false;
        }
        i = end;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return false;
        }
        i = end;
    }
    i == b.len()
}

/// Whether JSON number text denotes an integer (`1.0`, `1e3`, `-25E-1` is not), exactly: no
/// rounding, so `1.0000000000000000001` is not an integer. `None` when it is not a number.
pub fn is_integer(text: &str) -> Option<bool> {
    if !is_number(text) {
        return None;
    }
    // The place of the last nonzero digit, counted in digits below the units (negative: above),
    // against the exponent that moves it. Read from the text itself: every digit counts here.
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], &text[at + 1..]),
        None => (text, "0"),
    };
    let (int, frac) = mantissa
        .trim_start_matches('-')
        .split_once('.')
        .unwrap_or((mantissa.trim_start_matches('-'), ""));
    let below_units = match frac.trim_end_matches('0').len() {
        0 => match int.trim_end_matches('0') {
            "" => return Some(true), // zero
            kept => -((int.len() - kept.len()) as i64),
        },
        n => n as i64,
    };
    let exp = exp.trim_start_matches('+');
    let shift: i64 = match exp.strip_prefix('-') {
        Some(digits) => -digits
            .parse::<i64>()
            .unwrap_or(i64::MAX / 2)
            .min(i64::MAX / 2),
        None => exp.parse::<i64>().unwrap_or(i64::MAX / 2).min(i64::MAX / 2),
    };
    Some(below_units <= shift)
}

/// JSON number text as the nearest `f64` (ties to even), infinite beyond the range of `f64`
/// like `str::parse`. `None` when the text is not a JSON number.
pub fn to_f64(text: &str) -> Option<f64> {
    let d = decimal(text)?;
    let magnitude = nearest(&d.digits, d.exp, d.sticky);
    Some(if d.negative { -magnitude } else { magnitude })
}

/// Exact powers of ten representable in `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

fn nearest(digits: &[u8], exp: i64, sticky: bool) -> f64 {
    if digits.is_empty() {
        return 0.0;
    }
    let n = digits.len() as i64;
    // The value lies in [10^(n+exp-1), 10^(n+exp)).
    if n + exp > 310 {
        return f64::INFINITY;
    }
    if n + exp < -324 {
        // Below 10^-325: less than half the smallest subnormal (4.9e-324).
        return 0.0;
    }
    if n <= 15 && !sticky && (-22..=22).contains(&exp) {
        // Clinger's fast path: both operands are exact, so one IEEE operation rounds correctly.
        let m = digits.iter().fold(0u64, |m, &d| m * 10 + u64::from(d)) as f64;
        return if exp >= 0 {
            m * POW10[exp as usize]
        } else {
            m / POW10[(-exp) as usize]
        };
    }
    exact(digits, exp, sticky)
}

/// The correctly rounded value of `digits × 10^exp` by big-integer arithmetic: the quotient
/// `q = ⌊N·2^s / M⌋` with 55 or 56 bits, then rounding at the precision of the result.
fn exact(digits: &[u8], exp: i64, sticky: bool) -> f64 {
    let mut num = Big::from_digits(digits);
    let mut den = Big::one();
    if exp >= 0 {
        num.mul_pow10(exp as u32);
    } else {
        den.mul_pow10((-exp) as u32);
    }
    // Scale so the quotient has 55 or 56 bits: N·2^s / M ∈ [2^54, 2^56).
    let s = 55 - (num.bits() as i64 - den.bits() as i64);
    if s >= 0 {
        num.shl(s as u32);
    } else {
        den.shl((-s) as u32);
    }
    let (q, rest) = num.div_small_quotient(&den);
    let sticky = sticky || !rest;
    let q_bits = 128 - q.leading_zeros() as i64;
    // value ≈ q · 2^-s, in [2^e2, 2^(e2+1)).
    let e2 = q_bits - 1 - s;
    if e2 > 1023 {
        return f64::INFINITY;
    }
    // Bits of precision at this magnitude: 53 for normal numbers, fewer for subnormals.
    let precision = if e2 >= -1022 { 53 } else { e2 + 1075 };
    let shift = q_bits - precision;
    if shift > q_bits {
        // Below half the smallest subnormal.
        return 0.0;
    }
    let mut m = q >> shift;
    let dropped = q & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    if dropped > half || (dropped == half && (sticky || m & 1 == 1)) {
        m += 1;
    }
    let bits = if e2 >= -1022 {
        let (m, e2) = if m == 1 << 53 {
            (m >> 1, e2 + 1)
        } else {
            (m, e2)
        };
        if e2 > 1023 {
            return f64::INFINITY;
        }
        ((e2 + 1023) as u64) << 52 | (m as u64 & ((1 << 52) - 1))
    } else {
        // A subnormal: the exponent field is 0 and the mantissa is `m` itself (a carry into bit
        // 52 makes it the smallest normal number, which is right).
        m as u64
    };
    f64::from_bits(bits)
}

/// A non-negative big integer, little-endian base 2^32.
struct Big(Vec<u32>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut big = Big(vec![0]);
        for chunk in digits.chunks(9) {
            let (mut value, mut scale) = (0u32, 1u32);
            for &d in chunk {
                value = value * 10 + u32::from(d);
                scale *= 10;
            }
            big.mul_add(scale, value);
        }
        big
    }

    fn mul_add(&mut self, by: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let t = u64::from(*limb) * u64::from(by) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut e: u32) {
        while e >= 9 {
            self.mul_add(1_000_000_000, 0);
            e -= 9;
        }
        if e > 0 {
            self.mul_add(10u32.pow(e), 0);
        }
    }

    fn bits(&self) -> u32 {
        let top = self.0.iter().rposition(|&l| l != 0).unwrap_or(0);
        top as u32 * 32 + (32 - self.0[top].leading_zeros())
    }

    fn shl(&mut self, n: u32) {
        let (words, bits) = ((n / 32) as usize, n % 32);
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let next = *limb >> (32 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        if words > 0 {
            self.0.splice(0..0, std::iter::repeat_n(0, words));
        }
    }

    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        let len = self.0.len().max(other.0.len());
        for i in (0..len).rev() {
            let (a, b) = (
                self.0.get(i).copied().unwrap_or(0),
                other.0.get(i).copied().unwrap_or(0),
            );
            if a != b {
                return a.cmp(&b);
            }
        }
        std::cmp::Ordering::Equal
    }

    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let t = i64::from(self.0[i]) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            self.0[i] = t as u32;
            borrow = i64::from(t < 0);
        }
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `(⌊self / den⌋, self mod den == 0)` for a quotient below 2^64 (binary long division:
    /// one compare and subtract per quotient bit).
    fn div_small_quotient(mut self, den: &Big) -> (u128, bool) {
        let top = self.bits().saturating_sub(den.bits());
        let mut shifted = Big(den.0.clone());
        shifted.shl(top);
        let mut q: u128 = 0;
        for _ in 0..=top {
            q <<= 1;
            if self.cmp(&shifted) != std::cmp::Ordering::Less {
                self.sub(&shifted);
                q |= 1;
            }
            shifted.shr1();
        }
        (q, self.is_zero())
    }

    fn shr1(&mut self) {
        let mut carry = 0u32;
        for limb in self.0.iter_mut().rev() {
            let next = *limb << 31;
            *limb = (*limb >> 1) | carry;
            carry = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_number_accepts_exactly_what_decimal_reads() {
        let parts = [
            "", "-", "+", "0", "01", "7", "12", ".", ".5", "5.", "e", "E", "e5", "e+", "e-3",
            "E+12", "x", " ", "-.", "--1",
        ];
        let mut count = 0;
        for a in parts {
            for b in parts {
                for c in parts {
                    let text = format!("{a}{b}{c}");
                    assert_eq!(is_number(&text), decimal(&text).is_some(), "{text:?}");
                    count += usize::from(is_number(&text));
                }
            }
        }
        assert!(count > 100, "{count}");
    }

    fn same(text: &str) {
        let ours = to_f64(text).unwrap_or_else(|| panic!("{text}: not read"));
        let std: f64 = text.parse().unwrap();
        assert_eq!(
            ours.to_bits(),
            std.to_bits(),
            "{text}: ours {ours:e}, std {std:e}"
        );
    }

    #[test]
    fn reads_as_the_standard_library_does_on_boundaries() {
        for text in [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "1",
            "-1",
            "19",
            "0.1",
            "0.2",
            "0.3",
            "2.5",
            "1e23",
            "1E23",
            "8.5e-1",
            "9007199254740992",
            "9007199254740993",
            "9007199254740995",
            "18446744073709551615",
            "123456789012345678901234567890",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "2e308",
            "1e309",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "5e-324",
            "3e-324",
            "1e-400",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "2.2250738585072012e-308",
            "0.000000000000000000000000000001",
            "7.038531e-26",
            "1448997445238699",
            "9.2233720368547758e18",
            "1e-5",
            "1e22",
            "1e-22",
            "123456789012345e-22",
            "1234567890123456e5",
            "0.30000000000000004",
            "100000000000000000000000",
            "6.631236846766476e-316",
            "3.0e-5",
            "1e0",
            "1E+2",
            "1e-0",
        ] {
            same(text);
        }
    }

    #[test]
    fn reads_halfway_cases_to_even() {
        // 2^53 + 1 and 2^53 + 3 lie halfway between two doubles; so do these with many digits.
        for text in [
            "9007199254740993",
            "9007199254740993.0000000000000000000000000000000000000000000001",
            "9007199254740992.9999999999999999999999999999999999999",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
        ] {
            same(text);
        }
        // The exact halfway point between the two smallest subnormals, and one digit past it
        // after 800 more digits (only the sticky bit knows).
        let half = "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324";
        same(half);
        same(&half.replace("125e-324", "1250000000000000000001e-324"));
        let long_one = format!("1.{}1", "0".repeat(1000));
        same(&long_one);
        let long_int = format!("{}e-900", "9".repeat(1200));
        same(&long_int);
    }

    #[test]
    fn reads_generated_numbers_as_the_standard_library_does() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let digits = 1 + (next() % 40) as usize;
            let mut text = String::new();
            if next() % 2 == 0 {
                text.push('-');
            }
            let int_len = 1 + (next() % digits as u64) as usize;
            for i in 0..digits {
                if i == int_len {
                    text.push('.');
                }
                let d = (next() % 10) as u8;
                text.push(char::from(
                    b'0' + if i == 0 && int_len > 1 && d == 0 {
                        1
                    } else {
                        d
                    },
                ));
            }
            if next() % 2 == 0 {
                let e = (next() % 700) as i64 - 350;
                text.push_str(&format!("e{e}"));
            }
            same(&text);
        }
        // Bit patterns of doubles written the shortest way and with 17 digits.
        for _ in 0..20_000 {
            let x = f64::from_bits(next() & 0x7FEF_FFFF_FFFF_FFFF);
            same(&format!("{x:e}"));
            same(&format!("{x:.16e}"));
        }
    }

    #[test]
    fn refuses_what_is_not_a_json_number() {
        for text in [
            "", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5.2", "1 ", "NaN", "Infinity",
        ] {
            assert_eq!(to_f64(text), None, "{text:?}");
            assert_eq!(is_integer(text), None, "{text:?}");
        }
    }

    #[test]
    fn integers_are_told_exactly() {
        for (text, integer) in [
            ("1", true),
            ("1.0", true),
            ("1e3", true),
            ("1.5e1", true),
            ("-25E-1", false),
            ("0.5", false),
            ("0e-5", true),
            ("1.0000000000000000001", false),
            ("100e-2", true),
            ("101e-2", false),
            ("12345678901234567890.000", true),
            ("1e-400", false),
        ] {
            assert_eq!(is_integer(text), Some(integer), "{text}");
        }
        let long = format!("1{}.5", "0".repeat(900));
        assert_eq!(is_integer(&long), Some(false), "900 digits then .5");
        let long = format!("1{}", "0".repeat(900));
        assert_eq!(is_integer(&long), Some(true), "901-digit integer");
        let long = format!("1{}1", "0".repeat(900));
        assert_eq!(
            is_integer(&long),
            Some(true),
            "902-digit integer, its last digit past the kept ones"
        );
        let long = format!("1{}1e-1", "0".repeat(900));
        assert_eq!(is_integer(&long), Some(false), "the same over ten");
    }

    #[test]
    fn huge_exponents_and_digit_counts_stay_bounded() {
        same("1e999999999999999999999");
        same("1e-999999999999999999999");
        let digits = "7".repeat(10_000);
        same(&digits);
        same(&format!("0.{digits}"));
    }
}

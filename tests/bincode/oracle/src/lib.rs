// SPDX-License-Identifier: MIT
//! Shared by the oracle and the benchmark: the test types (mirrored in C++ by
//! tests/bincode/oracle_types.h), their canonical text form, a deterministic generator and the
//! eight configurations as one enum.

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::time::Duration;

// ---------------------------------------------------------------------------------------------
// Configurations

#[derive(Clone, Copy, Debug)]
pub enum Cfg {
    V1FixintLe, // bincode::serialize / deserialize
    V1VarintLe, // DefaultOptions::new()
    V1FixintBe,
    V1VarintBe,
    V2Standard,
    V2Legacy,
    V2StandardBe,
    V2LegacyBe,
}

pub const ALL: [Cfg; 8] = [
    Cfg::V1FixintLe,
    Cfg::V1VarintLe,
    Cfg::V1FixintBe,
    Cfg::V1VarintBe,
    Cfg::V2Standard,
    Cfg::V2Legacy,
    Cfg::V2StandardBe,
    Cfg::V2LegacyBe,
];

impl Cfg {
    pub fn name(self) -> &'static str {
        match self {
            Cfg::V1FixintLe => "v1_fixint_le",
            Cfg::V1VarintLe => "v1_varint_le",
            Cfg::V1FixintBe => "v1_fixint_be",
            Cfg::V1VarintBe => "v1_varint_be",
            Cfg::V2Standard => "v2_standard",
            Cfg::V2Legacy => "v2_legacy",
            Cfg::V2StandardBe => "v2_standard_be",
            Cfg::V2LegacyBe => "v2_legacy_be",
        }
    }
    pub fn parse(s: &str) -> Option<Cfg> {
        ALL.iter().copied().find(|c| c.name() == s)
    }

    pub fn encode<T: Serialize>(self, v: &T) -> Vec<u8> {
        use bincode1::Options;
        let o = bincode1::DefaultOptions::new();
        let c2 = bincode2::config::standard();
        match self {
            Cfg::V1FixintLe => bincode1::serialize(v).unwrap(),
            Cfg::V1VarintLe => o.serialize(v).unwrap(),
            Cfg::V1FixintBe => o.with_fixint_encoding().with_big_endian().allow_trailing_bytes().serialize(v).unwrap(),
            Cfg::V1VarintBe => o.with_big_endian().serialize(v).unwrap(),
            Cfg::V2Standard => bincode2::serde::encode_to_vec(v, c2).unwrap(),
            Cfg::V2Legacy => bincode2::serde::encode_to_vec(v, bincode2::config::legacy()).unwrap(),
            Cfg::V2StandardBe => bincode2::serde::encode_to_vec(v, c2.with_big_endian()).unwrap(),
            Cfg::V2LegacyBe => {
                bincode2::serde::encode_to_vec(v, bincode2::config::legacy().with_big_endian()).unwrap()
            }
        }
    }

    /// The value and the bytes it used, or the crate's error as text. 2.0.1 decodes with a 16 MiB
    /// limit: without one, a forged length makes it panic ("capacity overflow") or try a huge
    /// allocation, and no oracle value comes near 16 MiB, so the limit never changes a result.
    pub fn decode<T: DeserializeOwned>(self, b: &[u8]) -> Result<(T, usize), String> {
        use bincode1::Options;
        const LIMIT: usize = 16 << 20;
        let o = bincode1::DefaultOptions::new();
        let c2 = bincode2::config::standard().with_limit::<LIMIT>();
        let l2 = bincode2::config::legacy().with_limit::<LIMIT>();
        // 1.3.3 does not report how many bytes it used (usize::MAX: unknown).
        let v1 = |r: Result<T, bincode1::Error>| -> Result<(T, usize), String> {
            r.map(|v| (v, usize::MAX)).map_err(|e| format!("{:?}", e))
        };
        let v2 = |r: Result<(T, usize), bincode2::error::DecodeError>| r.map_err(|e| format!("{:?}", e));
        match self {
            Cfg::V1FixintLe => v1(bincode1::deserialize(b)),
            Cfg::V1VarintLe => v1(o.deserialize(b)).map(|(v, _)| (v, b.len())),
            Cfg::V1FixintBe => v1(o.with_fixint_encoding().with_big_endian().allow_trailing_bytes().deserialize(b)),
            Cfg::V1VarintBe => v1(o.with_big_endian().deserialize(b)).map(|(v, _)| (v, b.len())),
            Cfg::V2Standard => v2(bincode2::serde::decode_from_slice(b, c2)),
            Cfg::V2Legacy => v2(bincode2::serde::decode_from_slice(b, l2)),
            Cfg::V2StandardBe => v2(bincode2::serde::decode_from_slice(b, c2.with_big_endian())),
            Cfg::V2LegacyBe => v2(bincode2::serde::decode_from_slice(b, l2.with_big_endian())),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Types

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
pub enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub enum Shape {
    Empty,
    Circle(f64),
    Rect { w: u32, h: u32 },
    Poly(Vec<(i16, i16)>),
    Named(String, char),
}

#[derive(Serialize, Deserialize, bincode2::Encode, bincode2::Decode, Clone, Copy, PartialEq, Debug)]
#[bincode(crate = "bincode2")]
pub enum Side {
    Buy,
    Sell,
}

#[derive(Serialize, Deserialize, bincode2::Encode, bincode2::Decode, Clone, PartialEq, Debug)]
#[bincode(crate = "bincode2")]
pub struct Fill {
    pub px: f64,
    pub qty: u32,
}

/// The trade-like record of the benchmark and the oracle.
#[derive(Serialize, Deserialize, bincode2::Encode, bincode2::Decode, Clone, PartialEq, Debug)]
#[bincode(crate = "bincode2")]
pub struct Trade {
    pub id: u64,
    pub ts: i64,
    pub symbol: String,
    pub side: Side,
    pub price: f64,
    pub qty: u32,
    pub venue: Option<String>,
    pub fills: Vec<Fill>,
    pub flags: u8,
    pub account: i32,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct Unit;

pub type Nested = Vec<Option<(u16, Vec<String>)>>;
pub type Deep = BTreeMap<String, Vec<Shape>>;

// ---------------------------------------------------------------------------------------------
// Canonical text (the C++ side prints the same): no spaces; floats as bits, strings as hex.

pub trait Show {
    fn show(&self, o: &mut String);
}

macro_rules! show_int {
    ($($t:ty),*) => { $(impl Show for $t { fn show(&self, o: &mut String) { write!(o, "{}", self).unwrap(); } })* };
}
show_int!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

impl Show for bool {
    fn show(&self, o: &mut String) {
        o.push_str(if *self { "true" } else { "false" });
    }
}
impl Show for f32 {
    fn show(&self, o: &mut String) {
        write!(o, "f{:08x}", self.to_bits()).unwrap();
    }
}
impl Show for f64 {
    fn show(&self, o: &mut String) {
        write!(o, "d{:016x}", self.to_bits()).unwrap();
    }
}
impl Show for char {
    fn show(&self, o: &mut String) {
        write!(o, "c{}", *self as u32).unwrap();
    }
}
impl Show for String {
    fn show(&self, o: &mut String) {
        o.push('"');
        o.push_str(&hex(self.as_bytes()));
        o.push('"');
    }
}
impl Show for () {
    fn show(&self, o: &mut String) {
        o.push_str("()");
    }
}
impl Show for Unit {
    fn show(&self, o: &mut String) {
        o.push_str("()");
    }
}
impl Show for Duration {
    fn show(&self, o: &mut String) {
        write!(o, "({},{})", self.as_secs(), self.subsec_nanos()).unwrap();
    }
}
impl<T: Show> Show for Vec<T> {
    fn show(&self, o: &mut String) {
        show_seq(self.iter(), o);
    }
}
impl<T: Show, const N: usize> Show for [T; N] {
    fn show(&self, o: &mut String) {
        show_seq(self.iter(), o);
    }
}
impl<T: Show> Show for BTreeSet<T> {
    fn show(&self, o: &mut String) {
        show_seq(self.iter(), o);
    }
}
impl<K: Show, V: Show> Show for BTreeMap<K, V> {
    fn show(&self, o: &mut String) {
        o.push('{');
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            k.show(o);
            o.push(':');
            v.show(o);
        }
        o.push('}');
    }
}
impl<T: Show> Show for Option<T> {
    fn show(&self, o: &mut String) {
        match self {
            None => o.push('N'),
            Some(v) => {
                o.push_str("S(");
                v.show(o);
                o.push(')');
            }
        }
    }
}
fn show_seq<'a, T: Show + 'a>(it: impl Iterator<Item = &'a T>, o: &mut String) {
    o.push('[');
    for (i, v) in it.enumerate() {
        if i > 0 {
            o.push(',');
        }
        v.show(o);
    }
    o.push(']');
}
macro_rules! show_tuple {
    ($($n:tt $t:ident),*) => {
        impl<$($t: Show),*> Show for ($($t,)*) {
            fn show(&self, o: &mut String) {
                o.push('(');
                $( if $n > 0 { o.push(','); } self.$n.show(o); )*
                o.push(')');
            }
        }
    };
}
show_tuple!(0 A, 1 B);
show_tuple!(0 A, 1 B, 2 C);
/// Fields of a struct or variant: "(a,b,...)".
macro_rules! fields {
    ($o:expr, $($f:expr),*) => {{
        $o.push('(');
        let mut first = true;
        $( if !first { $o.push(','); } first = false; $f.show($o); )*
        let _ = first;
        $o.push(')');
    }};
}
impl Show for Color {
    fn show(&self, o: &mut String) {
        write!(o, "V{}", *self as u32).unwrap();
    }
}
impl Show for Side {
    fn show(&self, o: &mut String) {
        write!(o, "V{}", *self as u32).unwrap();
    }
}
impl Show for Shape {
    fn show(&self, o: &mut String) {
        match self {
            Shape::Empty => o.push_str("V0"),
            Shape::Circle(r) => {
                o.push_str("V1");
                fields!(o, r)
            }
            Shape::Rect { w, h } => {
                o.push_str("V2");
                fields!(o, w, h)
            }
            Shape::Poly(p) => {
                o.push_str("V3");
                fields!(o, p)
            }
            Shape::Named(s, c) => {
                o.push_str("V4");
                fields!(o, s, c)
            }
        }
    }
}
impl Show for Fill {
    fn show(&self, o: &mut String) {
        fields!(o, self.px, self.qty)
    }
}
impl Show for Trade {
    fn show(&self, o: &mut String) {
        fields!(o, self.id, self.ts, self.symbol, self.side, self.price, self.qty, self.venue, self.fills, self.flags, self.account)
    }
}

pub fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        write!(s, "{:02x}", x).unwrap();
    }
    s
}
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok()).collect()
}
pub fn show<T: Show>(v: &T) -> String {
    let mut s = String::new();
    v.show(&mut s);
    s
}

// ---------------------------------------------------------------------------------------------
// Deterministic values: edge cases first, then pseudo-random ones (splitmix64).

pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Integers spread over every varint width: a random bit length, then random bits.
    pub fn wide(&mut self) -> u128 {
        let bits = self.below(129) as u32;
        let v = ((self.next() as u128) << 64) | self.next() as u128;
        if bits == 0 {
            0
        } else if bits >= 128 {
            v
        } else {
            v & ((1u128 << bits) - 1)
        }
    }
}

pub trait Gen: Sized {
    fn edges() -> Vec<Self> {
        Vec::new()
    }
    fn gen(r: &mut Rng, depth: u32) -> Self;
}

macro_rules! gen_uint {
    ($($t:ty),*) => { $(impl Gen for $t {
        fn edges() -> Vec<Self> {
            let mut v = vec![0, 1, <$t>::MAX, <$t>::MAX - 1];
            for b in [250u128, 251, 252, 253, 254, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, u64::MAX as u128, u64::MAX as u128 + 1] {
                if b <= <$t>::MAX as u128 { v.push(b as $t); }
            }
            v
        }
        fn gen(r: &mut Rng, _: u32) -> Self { r.wide() as $t }
    })* };
}
gen_uint!(u8, u16, u32, u64, u128);
macro_rules! gen_sint {
    ($($t:ty),*) => { $(impl Gen for $t {
        fn edges() -> Vec<Self> {
            let mut v = vec![0, 1, -1, <$t>::MAX, <$t>::MIN, <$t>::MIN + 1];
            for b in [125i128, -125, -126, 126, 127, -128, 32767, -32768, 32768, 2147483647, -2147483648, i64::MAX as i128, i64::MIN as i128] {
                if b <= <$t>::MAX as i128 && b >= <$t>::MIN as i128 { v.push(b as $t); }
            }
            v
        }
        fn gen(r: &mut Rng, _: u32) -> Self { r.wide() as $t }
    })* };
}
gen_sint!(i8, i16, i32, i64, i128);

impl Gen for bool {
    fn edges() -> Vec<Self> {
        vec![false, true]
    }
    fn gen(r: &mut Rng, _: u32) -> Self {
        r.next() & 1 == 1
    }
}
impl Gen for f32 {
    fn edges() -> Vec<Self> {
        vec![0.0, -0.0, 1.0, f32::MIN_POSITIVE, f32::MAX, f32::INFINITY, f32::NEG_INFINITY, f32::from_bits(0x7fc00001), f32::from_bits(1)]
    }
    fn gen(r: &mut Rng, _: u32) -> Self {
        f32::from_bits(r.next() as u32)
    }
}
impl Gen for f64 {
    fn edges() -> Vec<Self> {
        vec![0.0, -0.0, 1.5, f64::MIN_POSITIVE, f64::MAX, f64::INFINITY, f64::NAN, f64::from_bits(1)]
    }
    fn gen(r: &mut Rng, _: u32) -> Self {
        f64::from_bits(r.next())
    }
}
impl Gen for char {
    fn edges() -> Vec<Self> {
        vec!['\0', 'a', '\u{7f}', '\u{80}', '\u{7ff}', '\u{800}', '\u{d7ff}', '\u{e000}', '\u{ffff}', '\u{10000}', '\u{10ffff}']
    }
    fn gen(r: &mut Rng, _: u32) -> Self {
        loop {
            let c = match r.below(4) {
                0 => r.below(0x80),
                1 => r.below(0x800),
                2 => r.below(0x10000),
                _ => r.below(0x110000),
            };
            if let Some(c) = char::from_u32(c as u32) {
                return c;
            }
        }
    }
}
impl Gen for String {
    fn edges() -> Vec<Self> {
        vec![String::new(), "a".into(), "x".repeat(250), "y".repeat(251), "Hello 🌍".into(), "\0\u{10ffff}".into()]
    }
    fn gen(r: &mut Rng, d: u32) -> Self {
        let n = if d == 0 && r.below(8) == 0 { r.below(300) } else { r.below(12) };
        (0..n).map(|_| if r.below(4) == 0 { char::gen(r, d) } else { (b'a' + r.below(26) as u8) as char }).collect()
    }
}
impl Gen for () {
    fn gen(_: &mut Rng, _: u32) -> Self {}
}
impl Gen for Unit {
    fn gen(_: &mut Rng, _: u32) -> Self {
        Unit
    }
}
/// Durations within what a C++ std::chrono::nanoseconds holds (the C++ side's type).
impl Gen for Duration {
    fn edges() -> Vec<Self> {
        vec![Duration::new(0, 0), Duration::new(0, 999_999_999), Duration::new(1, 0), Duration::new(9_223_372_035, 999_999_999)]
    }
    fn gen(r: &mut Rng, _: u32) -> Self {
        Duration::new(r.below(9_223_372_036), r.below(1_000_000_000) as u32)
    }
}
fn len(r: &mut Rng, d: u32) -> usize {
    if d > 1 {
        return r.below(3) as usize;
    }
    match r.below(10) {
        0 if d == 0 => r.below(300) as usize,
        1 => 0,
        _ => r.below(6) as usize,
    }
}
impl<T: Gen> Gen for Vec<T> {
    fn edges() -> Vec<Self> {
        vec![Vec::new()]
    }
    fn gen(r: &mut Rng, d: u32) -> Self {
        let n = len(r, d);
        (0..n).map(|_| T::gen(r, d + 1)).collect()
    }
}
impl<T: Gen + Ord> Gen for BTreeSet<T> {
    fn gen(r: &mut Rng, d: u32) -> Self {
        let n = len(r, d);
        (0..n).map(|_| T::gen(r, d + 1)).collect()
    }
}
impl<K: Gen + Ord, V: Gen> Gen for BTreeMap<K, V> {
    fn gen(r: &mut Rng, d: u32) -> Self {
        let n = len(r, d);
        (0..n).map(|_| (K::gen(r, d + 1), V::gen(r, d + 1))).collect()
    }
}
impl<T: Gen> Gen for Option<T> {
    fn edges() -> Vec<Self> {
        vec![None]
    }
    fn gen(r: &mut Rng, d: u32) -> Self {
        if r.below(3) == 0 {
            None
        } else {
            Some(T::gen(r, d + 1))
        }
    }
}
impl<T: Gen + Copy + Default, const N: usize> Gen for [T; N] {
    fn gen(r: &mut Rng, d: u32) -> Self {
        let mut a = [T::default(); N];
        for x in a.iter_mut() {
            *x = T::gen(r, d + 1);
        }
        a
    }
}
impl<A: Gen, B: Gen> Gen for (A, B) {
    fn gen(r: &mut Rng, d: u32) -> Self {
        (A::gen(r, d + 1), B::gen(r, d + 1))
    }
}
impl<A: Gen, B: Gen, C: Gen> Gen for (A, B, C) {
    fn gen(r: &mut Rng, d: u32) -> Self {
        (A::gen(r, d + 1), B::gen(r, d + 1), C::gen(r, d + 1))
    }
}
impl Gen for Color {
    fn edges() -> Vec<Self> {
        vec![Color::Red, Color::Green, Color::Blue]
    }
    fn gen(r: &mut Rng, _: u32) -> Self {
        [Color::Red, Color::Green, Color::Blue][r.below(3) as usize]
    }
}
impl Gen for Side {
    fn gen(r: &mut Rng, _: u32) -> Self {
        if r.below(2) == 0 {
            Side::Buy
        } else {
            Side::Sell
        }
    }
}
impl Gen for Shape {
    fn gen(r: &mut Rng, d: u32) -> Self {
        match r.below(5) {
            0 => Shape::Empty,
            1 => Shape::Circle(f64::gen(r, d)),
            2 => Shape::Rect { w: u32::gen(r, d), h: u32::gen(r, d) },
            3 => Shape::Poly(Vec::gen(r, d + 1)),
            _ => Shape::Named(String::gen(r, d), char::gen(r, d)),
        }
    }
}
impl Gen for Fill {
    fn gen(r: &mut Rng, d: u32) -> Self {
        Fill { px: f64::gen(r, d), qty: u32::gen(r, d) }
    }
}
impl Gen for Trade {
    fn gen(r: &mut Rng, d: u32) -> Self {
        Trade {
            id: u64::gen(r, d),
            ts: i64::gen(r, d),
            symbol: String::gen(r, d),
            side: Side::gen(r, d),
            price: f64::gen(r, d),
            qty: u32::gen(r, d),
            venue: Option::gen(r, d),
            fills: Vec::gen(r, d),
            flags: u8::gen(r, d),
            account: i32::gen(r, d),
        }
    }
}

/// A realistic trade for the benchmark (same shape as bench/bincode's C++ record).
pub fn bench_trade(i: u64) -> Trade {
    let nfills = (i % 4) as usize;
    Trade {
        id: 1_000_000 + i,
        ts: 1_700_000_000_000_000_000 + (i as i64) * 1000,
        symbol: ["EURUSD", "AAPL", "BTC-PERP", "ESZ6"][(i % 4) as usize].to_string(),
        side: if i % 2 == 0 { Side::Buy } else { Side::Sell },
        price: 100.0 + (i % 1000) as f64 * 0.25,
        qty: (i % 5000) as u32 + 1,
        venue: if i % 3 == 0 { None } else { Some("XNAS".to_string()) },
        fills: (0..nfills).map(|k| Fill { px: 100.0 + k as f64, qty: 10 * (k as u32 + 1) }).collect(),
        flags: (i % 7) as u8,
        account: (i % 100) as i32 - 50,
    }
}

/// Every oracle type, by name: `each_type!(m)` calls `m!(name, RustType)` once per type.
#[macro_export]
macro_rules! each_type {
    ($m:ident) => {
        $m!("u8", u8);
        $m!("u16", u16);
        $m!("u32", u32);
        $m!("u64", u64);
        $m!("u128", u128);
        $m!("i8", i8);
        $m!("i16", i16);
        $m!("i32", i32);
        $m!("i64", i64);
        $m!("i128", i128);
        $m!("bool", bool);
        $m!("f32", f32);
        $m!("f64", f64);
        $m!("char", char);
        $m!("string", String);
        $m!("bytes", Vec<u8>);
        $m!("vec_u64", Vec<u64>);
        $m!("vec_i32", Vec<i32>);
        $m!("vec_f64", Vec<f64>);
        $m!("vec_string", Vec<String>);
        $m!("vec_bool", Vec<bool>);
        $m!("opt_u32", Option<u32>);
        $m!("opt_string", Option<String>);
        $m!("tuple", (u8, i64, String));
        $m!("arr_u16_4", [u16; 4]);
        $m!("map_u32_string", std::collections::BTreeMap<u32, String>);
        $m!("set_i64", std::collections::BTreeSet<i64>);
        $m!("duration", std::time::Duration);
        $m!("unit", ());
        $m!("unit_struct", $crate::Unit);
        $m!("color", $crate::Color);
        $m!("shape", $crate::Shape);
        $m!("trade", $crate::Trade);
        $m!("nested", $crate::Nested);
        $m!("deep", $crate::Deep);
        $m!("vec_char", Vec<char>);
        $m!("pair_i128_u128", (i128, u128));
    };
}

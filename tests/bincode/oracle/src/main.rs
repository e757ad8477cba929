// SPDX-License-Identifier: MIT
//! The bincode oracle: the real bincode 1.3.3 and 2.0.1 crates, driven from keel's ctest.
//!
//!   keel_bincode_oracle gen FILE [N]   test vectors for the C++ side: N random values per type
//!                                      and config after the edge values, plus mutated inputs
//!   keel_bincode_oracle check FILE     decodes bytes the C++ side encoded and checks each value
//!
//! File format, one case per line, fields separated by one space:
//!   V <config> <type> <hex> <text>      bytes are the encoding of the value <text>; a decoder must
//!                                       read exactly <text> and re-encode exactly <hex>
//!   D <config> <type> <hex> <used> <text>  decode-only (e.g. mutated bytes): the crate read <text>
//!                                       using <used> bytes ("-": 1.3.3 does not say)
//!   D <config> <type> <hex> ! <error>   the crate rejects these bytes (<error> is informative)
//! <text> is the canonical form of keel_bincode_compat::Show (no spaces).

use keel_bincode_compat::*;
use serde::{de::DeserializeOwned, Serialize};
use std::io::{BufRead, BufWriter, Write};

trait Case: Serialize + DeserializeOwned + Show + Gen {}
impl<T: Serialize + DeserializeOwned + Show + Gen> Case for T {}

fn mutate(r: &mut Rng, b: &[u8]) -> Vec<u8> {
    let mut m = b.to_vec();
    match r.below(6) {
        0 if !m.is_empty() => {
            let cut = r.below(m.len() as u64) as usize;
            m.truncate(cut);
        }
        1 if !m.is_empty() => {
            let i = r.below(m.len() as u64) as usize;
            m[i] ^= 1 << r.below(8);
        }
        2 if !m.is_empty() => {
            let i = r.below(m.len() as u64) as usize;
            m[i] = [0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x80, 0xC0, 0xED, 0x02][r.below(9) as usize];
        }
        3 => m.extend((0..1 + r.below(3)).map(|_| r.next() as u8)),
        4 if !m.is_empty() => {
            let i = r.below(m.len() as u64) as usize;
            m[i] = r.next() as u8;
        }
        _ => m.insert(r.below(m.len() as u64 + 1) as usize, r.next() as u8),
    }
    m
}

fn gen_type<T: Case>(out: &mut impl Write, cfg: Cfg, name: &str, n: usize, r: &mut Rng, mutate_types: bool) {
    let mut values = T::edges();
    values.extend((0..n).map(|_| T::gen(r, 0)));
    let mut encodings = Vec::with_capacity(values.len());
    for v in &values {
        let b = cfg.encode(v);
        writeln!(out, "V {} {} {} {}", cfg.name(), name, hex(&b), show(v)).unwrap();
        encodings.push(b);
    }
    if !mutate_types {
        return;
    }
    for b in encodings.iter().take(60) {
        for _ in 0..3 {
            let m = mutate(r, b);
            let res = std::panic::catch_unwind(|| cfg.decode::<T>(&m)).unwrap_or_else(|_| Err("panic".into()));
            match res {
                Ok((v, used)) => {
                    let used = if used == usize::MAX { "-".to_string() } else { used.to_string() };
                    writeln!(out, "D {} {} {} {} {}", cfg.name(), name, hex(&m), used, show(&v)).unwrap()
                }
                Err(e) => {
                    let e: String = e.chars().map(|c| if c.is_whitespace() { '_' } else { c }).take(60).collect();
                    writeln!(out, "D {} {} {} ! {}", cfg.name(), name, hex(&m), e).unwrap()
                }
            }
        }
    }
}

fn generate(path: &str, n: usize) {
    std::panic::set_hook(Box::new(|_| {}));  // a crate panic on bad input is recorded as an error
    let f = std::fs::File::create(path).unwrap_or_else(|e| panic!("{}: {}", path, e));
    let mut out = BufWriter::new(f);
    let mut lines = 0usize;
    for cfg in ALL {
        let mut r = Rng(0x6b65656c ^ cfg as u64);
        macro_rules! one {
            ($name:expr, $t:ty) => {{
                // Durations outside C++ nanoseconds' range decode in Rust but not into the C++
                // type, so only their canonical vectors are compared (docs/bincode.md).
                gen_type::<$t>(&mut out, cfg, $name, n, &mut r, $name != "duration");
                lines += 1;
            }};
        }
        each_type!(one);
    }
    out.flush().unwrap();
    eprintln!("oracle: wrote {} ({} type x config groups, {} random values each)", path, lines, n);
}

/// Checks one C++-encoded case; returns an error description.
fn check_case<T: Case>(cfg: Cfg, bytes: &[u8], text: &str) -> Result<(), String> {
    let (v, used) = cfg.decode::<T>(bytes)?;
    if used != usize::MAX && used != bytes.len() {
        return Err(format!("decoded {} of {} bytes", used, bytes.len()));
    }
    let shown = show(&v);
    if shown != text {
        return Err(format!("value {} != {}", shown, text));
    }
    let again = cfg.encode(&v);
    if again != bytes {
        return Err(format!("re-encoded {} != {}", hex(&again), hex(bytes)));
    }
    Ok(())
}

fn check(path: &str) -> bool {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {}", path, e));
    let (mut ok, mut bad) = (0usize, 0usize);
    for (no, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.unwrap();
        let parts: Vec<&str> = line.split(' ').collect();
        if parts.len() != 5 || parts[0] != "V" {
            eprintln!("{}:{}: malformed line", path, no + 1);
            bad += 1;
            continue;
        }
        let (cfg, name, bytes, text) = (Cfg::parse(parts[1]), parts[2], unhex(parts[3]), parts[4]);
        let (Some(cfg), Some(bytes)) = (cfg, bytes) else {
            eprintln!("{}:{}: bad config or hex", path, no + 1);
            bad += 1;
            continue;
        };
        let mut res: Option<Result<(), String>> = None;
        macro_rules! one {
            ($n:expr, $t:ty) => {
                if res.is_none() && name == $n {
                    res = Some(check_case::<$t>(cfg, &bytes, text));
                }
            };
        }
        each_type!(one);
        match res {
            Some(Ok(())) => ok += 1,
            Some(Err(e)) => {
                bad += 1;
                if bad <= 20 {
                    eprintln!("{}:{}: {} {}: {}", path, no + 1, cfg.name(), name, e);
                }
            }
            None => {
                bad += 1;
                eprintln!("{}:{}: unknown type {}", path, no + 1, name);
            }
        }
    }
    println!("oracle check: {} cases ok, {} failed", ok, bad);
    bad == 0 && ok > 0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("gen") if args.len() >= 3 => {
            let n = args.get(3).map(|s| s.parse().expect("N")).unwrap_or(200);
            generate(&args[2], n);
        }
        Some("check") if args.len() == 3 => {
            if !check(&args[2]) {
                std::process::exit(1);
            }
        }
        _ => {
            eprintln!("usage: keel_bincode_oracle gen FILE [N] | check FILE");
            std::process::exit(2);
        }
    }
}

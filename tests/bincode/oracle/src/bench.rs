// SPDX-License-Identifier: MIT
//! The Rust side of `keel bench bincode`: the same data shapes as bench/bincode/bincode_bench.cpp,
//! timed here and printed one record per line for the C++ suite to collect:
//!   <case> <impl> <median_ns> <bytes> <items>
//! impl rust_bincode1: bincode 1.3.3 through serde; rust_bincode2: bincode 2.0.1 with its own
//! Encode/Decode derive (its fastest path).
//! Usage: keel_bincode_bench [--quick] [--rounds N] [--round-ms MS] [--only pod|struct]
//!                           [--cases A,B,...]
//! (--round-ms: the length of one timed round, default 5 with --quick, else 20; --cases: run only
//! the cases named, as `keel bench --filter` selected them; default all).

use keel_bincode_compat::{bench_trade, Trade};
use std::collections::HashSet;
use std::hint::black_box;
use std::time::Instant;

struct Opts {
    rounds: usize,
    round_ns: u128,
    cases: Option<HashSet<String>>,
}

impl Opts {
    fn wants(&self, case: &str) -> bool {
        self.cases.as_ref().map_or(true, |c| c.contains(case))
    }
}

/// Median ns per call of `f` over `rounds` rounds, each long enough to time reliably.
fn measure(o: &Opts, mut f: impl FnMut()) -> f64 {
    let mut iters = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        let ns = t.elapsed().as_nanos();
        if ns >= o.round_ns / 4 || iters >= 1 << 30 {
            iters = ((iters as u128 * o.round_ns) / ns.max(1)).max(1) as u64;
            break;
        }
        iters *= 4;
    }
    let mut v: Vec<f64> = (0..o.rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed().as_nanos() as f64 / iters as f64
        })
        .collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn emit(case: &str, imp: &str, ns: f64, bytes: usize, items: usize) {
    println!("{} {} {:.3} {} {}", case, imp, ns, bytes, items);
}

pub fn size_label(n: usize) -> String {
    if n >= 1 << 20 {
        format!("{}MiB", n >> 20)
    } else if n >= 1024 {
        format!("{}KiB", n >> 10)
    } else {
        format!("{}B", n)
    }
}

fn pod<T>(o: &Opts, name: &str, size: usize, make: impl Fn(usize) -> T)
where
    T: Copy + serde::Serialize + serde::de::DeserializeOwned + bincode2::Encode + bincode2::Decode<()>,
{
    let n = size / 8;
    let v: Vec<T> = (0..n).map(&make).collect();
    let legacy = bincode2::config::legacy();
    let enc_case = format!("pod/encode/{}/{}", size_label(size), name);
    let dec_case = format!("pod/decode/{}/{}", size_label(size), name);

    if o.wants(&enc_case) {
        let mut buf: Vec<u8> = Vec::with_capacity(size + 16);
        let ns = measure(o, || {
            buf.clear();
            bincode1::serialize_into(&mut buf, black_box(&v)).unwrap();
            black_box(&mut buf);
        });
        emit(&enc_case, "rust_bincode1", ns, size, n);
        let mut slice = vec![0u8; size + 16];
        let ns = measure(o, || {
            let used = bincode2::encode_into_slice(black_box(&v), &mut slice, legacy).unwrap();
            black_box(used);
            black_box(&mut slice);
        });
        emit(&enc_case, "rust_bincode2", ns, size, n);
    }
    if !o.wants(&dec_case) {
        return;
    }
    let bytes = bincode1::serialize(&v).unwrap();
    let ns = measure(o, || {
        let d: Vec<T> = bincode1::deserialize(black_box(&bytes)).unwrap();
        black_box(d);
    });
    emit(&dec_case, "rust_bincode1", ns, size, n);
    let ns = measure(o, || {
        let (d, _): (Vec<T>, usize) = bincode2::decode_from_slice(black_box(&bytes), legacy).unwrap();
        black_box(d);
    });
    emit(&dec_case, "rust_bincode2", ns, size, n);
}

const RECORDS: usize = 1000;

fn structs(o: &Opts) {
    let trades: Vec<Trade> = (0..RECORDS as u64).map(bench_trade).collect();
    let standard = bincode2::config::standard();

    // bincode 2, standard(): each record after the previous one into a reused slice.
    if o.wants("struct/encode/standard") {
        let mut slice = vec![0u8; 1 << 20];
        let mut total = 0;
        let ns = measure(o, || {
            let mut pos = 0;
            for t in black_box(&trades) {
                pos += bincode2::encode_into_slice(t, &mut slice[pos..], standard).unwrap();
            }
            black_box(&mut slice);
            total = pos;
        });
        emit("struct/encode/standard", "rust_bincode2", ns, total, RECORDS);
    }
    if o.wants("struct/decode/standard") {
        let (bytes2, offs2) = concat(&trades, |t| bincode2::encode_to_vec(t, standard).unwrap());
        let ns = measure(o, || {
            for w in offs2.windows(2) {
                let (t, _): (Trade, usize) =
                    bincode2::decode_from_slice(black_box(&bytes2[w[0]..w[1]]), standard).unwrap();
                black_box(t);
            }
        });
        emit("struct/decode/standard", "rust_bincode2", ns, bytes2.len(), RECORDS);
    }

    // bincode 1, bincode::serialize (the legacy format), appended to a reused Vec.
    if o.wants("struct/encode/legacy") {
        let mut buf: Vec<u8> = Vec::with_capacity(1 << 20);
        let mut total = 0;
        let ns = measure(o, || {
            buf.clear();
            for t in black_box(&trades) {
                bincode1::serialize_into(&mut buf, t).unwrap();
            }
            black_box(&mut buf);
            total = buf.len();
        });
        emit("struct/encode/legacy", "rust_bincode1", ns, total, RECORDS);
    }
    if o.wants("struct/decode/legacy") {
        let (bytes1, offs1) = concat(&trades, |t| bincode1::serialize(t).unwrap());
        let ns = measure(o, || {
            for w in offs1.windows(2) {
                let t: Trade = bincode1::deserialize(black_box(&bytes1[w[0]..w[1]])).unwrap();
                black_box(t);
            }
        });
        emit("struct/decode/legacy", "rust_bincode1", ns, bytes1.len(), RECORDS);
    }
}

fn concat(trades: &[Trade], enc: impl Fn(&Trade) -> Vec<u8>) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = Vec::new();
    let mut offs = vec![0];
    for t in trades {
        bytes.extend(enc(t));
        offs.push(bytes.len());
    }
    (bytes, offs)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let rounds = arg("--rounds").map(|r| r.parse().expect("--rounds N")).unwrap_or(if quick { 3 } else { 9 });
    let only = arg("--only").unwrap_or_default();
    let cases = arg("--cases").map(|c| c.split(',').map(str::to_string).collect());
    let round_ms: u128 = arg("--round-ms").map(|r| r.parse().expect("--round-ms MS")).unwrap_or(if quick { 5 } else { 20 });
    let o = Opts { rounds, round_ns: round_ms * 1_000_000, cases };
    if only.is_empty() || only == "pod" {
        // 64 B, 256 B, then 1 KiB .. 64 MiB in steps of 16x (as keel bench bincode).
        let max = if quick { 1 << 20 } else { 64 << 20 };
        let mut sizes = vec![64usize, 256];
        let mut size = 1024usize;
        while size <= max {
            sizes.push(size);
            size *= 16;
        }
        for size in sizes {
            pod(&o, "u64", size, |i| (i as u64).wrapping_mul(0x9E3779B97F4A7C15));
            pod(&o, "f64", size, |i| i as f64 * 0.5 + 0.25);
        }
    }
    if only.is_empty() || only == "struct" {
        structs(&o);
    }
}

// SPDX-License-Identifier: MIT
//! Nothing of its own: this crate exists so that cargo builds yyjson's C source (bundled by
//! `yyjson-sys`) into one static library that keel's C++ benchmarks link and call directly.

// Keep the dependency (and with it the bundled `libyyjson.a`) in the static library.
pub use yyjson_sys as _yyjson;

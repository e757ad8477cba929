// SPDX-License-Identifier: MIT
// keel::json — a validating SIMD JSON parser (AVX-512 / AVX2 / scalar, chosen at run time), an
// immutable compact DOM, mutable documents, JSON Patch / Merge Patch and a writer. NDJSON
// (keel/json/ndjson.h) and struct mapping (keel/json/mapping.h) have their own headers.
//
//   keel::json::parser p;                      // reuse it: steady-state parses allocate nothing
//   auto root = p.parse(text);                 // result<value>: check root.ok() / root.error()
//   auto name = root->find("name");            // result<value>
//   std::string_view s = *name->get<std::string_view>();
//   auto out = keel::json::write(*root, {.pretty = true});
#pragma once

#include "keel/json/document.h"
#include "keel/json/error.h"
#include "keel/json/mutable.h"
#include "keel/json/options.h"
#include "keel/json/parser.h"
#include "keel/json/patch.h"
#include "keel/json/value.h"
#include "keel/json/writer.h"

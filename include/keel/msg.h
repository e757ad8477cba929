// SPDX-License-Identifier: MIT
// keel::msg — a typed message: a header (source, target, type, version) and named values of
// every common type, with lossless binary, MessagePack, CBOR, JSON and XML forms (docs/msg.md).
//
//   keel::msg::message m;
//   m.header.type = "order";
//   m.set("id", std::uint64_t{42});
//   m.set("price", 9.5);
//   std::string bytes = keel::msg::to_binary(m);
//   auto back = keel::msg::from_binary(bytes);      // result<message>
//   std::uint32_t id = *back->get<std::uint32_t>("id");  // checked conversion
#pragma once

#include "keel/msg/binary.h"
#include "keel/msg/cbor.h"
#include "keel/msg/error.h"
#include "keel/msg/forms.h"
#include "keel/msg/json.h"
#include "keel/msg/map.h"
#include "keel/msg/message.h"
#include "keel/msg/msgpack.h"
#include "keel/msg/numeric.h"
#include "keel/msg/shared.h"
#include "keel/msg/value.h"
#include "keel/msg/view.h"
#include "keel/msg/xml.h"

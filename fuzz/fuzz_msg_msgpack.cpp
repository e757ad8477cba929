// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's msgpack reader in both modes (the check: msg_fuzz_check.h).
#include "msg_fuzz_check.h"

KEEL_FUZZ_MSG_CODEC(msgpack)

// SPDX-License-Identifier: MIT
// keel::common from an installed package: CPU detection, UTF-8 validation, field lists.
#include <keel/cpu.h>
#include <keel/fields.h>
#include <keel/utf8.h>

#include <cstdio>
#include <string>

namespace consumer {
struct point {
  int x = 0;
  int y = 0;
};
KEEL_FIELDS(point, x, y)
}  // namespace consumer

int use_common() {
  int failures = 0;
  if (!keel::isa_supported(keel::best_isa())) ++failures;
  if (!keel::utf8_valid(std::string("caf\xC3\xA9"))) ++failures;
  if (keel::utf8_valid(std::string("\xC3"))) ++failures;
  if (keel::field_names<consumer::point>()[1] != "y") ++failures;
  if (failures) std::printf("use_common: %d failures\n", failures);
  return failures;
}

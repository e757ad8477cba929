# SPDX-License-Identifier: MIT
# Turns every ```cpp block of a Markdown page into a GoogleTest case (docs examples are tests).
import re
import sys

src, out, suite = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src, encoding="utf-8") as f:
    blocks = re.findall(r"```cpp\n(.*?)```", f.read(), re.S)
with open(out, "w", encoding="utf-8") as f:
    f.write("// Generated from %s by doc_examples.py.\n#undef NDEBUG\n#include <cassert>\n" % src)
    f.write("#include <gtest/gtest.h>\n#include <cstdint>\n#include <span>\n#include <string>\n")
    f.write("#include <string_view>\n#include <vector>\n#include <memory>\n#include \"keel/msg.h\"\n")
    for i, block in enumerate(blocks):
        f.write("TEST(%s, Example%d) {\n%s}\n" % (suite, i + 1, block))

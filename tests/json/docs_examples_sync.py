#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The json guide pages' C++ examples are the code of tests/json/docs_examples_test.cpp: every
# statement of every ```cpp block (comments and whitespace aside, so line wrapping and comment
# alignment may differ) appears in the test file, which compiles and runs them.
#   docs_examples_sync.py TEST_CPP PAGE.md...
import re
import sys


def code(text):
    text = re.sub(r'//[^\n]*', '', text)      # comments (no example has '//' in a string)
    return re.sub(r'\s+', '', text)


def main():
    test = code(open(sys.argv[1], encoding='utf-8').read())
    missing = []
    for page in sys.argv[2:]:
        doc = open(page, encoding='utf-8').read()
        for block in re.findall(r'```cpp\n(.*?)```', doc, re.S):
            # A macro line (KEEL_FIELDS(...)) ends a statement without a ';'.
            block = '\n'.join(l + (';' if re.match(r'[A-Z_]+\(.*\)\s*$', l) else '')
                              for l in block.splitlines() if not l.startswith('#include'))
            for stmt in code(block).split(';'):
                if stmt and stmt not in test:
                    missing.append(f'{page}: {stmt}')
    for m in missing:
        print('not in the test:', m)
    if missing:
        sys.exit(1)
    print('docs examples: every statement is in the test')


main()

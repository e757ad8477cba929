# SPDX-License-Identifier: MIT
# Fails when README.md does not show an example program exactly as examples/ holds it.
file(READ ${README} readme)
file(GLOB programs ${EXAMPLES}/*.cpp)
foreach(p IN LISTS programs)
  file(READ ${p} code)
  string(FIND "${readme}" "```cpp\n${code}```" at)
  if(at EQUAL -1)
    get_filename_component(name ${p} NAME)
    message(FATAL_ERROR "README.md does not show examples/${name} as it is")
  endif()
endforeach()

# One layering check (tests/layering/CMakeLists.txt): compiles `#include "HEADER"` with exactly the
# include folders a target builds with, and expects it to compile (EXPECT=pass) or to fail because
# the header is not found (EXPECT=fail; any other error fails the check, so it cannot pass by
# accident).
#   cmake -DCXX=... -DINCLUDES=a;b -DHEADER=baton/plan.hpp -DEXPECT=fail -DWORK=dir -P check.cmake
file(MAKE_DIRECTORY "${WORK}")
string(MAKE_C_IDENTIFIER "${HEADER}_${EXPECT}" stem)
set(src "${WORK}/${stem}.cpp")
file(WRITE "${src}" "#include \"${HEADER}\"\nint main() { return 0; }\n")
set(args -std=c++20 -fsyntax-only)
foreach(d ${INCLUDES})
  list(APPEND args "-I${d}")
endforeach()
execute_process(COMMAND ${CXX} ${args} ${src} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "pass")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${HEADER} should compile with ${INCLUDES}:\n${err}")
  endif()
  message("layering: ${HEADER} is visible, as it must be")
else()
  if(rc EQUAL 0)
    message(FATAL_ERROR "${HEADER} compiled with ${INCLUDES}: this layer can see what it must not")
  endif()
  if(NOT err MATCHES "${HEADER}: No such file")
    message(FATAL_ERROR "${HEADER} failed for another reason than not being visible:\n${err}")
  endif()
  message("layering: ${HEADER} is not visible, as it must not be")
endif()

# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test(test_dynamics "/work/main/build/tests/test_dynamics")
set_tests_properties(test_dynamics PROPERTIES  ENVIRONMENT "CS_SHARED_DIR=/work/shared;CS_SOURCE_DIR=/work/main" SKIP_RETURN_CODE "77" TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;20;add_test;/work/main/tests/CMakeLists.txt;0;")


# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/cs_builder.c" "CMakeFiles/contactsim_obj.dir/src/cs_builder.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_builder.c.o.d"
  "/work/main/src/cs_data.c" "CMakeFiles/contactsim_obj.dir/src/cs_data.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_data.c.o.d"
  "/work/main/src/cs_error.c" "CMakeFiles/contactsim_obj.dir/src/cs_error.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_error.c.o.d"
  "/work/main/src/cs_io_xml.c" "CMakeFiles/contactsim_obj.dir/src/cs_io_xml.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_io_xml.c.o.d"
  "/work/main/src/cs_model.c" "CMakeFiles/contactsim_obj.dir/src/cs_model.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_model.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")

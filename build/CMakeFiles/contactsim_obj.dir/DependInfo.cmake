
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/cs_builder.c" "CMakeFiles/contactsim_obj.dir/src/cs_builder.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_builder.c.o.d"
  "/work/main/src/cs_data.c" "CMakeFiles/contactsim_obj.dir/src/cs_data.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_data.c.o.d"
  "/work/main/src/cs_dyn_aba.c" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_aba.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_aba.c.o.d"
  "/work/main/src/cs_dyn_crba.c" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_crba.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_crba.c.o.d"
  "/work/main/src/cs_dyn_jacobian.c" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_jacobian.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_jacobian.c.o.d"
  "/work/main/src/cs_dyn_kinematics.c" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_kinematics.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_kinematics.c.o.d"
  "/work/main/src/cs_dyn_rnea.c" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_rnea.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_dyn_rnea.c.o.d"
  "/work/main/src/cs_error.c" "CMakeFiles/contactsim_obj.dir/src/cs_error.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_error.c.o.d"
  "/work/main/src/cs_forward.c" "CMakeFiles/contactsim_obj.dir/src/cs_forward.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_forward.c.o.d"
  "/work/main/src/cs_integrate.c" "CMakeFiles/contactsim_obj.dir/src/cs_integrate.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_integrate.c.o.d"
  "/work/main/src/cs_io_xml.c" "CMakeFiles/contactsim_obj.dir/src/cs_io_xml.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_io_xml.c.o.d"
  "/work/main/src/cs_model.c" "CMakeFiles/contactsim_obj.dir/src/cs_model.c.o" "gcc" "CMakeFiles/contactsim_obj.dir/src/cs_model.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")

file(REMOVE_RECURSE
  "CMakeFiles/contactsim_obj.dir/src/cs_builder.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_builder.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_data.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_data.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_aba.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_aba.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_crba.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_crba.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_jacobian.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_jacobian.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_kinematics.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_kinematics.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_rnea.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_dyn_rnea.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_error.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_error.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_forward.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_forward.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_integrate.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_integrate.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_io_xml.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_io_xml.c.o.d"
  "CMakeFiles/contactsim_obj.dir/src/cs_model.c.o"
  "CMakeFiles/contactsim_obj.dir/src/cs_model.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/contactsim_obj.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()

file(REMOVE_RECURSE
  "libcontactsim.pdb"
  "libcontactsim.so"
  "libcontactsim.so.0"
  "libcontactsim.so.0.1.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/contactsim.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()

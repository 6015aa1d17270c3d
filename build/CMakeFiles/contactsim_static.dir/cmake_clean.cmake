file(REMOVE_RECURSE
  "libcontactsim.a"
  "libcontactsim.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/contactsim_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()

file(REMOVE_RECURSE
  "CMakeFiles/contactsim_cli.dir/cli/main.c.o"
  "CMakeFiles/contactsim_cli.dir/cli/main.c.o.d"
  "contactsim"
  "contactsim.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/contactsim_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()

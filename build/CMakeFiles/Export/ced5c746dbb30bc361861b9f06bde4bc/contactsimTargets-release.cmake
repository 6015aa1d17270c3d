#----------------------------------------------------------------
# Generated CMake target import file for configuration "Release".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "contactsim::contactsim" for configuration "Release"
set_property(TARGET contactsim::contactsim APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(contactsim::contactsim PROPERTIES
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libcontactsim.so.0.1.0"
  IMPORTED_SONAME_RELEASE "libcontactsim.so.0"
  )

list(APPEND _cmake_import_check_targets contactsim::contactsim )
list(APPEND _cmake_import_check_files_for_contactsim::contactsim "${_IMPORT_PREFIX}/lib/libcontactsim.so.0.1.0" )

# Import target "contactsim::contactsim_static" for configuration "Release"
set_property(TARGET contactsim::contactsim_static APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(contactsim::contactsim_static PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libcontactsim.a"
  )

list(APPEND _cmake_import_check_targets contactsim::contactsim_static )
list(APPEND _cmake_import_check_files_for_contactsim::contactsim_static "${_IMPORT_PREFIX}/lib/libcontactsim.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)

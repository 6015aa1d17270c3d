# Empty dependencies file for contactsim_static.
# This may be replaced when dependencies are built.

# Empty dependencies file for contactsim.
# This may be replaced when dependencies are built.

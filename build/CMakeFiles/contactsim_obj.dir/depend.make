# Empty dependencies file for contactsim_obj.
# This may be replaced when dependencies are built.

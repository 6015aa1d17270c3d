# Empty dependencies file for contactsim_cli.
# This may be replaced when dependencies are built.

file(REMOVE_RECURSE
  "libcontactsim.a"
)

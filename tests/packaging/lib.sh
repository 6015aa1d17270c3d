# Sourced by the packaging tests run as `SCRIPT BUILD_DIR SOURCE_DIR [CC]`: sets build, src
# and CC from the arguments, clears the environment the installed tool reads, makes a
# temporary directory $tmp (removed on exit) named after $1 of `lib_init NAME`, and defines
# fail (print the step and the last output, exit 1), ok and run (a command whose output goes
# to $tmp/out; a non-zero exit fails).
lib_init() { # lib_init NAME BUILD_DIR SOURCE_DIR [CC]
  build=$(cd "$2" && pwd -P)
  src=$(cd "$3" && pwd -P)
  export CC=${4:-cc}
  unset CONTACTSIM_MODELS CONTACTSIM_SHARED_MODELS LD_LIBRARY_PATH
  tmp=$(mktemp -d "/tmp/contactsim_$1.XXXXXX") && tmp=$(cd "$tmp" && pwd -P) || exit 1
  trap 'rm -rf "$tmp"' EXIT
  step=0
}
fail() {
  echo "FAIL ($step): $*"
  [ -f "$tmp/out" ] && sed 's/^/  | /' "$tmp/out" | tail -30
  exit 1
}
ok() { echo "ok   ($step) $*"; }
run() { # run CMD...: output in $tmp/out, fail on a non-zero exit
  "$@" >"$tmp/out" 2>&1 || fail "exit $?: $*"
}

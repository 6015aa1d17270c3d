#!/bin/bash
# usage: check_cli.sh BUILD_DIR SOURCE_DIR
# The tool in the build tree: no source path compiled in, models found beside it (and
# through CONTACTSIM_MODELS), `help CMD` = `CMD --help` for every command, `bench` handed
# over to the sibling executables and refused clearly without them.
set -u
build=$(cd "$1" && pwd -P)
src=$(cd "$2" && pwd -P)
cs=$build/contactsim
unset CONTACTSIM_MODELS
tmp=$(mktemp -d /tmp/contactsim_cli.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

# without debug info (-g keeps the source directories); source file names (.c, .h) are
# allowed: the sanitizers' reports keep them
objcopy --strip-debug "$cs" "$tmp/stripped" || fail "objcopy --strip-debug $cs"
if strings -a "$tmp/stripped" | grep -F "$src" | grep -Ev '\.[ch]$'; then
  fail "a source-tree path is compiled into $cs"
fi
readelf -d "$cs" | grep -q 'NEEDED.*libcontactsim\.so' || fail "$cs is not linked to libcontactsim.so"
echo "ok   no source path in contactsim; linked to libcontactsim.so"

"$cs" run --help | grep -qF "models are in $build/models" || fail "run --help: models not in $build/models"
CONTACTSIM_MODELS=/nonexistent "$cs" run --help | grep -qF "models are in /nonexistent" ||
  fail "CONTACTSIM_MODELS ignored"
(cd "$tmp" && "$cs" run --scene cube_slide --steps 10 >/dev/null) || fail "run --scene from elsewhere"
echo "ok   models: $build/models, CONTACTSIM_MODELS overrides"

for c in run check bench demo fclib help version; do
  "$cs" help $c >"$tmp/a" 2>&1 || fail "help $c: exit $?"
  "$cs" $c --help >"$tmp/b" 2>&1 || fail "$c --help: exit $?"
  cmp -s "$tmp/a" "$tmp/b" || fail "help $c differs from $c --help"
  grep -q "usage: contactsim $c" "$tmp/a" || fail "help $c: no usage line"
done
echo "ok   contactsim help CMD = contactsim CMD --help for run check bench demo fclib help version"
"$cs" help nosuch >"$tmp/a" 2>&1 && fail "help nosuch succeeded"
grep -q "unknown command 'nosuch'" "$tmp/a" || fail "help nosuch: $(cat "$tmp/a")"
echo "ok   help nosuch: $(cat "$tmp/a")"

# bad values of `run`'s options: a non-zero exit and a message naming the option
bad() { # expected-word, then the arguments of contactsim run
  local word=$1
  shift
  "$cs" run "$@" >"$tmp/a" 2>&1 && fail "run $*: succeeded"
  grep -q -- "$word" "$tmp/a" || fail "run $*: message does not name $word: $(head -2 "$tmp/a")"
}
bad --steps --scene cube_slide --steps 2.7
bad --steps --scene cube_slide --steps 1e30
bad --steps --scene cube_slide --steps -1
bad --every --scene cube_slide --every 0
bad --iterations --scene cube_slide --iterations 0
bad --iterations --scene cube_slide --iterations 3e9
bad --tol --scene cube_slide --tol -1
bad --tol --scene cube_slide --tol nan
bad --dt --scene cube_slide --dt 0
bad --ratio --scene stack_ratio --ratio -3
bad --ratio --scene cube_slide --ratio 2
bad --dump-step --scene cube_slide --dump-step 3
bad --dump-step --scene cube_slide --dump-step -2 --dump-fclib "$tmp/p.h5"
bad --fallback --scene cube_slide --fallback nosuch
bad "unknown solver" --scene cube_slide --solver nosuch
bad "unknown scene" --scene nosuch
bad "unknown or incomplete option" --scene cube_slide --steps
bad --floor --scene cube_slide --floor
if "$cs" --help | grep -q FCLIB; then
  bad "nothing written" --scene drop --steps 5 --dump-fclib "$tmp/p.h5"
  [ ! -e "$tmp/p.h5" ] || fail "run --dump-fclib without contacts wrote $tmp/p.h5"
fi
echo "ok   run: bad option values refused with a message naming the option"

# --floor: a plane at the lowest collision point at qpos0 (basic.urdf: its base box, half
# height 1.5 at z 0.05, is lowest: -1.45), and the robot falls onto it
"$cs" run "$src/tests/data/urdf/basic.urdf" --floor --steps 200 >"$tmp/a" 2>&1 ||
  fail "run --floor: $(cat "$tmp/a")"
grep -q "floor: plane at z = -1.45 m" "$tmp/a" || fail "run --floor: $(head -2 "$tmp/a")"
grep -q " 0 contacts/step" "$tmp/a" && fail "run --floor: no contact with the floor: $(cat "$tmp/a")"
echo "ok   run --floor: plane at z = -1.45 m under basic.urdf, in contact"
# the loader notes counted in one line (basic.urdf: its two velocity limits and a DAE visual)
grep -q "read but not simulated: 3 items of 2 kinds (0 attribute, 0 element, 2 other)" \
  "$tmp/a" || fail "run: no line counting the loader notes: $(cat "$tmp/a")"
echo "ok   run: one line counts what the file had that is read but not simulated"

# handed over (argv unchanged): each benchmark's own --help
for b in dynamics fclib anymal build limits grasp pile single-contact table2 contactbench; do
  "$cs" bench $b --help >"$tmp/a" 2>&1 || fail "bench $b --help: exit $?"
  grep -q "usage: contactsim bench $b" "$tmp/a" || fail "bench $b --help: $(head -2 "$tmp/a")"
done
echo "ok   bench NAME --help reaches contactsim-bench / contactsim-experiments"
# without the siblings (as installed)
mkdir -p "$tmp/alone" && cp -P "$cs" "$build"/libcontactsim.so* "$tmp/alone/" || fail "copy"
"$tmp/alone/contactsim" bench anymal >"$tmp/a" 2>&1 && fail "bench without contactsim-bench succeeded"
grep -q "build tree" "$tmp/a" || fail "bench without contactsim-bench: $(cat "$tmp/a")"
"$tmp/alone/contactsim" bench table2 >"$tmp/a" 2>&1 && fail "bench without contactsim-experiments succeeded"
grep -q "contactsim-experiments" "$tmp/a" || fail "bench table2 alone: $(cat "$tmp/a")"
echo "ok   bench refused without the benchmark executables:"
sed 's/^/       /' "$tmp/a"
echo "cli checks passed"

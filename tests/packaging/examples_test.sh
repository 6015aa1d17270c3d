#!/bin/bash
# usage: examples_test.sh BUILD_DIR SOURCE_DIR [CC]
# The examples of examples/ (README.md there) as a user builds them: installs the build
# into a temporary prefix, configures and builds examples/ against it with CMake
# find_package(contactsim), then, from another working directory, runs each program and
# checks its exit status and one number it prints:
#   hello        the installed cube after 1 s: base height 0.1 m (to 1 mm), 4 contacts
#                carrying its weight, 9.81 N (to 1 mN);
#                the installed ANYmal: runs, in contact
#   arm_hold     steady normal force of the 10 N press (to 2 %)
#   gripper      the box's rise of 0.1 m (to 5 mm)
# and that a failed check fails the program: gripper with a friction too low to hold the
# box (mu 0.05: 2 x 0.05 x 5 N < 0.98 N) exits with 1.
set -u
. "$(dirname "$0")/lib.sh"
lib_init examples "$@"
# number PREFIX: the number after PREFIX at the start of a line of $tmp/out
number() {
  sed -n "s/^$1 \+\([-+]*[0-9][-+0-9.eE]*\).*/\1/p" "$tmp/out" | head -1
}
# within VALUE EXPECTED TOL: |VALUE - EXPECTED| <= TOL
within() {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(a != "" && d <= t && -d <= t) }'
}

step=install
P=$tmp/prefix
run cmake --install "$build" --prefix "$P"
ok "installed into $P"

step=build
run cmake -S "$src/examples" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release
run cmake --build "$tmp/ex"
for ex in hello arm_hold gripper; do
  [ -x "$tmp/ex/$ex" ] || fail "no $ex built"
done
ok "examples/ built with find_package(contactsim) against $P"
mkdir -p "$tmp/work" && cd "$tmp/work" || exit 1

step=hello
run "$tmp/ex/hello"
grep -q "$P/share/contactsim/models/cube.xml" "$tmp/out" || fail "hello: not the installed cube"
h=$(number "base height")
within "$h" 0.1 0.001 || fail "hello: base height '$h', not 0.1 m"
[ "$(number contacts)" = 4 ] || fail "hello: not 4 contacts"
fz=$(sed -n 's/^contact force from the world.*, \([-0-9.]*\)) N$/\1/p' "$tmp/out")
within "$fz" 9.81 0.001 || fail "hello: the contacts carry '$fz' N, not the cube's 9.81 N"
ok "hello: the installed cube at height $h m on 4 contacts carrying $fz N"
run "$tmp/ex/hello" "$P/share/contactsim/models/anymal_c.xml"
n=$(number contacts)
[ -n "$n" ] && [ "$n" -ge 1 ] || fail "hello anymal_c.xml: no contact"
grep -q "contact 0 force on" "$tmp/out" || fail "hello anymal_c.xml: no contact force"
ok "hello anymal_c.xml: $n contacts, $(grep "contact 0 force" "$tmp/out")"

step=arm_hold
run "$tmp/ex/arm_hold"
f=$(number "steady normal force")
within "$f" 10 0.2 || fail "arm_hold: normal force '$f', not 10 N to 2 %"
ok "arm_hold: steady normal force $f N (10 N commanded)"

step=gripper
run "$tmp/ex/gripper"
r=$(number "box rise")
within "$r" 0.1 0.005 || fail "gripper: box rise '$r', not 0.1 m to 5 mm"
ok "gripper: box rise $r m, $(grep "grip force" "$tmp/out")"
# a check that fails: the box slips out of a grip with mu = 0.05
sed 's/friction="1 0 0"/friction="0.05 0 0"/' "$src/examples/models/gripper.xml" >"$tmp/slip.xml"
grep -q 'friction="0.05 0 0"' "$tmp/slip.xml" || fail "could not lower the friction"
"$tmp/ex/gripper" "$tmp/slip.xml" >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] || fail "gripper with mu 0.05: exit $rc, not 1"
grep -q "FAIL" "$tmp/out" || fail "gripper with mu 0.05: no FAIL message"
ok "gripper with mu 0.05 exits with 1: $(grep FAIL "$tmp/out" | head -1)"
echo "examples test passed"

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

# bad values: exit status RC, one message "contactsim CMD: ..." naming WORD (the option)
expect() { # RC CMD WORD, then the arguments of contactsim CMD (CMD may be "fclib solve")
  local rc=$1 cmd=$2 word=$3 got
  shift 3
  "$cs" $cmd "$@" >"$tmp/a" 2>&1
  got=$?
  [ $got = "$rc" ] || fail "$cmd $*: exit $got, not $rc: $(head -2 "$tmp/a")"
  grep -q -- "^contactsim $cmd: .*$word" "$tmp/a" ||
    fail "$cmd $*: no 'contactsim $cmd: ...$word' message: $(head -2 "$tmp/a")"
}
bad() { expect 2 run "$@"; }
n=0
cat >"$tmp/slider.xml" <<'EOF2'
<mujoco model="slider">
  <option timestep="0.01" gravity="0 0 0"/>
  <worldbody>
    <body name="a"><joint name="x" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="2" contype="0" conaffinity="0"/></body>
    <body name="b" pos="0 1 0"><joint name="y" type="slide" axis="0 1 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="4" contype="0" conaffinity="0"/></body>
  </worldbody>
  <actuator><motor name="push" joint="x"/><motor name="pull" joint="y"/></actuator>
  <keyframe><key name="k1" qpos="0.5 0.25" qvel="1 2" ctrl="0 0"/></keyframe>
</mujoco>
EOF2
sl=$tmp/slider.xml
while read -r word args; do
  eval "bad $word $args"
  n=$((n + 1))
done <<EOF2
--scene --scene nosuch
--scene --scene cube_slide --scene drop
--ratio --scene stack_ratio --ratio -3
--ratio --scene stack_ratio --ratio nan
--ratio --scene stack_ratio --ratio 2x
--ratio --scene cube_slide --ratio 2
--boxes --scene pile --boxes 0
--boxes --scene pile --boxes 1e9
--boxes --scene cube_slide --boxes 3
--steps --scene cube_slide --steps 2.7
--steps --scene cube_slide --steps 1e30
--steps --scene cube_slide --steps -1
--steps --scene cube_slide --steps
--steps --scene cube_slide --steps 3 --steps 4
--dt --scene cube_slide --dt 0
--dt --scene cube_slide --dt -1e-3
--dt --scene cube_slide --dt 1e9
--dt --scene cube_slide --dt inf
--dt --scene cube_slide --dt 1ms
--solver --scene cube_slide --solver nosuch
--solver --scene cube_slide --solver
--fallback --scene cube_slide --fallback nosuch
--tol --scene cube_slide --tol -1
--tol --scene cube_slide --tol nan
--tol --scene cube_slide --tol 1e999
--tol --scene cube_slide --tol 1e-6x
--iterations --scene cube_slide --iterations 0
--iterations --scene cube_slide --iterations 3e9
--iterations --scene cube_slide --iterations 2147483648
--out --scene cube_slide --out
--every --scene cube_slide --every 0
--every --scene cube_slide --every 1.5
--dump-fclib --scene cube_slide --dump-fclib $tmp/p.h5 --no-contact
--dump-fclib --scene cube_slide --dump-fclib $tmp/p.h5 --steps 0
--dump-step --scene cube_slide --dump-step 3
--dump-step --scene cube_slide --dump-step -2 --dump-fclib $tmp/p.h5
--dump-step --scene cube_slide --dump-step 10 --steps 10 --dump-fclib $tmp/p.h5
--key --scene cube_slide --key 0
--key $sl --key nokey
--key $sl --key 1
--qpos $sl --qpos 1
--qpos $sl --qpos 1,2,3
--qpos $sl --qpos 1,x
--qpos $sl --qpos 1,nan
--qpos --scene cube_slide --qpos 1,2
--qvel $sl --qvel 1,,2
--qvel $sl --qvel 1
--ctrl $sl --ctrl 1
--ctrl $sl --ctrl 1,inf
--ctrl $sl --ctrl 1,2 --ctrl-file $tmp/u.csv
--ctrl-file --scene cube_slide --ctrl-file $tmp/u.csv
--floor --scene cube_slide --floor
--floating-base $sl --fixed-base --floating-base
--package-path $sl --package-path
--package-path $sl --package-path a --package-path b
"unknown option '--bogus'" --scene cube_slide --bogus
"one MODEL only" $sl $sl
"give a MODEL file or --scene" $sl --scene cube_slide
EOF2
# files: exit status 1, the message names the option (and the file and line)
expect 1 run "--out $tmp/nodir/x.csv" --scene cube_slide --steps 1 --out "$tmp/nodir/x.csv"
ctrl_bad() { # WORD, then the lines of the file
  local word=$1
  shift
  printf '%s\n' "$@" >"$tmp/bad.csv"
  expect 1 run "--ctrl-file $tmp/bad.csv$word" "$sl" --steps 3 --ctrl-file "$tmp/bad.csv"
  n=$((n + 1))
}
ctrl_bad ":3: column 2 'abc' is not a finite number" time,push 0,1 0.5,abc
ctrl_bad ":3: time 0 is not after" time,push 0,1 0,2
ctrl_bad ":2: 2 fields, the header has 3" time,push,u2 0,1
ctrl_bad ":1: the header's first column is 't'" t,push 0,1
ctrl_bad ":1: column 2 'nosuch' names no actuator" time,nosuch 0,1
ctrl_bad ":1: column 3 'u1' repeats an actuator" time,push,u1 0,1,1
ctrl_bad ": no data row" time,push
ctrl_bad ":4: column 1 'nan'" "# comment" "" time,push nan,1
expect 1 run "--ctrl-file $tmp/none.csv: cannot read" "$sl" --ctrl-file "$tmp/none.csv"
if "$cs" --help | grep -q FCLIB; then
  expect 1 run "--dump-fclib: nothing written" --scene drop --steps 5 --dump-fclib "$tmp/p.h5"
  [ ! -e "$tmp/p.h5" ] || fail "run --dump-fclib without contacts wrote $tmp/p.h5"
  n=$((n + 1))
fi
echo "ok   run: $n bad option values refused (exit 2; 1 for files), each message names the option"

n=0
while read -r rc cmd word args; do
  eval "expect $rc $cmd $word $args"
  n=$((n + 1))
done <<EOF2
2 check "unknown option '--bogus'" $sl --bogus
2 check "one MODEL only" $sl $sl
2 check "missing MODEL" --fixed-base
2 check --package-path $sl --package-path
2 check --floating-base $sl --floating-base --fixed-base
2 demo --seconds --seconds 0
2 demo --seconds --seconds 1e5
2 demo --seconds --seconds abc
2 demo --seconds --seconds
2 demo --out --out a --out b
2 demo --solver --solver nosuch
2 demo "unknown option '--bogus'" --bogus
2 impact --samples box_wall --samples 0
2 impact --samples box_wall --samples 1.5
2 impact --sampler box_wall --sampler halton
2 impact --seed box_wall --seed -1
2 impact --threads box_wall --threads 0
2 impact --threads box_wall --threads 2000
2 impact --h box_wall --h 0
2 impact --h box_wall --h nan
2 impact --steps box_wall --steps 0
2 impact --steps box_wall --steps 2 --steps 3
2 impact --h box_wall --h
2 impact "unknown option '--bogus'" box_wall --bogus
2 impact "one EXAMPLE only" box_wall disk_stack
EOF2
if "$cs" --help | grep -q FCLIB; then
  "$cs" run --scene cube_slide --steps 1 --dump-fclib "$tmp/p.h5" >/dev/null || fail "dump p.h5"
  while read -r word args; do
    eval "expect 2 'fclib solve' $word $tmp/p.h5 $args"
    n=$((n + 1))
  done <<EOF2
--tol --solver ncp_admm --tol -1
--tol --solver ncp_admm --tol inf
--iterations --solver ncp_admm --iterations 0
--repeats --solver ncp_admm --repeats 65
--solver --solver nosuch
--solver --solver
--solver --solver ncp_admm --solver ncp_pgs
EOF2
  expect 2 "fclib solve" "unknown option '--bogus'" "$tmp/p.h5" --solver ncp_admm --bogus
  expect 2 "fclib info" "unknown option '--bogus'" "$tmp/p.h5" --bogus
  n=$((n + 1))
fi
echo "ok   check, demo, impact, fclib: $n bad option values refused (exit 2), messages name the option"

# --help of every command lists each of its options with a default or its range
for c in run check demo impact "fclib solve"; do
  "$cs" $c --help >"$tmp/a" || fail "$c --help"
  for o in $(grep -o -- '--[a-z-]*' "$tmp/a" | sort -u); do
    [ "$o" = --help ] && continue
    grep -- "^  $o" "$tmp/a" >/dev/null || fail "$c --help: $o has no line of its own"
  done
done
echo "ok   run, check, demo, impact, fclib solve: --help gives every option a line"

# start state and controls on the slider ($sl: two bodies, masses 2 and 4, gravity off,
# dt 0.01, motors push on x and pull on y). The CSV's last line: time, qpos, qvel, ...
last() { tail -1 "$1" | cut -d, -f1-5; }
"$cs" run "$sl" --steps 0 --qpos 1.5,-2 --qvel 3,4e-3 --out "$tmp/q.csv" >/dev/null || fail "run --qpos"
[ "$(last "$tmp/q.csv")" = "0,1.5,-2,3,0.0040000000000000001" ] || fail "--qpos/--qvel: $(last "$tmp/q.csv")"
"$cs" run "$sl" --steps 0 --key k1 --qvel 3,4 --out "$tmp/q.csv" >/dev/null || fail "run --key --qvel"
[ "$(last "$tmp/q.csv")" = "0,0.5,0.25,3,4" ] || fail "--key then --qvel: $(last "$tmp/q.csv")"
echo "ok   run --qpos, --qvel (after --key): the first state as given"
# a constant force F on mass m for N steps (semi-implicit Euler): v = N dt F/m,
# x = dt^2 F/m N (N + 1)/2; both bodies have F/m = 1: v = 1, x = 0.505 after 100 steps
near() { # value expected
  awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-12 && d > -1e-12) }'
}
"$cs" run "$sl" --steps 100 --ctrl 2,4 --out "$tmp/c.csv" >/dev/null || fail "run --ctrl"
IFS=, read -r t x y vx vy <<<"$(last "$tmp/c.csv")"
near "$x" 0.505 && near "$y" 0.505 && near "$vx" 1 && near "$vy" 1 ||
  fail "--ctrl 2,4: x y vx vy = $x $y $vx $vy, not 0.505 0.505 1 1"
echo "ok   run --ctrl held: x = 0.505, v = 1 after 100 steps of unit acceleration"
# piecewise constant: push 2 on [0, 0.1) then 0; pull 0 then 4 from 0.1 (a row in effect
# from the step starting at its time; the 10th step starts at t = 0.0999..., rounding):
# x = 1e-4 * 55 + 90 * 0.01 * 0.1 = 0.0955, vx = 0.1; y = 1e-4 * 90 * 91 / 2 = 0.4095, vy = 0.9
printf 'time,push,u2\n0,2,0\n0.1,0,4\n' >"$tmp/u.csv"
"$cs" run "$sl" --steps 100 --ctrl-file "$tmp/u.csv" --out "$tmp/c.csv" >/dev/null ||
  fail "run --ctrl-file"
IFS=, read -r t x y vx vy <<<"$(last "$tmp/c.csv")"
near "$x" 0.0955 && near "$y" 0.4095 && near "$vx" 0.1 && near "$vy" 0.9 ||
  fail "--ctrl-file: x y vx vy = $x $y $vx $vy, not 0.0955 0.4095 0.1 0.9"
# the same table by u-columns, in the other order, with blanks, a comment and CRLF
printf '# pull, push\r\ntime, u2 , u1\r\n\r\n0, 0, 2\r\n0.1, 4, 0\r\n' >"$tmp/u2.csv"
"$cs" run "$sl" --steps 100 --ctrl-file "$tmp/u2.csv" --out "$tmp/c2.csv" >/dev/null ||
  fail "run --ctrl-file u2.csv"
cmp -s "$tmp/c.csv" "$tmp/c2.csv" || fail "--ctrl-file: u1..unu columns differ from names"
echo "ok   run --ctrl-file: piecewise constant (x = 0.0955, y = 0.4095), by names = by u1..unu"

# the progress bar: on a terminal (script(1)) for a run over two seconds, never when piped
# (a tenth of the steps in the sanitizer build, which runs them about ten times slower)
nlong=15000000
grep -q "^CS_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null && nlong=1500000
long="$cs run $sl --steps $nlong"
$long >/dev/null 2>"$tmp/e" || fail "long run"
[ ! -s "$tmp/e" ] || fail "progress written to a pipe: $(head -c 200 "$tmp/e")"
if command -v script >/dev/null; then
  t0=$(date +%s%N)
  script -qec "$long" /dev/null >"$tmp/tty" 2>&1 || fail "long run under script"
  ms=$((($(date +%s%N) - t0) / 1000000))
  if [ $ms -gt 2500 ]; then
    grep -aq "contactsim run \[#*\.*\] .*($nlong of $nlong steps)" "$tmp/tty" ||
      fail "no progress bar on a terminal in a run of $ms ms"
    echo "ok   progress bar on a terminal ($ms ms run), none when piped"
  else
    echo "ok   no progress when piped (the terminal run took $ms ms, too short to show one)"
  fi
else
  echo "ok   no progress when piped (script(1) absent: the terminal case not checked)"
fi

# --floor: a plane at the lowest collision point at qpos0 (basic.urdf: its base box, half
# height 1.5 at z 0.05, is lowest: -1.45), and the robot falls onto it
"$cs" run "$src/tests/data/urdf/basic.urdf" --floor --steps 200 >"$tmp/a" 2>&1 ||
  fail "run --floor: $(cat "$tmp/a")"
grep -q "floor: plane at z = -1.45 m" "$tmp/a" || fail "run --floor: $(head -2 "$tmp/a")"
grep -q " 0 contacts/step" "$tmp/a" && fail "run --floor: no contact with the floor: $(cat "$tmp/a")"
echo "ok   run --floor: plane at z = -1.45 m under basic.urdf, in contact"
# the loader notes counted in one line (basic.urdf: its two velocity limits and a .ply visual)
grep -q "read but not simulated: 3 items of 2 kinds (0 attribute, 0 element, 2 other)" \
  "$tmp/a" || fail "run: no line counting the loader notes: $(cat "$tmp/a")"
echo "ok   run: one line counts what the file had that is read but not simulated"
# check lists the sensors (ANYmal C with an IMU, feet and joints: 39 sensors, 62 values)
"$cs" check "$src/tests/data/mjcf/anymal_c_sensors.xml" >"$tmp/a" 2>&1 ||
  fail "check anymal_c_sensors.xml: $(cat "$tmp/a")"
grep -q "^sensors      39 (62 values): imu_acc" "$tmp/a" || fail "check: no sensors line: $(cat "$tmp/a")"
echo "ok   check lists the sensors"

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

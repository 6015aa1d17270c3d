#!/bin/bash
# usage: install_test.sh BUILD_DIR SOURCE_DIR [CC]
# Installs the build into a temporary prefix, moves the prefix elsewhere (the install must
# be relocatable), then from another working directory, with CONTACTSIM_MODELS unset:
#   1. the tool: demo, check of an installed model, run --scene drop, `bench` refused,
#      the shared library found through the RPATH, no source or build path inside;
#   2. examples/hello_step.c built against the moved prefix with CMake find_package
#      (contactsim::contactsim, and contactsim::contactsim_static), with
#      `pkg-config --cflags --libs contactsim` and with `pkg-config --static` (against
#      libcontactsim.a: a copy of the prefix without the shared library, and the full prefix
#      with -l:libcontactsim.a), each run.
set -u
. "$(dirname "$0")/lib.sh"
lib_init install "$@"

step=install
run cmake --install "$build" --prefix "$tmp/stage"
mv "$tmp/stage" "$tmp/moved" || fail "cannot move the prefix"
P=$tmp/moved
ok "installed into $tmp/stage, moved to $P"
mkdir -p "$tmp/work" && cd "$tmp/work" || exit 1
pcfile=$(find "$P" -name contactsim.pc | head -1)
[ -n "$pcfile" ] || fail "no contactsim.pc installed"
libdir=$(dirname "$(dirname "$pcfile")")

step=tool
cs=$P/bin/contactsim
[ -x "$cs" ] || fail "no $cs"
for f in contactsim-bench contactsim-experiments; do
  [ -e "$P/bin/$f" ] && fail "$f is installed (it should stay in the build tree)"
done
run ldd "$cs"
loaded=$(awk '/libcontactsim\.so/ {print $3}' "$tmp/out")
[ -n "$loaded" ] && [ "$(readlink -f "$loaded")" = "$(readlink -f "$libdir/libcontactsim.so")" ] ||
  fail "bin/contactsim does not load the moved prefix's libcontactsim.so"
ok "bin/contactsim loads $libdir/libcontactsim.so (RPATH)"
if strings -a "$cs" "$libdir"/libcontactsim.so.* | grep -F -e "$src" -e "$build" >"$tmp/out"; then
  fail "a source or build path is compiled in"
fi
ok "no source or build path in bin/contactsim and libcontactsim.so"
run "$cs" demo --out "$tmp/work/demo"
grep -q "final base height" "$tmp/out" || fail "demo: no summary"
[ "$(wc -l <"$tmp/work/demo/demo.csv")" -gt 3000 ] || fail "demo: short demo.csv"
grep -q "$P/share/contactsim/models/anymal_c.xml" "$tmp/out" ||
  fail "demo: did not use the installed models"
ok "contactsim demo --out DIR (models from $P/share/contactsim/models)"
run "$cs" check "$P/share/contactsim/models/anymal_c.xml"
grep -q "^forward      ok" "$tmp/out" || fail "check: forward not ok"
ok "contactsim check share/contactsim/models/anymal_c.xml"
run "$cs" run --scene drop --steps 50 --out x.csv
[ "$(wc -l <x.csv)" = 52 ] || fail "run: x.csv has $(wc -l <x.csv) lines, not 52"
ok "contactsim run --scene drop --steps 50 --out x.csv"
"$cs" bench dynamics >"$tmp/out" 2>&1 && fail "bench dynamics succeeded in an installed tree"
grep -q "build tree" "$tmp/out" || fail "bench: no message about the build tree"
ok "contactsim bench refused: $(head -1 "$tmp/out")"

check_hello() { # check_hello BINARY what
  run "$1" "$P/share/contactsim/models/cube.xml"
  grep -qE "after 200 steps .*height 0\.(09|10)[0-9]* m, [1-9][0-9]* contacts" "$tmp/out" ||
    fail "$2: unexpected output"
  ok "$2: $(cat "$tmp/out")"
}
needs_shared() { readelf -d "$1" | grep -q 'NEEDED.*libcontactsim'; }

step=cmake
for kind in shared static; do
  flag=OFF
  [ $kind = static ] && flag=ON
  run cmake -S "$src/examples" -B "$tmp/ex-$kind" -DCMAKE_PREFIX_PATH="$P" -DHELLO_STATIC=$flag \
    -DCMAKE_BUILD_TYPE=Release
  run cmake --build "$tmp/ex-$kind"
  if [ $kind = shared ]; then
    needs_shared "$tmp/ex-$kind/hello_step" || fail "cmake shared: not linked to libcontactsim.so"
  else
    needs_shared "$tmp/ex-$kind/hello_step" && fail "cmake static: linked to libcontactsim.so"
  fi
  check_hello "$tmp/ex-$kind/hello_step" "find_package, contactsim::contactsim$([ $kind = static ] && echo _static)"
done

step=pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
run pkg-config --variable=libdir contactsim
[ "$(cd "$(cat "$tmp/out")" && pwd -P)" = "$libdir" ] || fail "libdir $(cat "$tmp/out") is not in the moved prefix"
# shellcheck disable=SC2046
run "$CC" "$src/examples/hello_step.c" -o hello_pc $(pkg-config --cflags --libs contactsim) \
  -Wl,-rpath,"$libdir"
needs_shared hello_pc || fail "pkg-config: not linked to libcontactsim.so"
check_hello ./hello_pc "pkg-config --cflags --libs contactsim"
# static: a copy of the prefix without the shared library, so -lcontactsim is libcontactsim.a
cp -a "$P" "$tmp/static" || fail "copy"
rm -f "$tmp/static/${libdir#"$P"/}"/libcontactsim.so*
export PKG_CONFIG_PATH=$tmp/static/${libdir#"$P"/}/pkgconfig
# shellcheck disable=SC2046
run "$CC" "$src/examples/hello_step.c" -o hello_pc_static $(pkg-config --static --cflags --libs contactsim)
needs_shared hello_pc_static && fail "pkg-config --static: linked to libcontactsim.so"
check_hello ./hello_pc_static "pkg-config --static --cflags --libs contactsim (libcontactsim.a)"
# static beside the shared library: -l:libcontactsim.a (docs/install.md)
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046
run "$CC" "$src/examples/hello_step.c" -o hello_pc_static2 $(pkg-config --cflags contactsim) \
  $(pkg-config --static --libs contactsim | sed 's/-lcontactsim/-l:libcontactsim.a/')
needs_shared hello_pc_static2 && fail "-l:libcontactsim.a: linked to libcontactsim.so"
check_hello ./hello_pc_static2 "pkg-config --static, -lcontactsim as -l:libcontactsim.a"
echo "install test passed"

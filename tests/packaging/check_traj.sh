#!/bin/bash
# usage: check_traj.sh BUILD_DIR
# contactsim run --traj: the file reads with h5dump (hdf5-tools), has the layout of
# docs/trajectory.md (version attribute, model, frames, contacts), and its time, qpos, qvel
# and per-frame contact counts equal the same run's CSV (--out) exactly. Exit 77 (skipped)
# without h5dump or without HDF5 in the build.
set -u
cs=$(cd "$1" && pwd -P)/contactsim
tmp=$(mktemp -d /tmp/contactsim_traj.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
command -v h5dump >/dev/null || { echo "skipped: no h5dump (Debian hdf5-tools)"; exit 77; }
if ! "$cs" run --scene cube_slide --steps 120 --every 7 --traj "$tmp/t.h5" --out "$tmp/t.csv" \
  >"$tmp/log" 2>&1; then
  grep -q "no HDF5" "$tmp/log" && { echo "skipped: built without HDF5"; exit 77; }
  fail "run --traj: $(cat "$tmp/log")"
fi
grep -q "trajectory file $tmp/t.h5: 18 frames" "$tmp/log" || fail "summary: $(cat "$tmp/log")"

h5dump -H "$tmp/t.h5" >"$tmp/h" || fail "h5dump -H $tmp/t.h5"
for d in model/body_parent model/body_name model/geom_type model/geom_rgba model/geom_visual \
  model/mesh_vert model/mesh_face frames/time frames/qpos frames/qvel frames/xpos \
  frames/xquat frames/energy frames/penetration_max frames/solver_iterations \
  frames/solver_residual frames/ncon frames/contact_adr contacts/pos contacts/frame \
  contacts/force contacts/dist contacts/geom; do
  grep -q "DATASET \"${d##*/}\"" "$tmp/h" || fail "h5dump -H: no dataset $d"
done
grep -q 'ATTRIBUTE "version"' "$tmp/h" || fail "no version attribute"
[ "$(h5dump -a /version "$tmp/t.h5" | sed -n 's/^ *(0): //p')" = 1 ] || fail "version is not 1"
grep -q 'DATASPACE  SIMPLE { ( 18, 7 ) / ( H5S_UNLIMITED, 7 ) }' "$tmp/h" || fail "qpos not 18 x 7"
echo "ok   h5dump -H: version 1, every dataset of docs/trajectory.md, qpos 18 x 7"

# a dataset's values, one per line, printed as %.17g
values() { h5dump -y -w 0 -m '%.17g' -d "$1" "$tmp/t.h5" | sed -n '/DATA {/,/}/p' |
  sed '1d;$d' | tr -d ' ' | tr ',' '\n' | sed '/^$/d'; }
values /frames/time | awk '{printf "%.9g\n", $1}' >"$tmp/h_time"
values /frames/qpos | paste -d, - - - - - - - >"$tmp/h_qpos"
values /frames/qvel | paste -d, - - - - - - >"$tmp/h_qvel"
values /frames/ncon >"$tmp/h_ncon"
tail -n +2 "$tmp/t.csv" | cut -d, -f1 | awk '{printf "%.9g\n", $1}' >"$tmp/c_time"
tail -n +2 "$tmp/t.csv" | cut -d, -f2-8 >"$tmp/c_qpos"
tail -n +2 "$tmp/t.csv" | cut -d, -f9-14 >"$tmp/c_qvel"
tail -n +2 "$tmp/t.csv" | cut -d, -f15 >"$tmp/c_ncon"
for k in time qpos qvel ncon; do
  [ "$(wc -l <"$tmp/c_$k")" = 18 ] || fail "$k: CSV has $(wc -l <"$tmp/c_$k") rows, not 18"
  cmp -s "$tmp/h_$k" "$tmp/c_$k" || fail "$k differs: $(diff "$tmp/h_$k" "$tmp/c_$k" | head -4)"
done
sum=$(awk "{s += \$1} END {print s}" "$tmp/h_ncon")
[ "$sum" -gt 0 ] || fail "no contacts in the run"
rows=$(h5dump -H -d /contacts/dist "$tmp/t.h5" | sed -n 's/.*SIMPLE { ( \([0-9]*\) ).*/\1/p')
[ "$rows" = "$sum" ] || fail "contacts/dist has $rows rows, frames/ncon sums to $sum"
echo "ok   time, qpos, qvel, ncon of 18 frames equal to the CSV; $sum contact rows"

#!/bin/sh
# usage: check_exports.sh LIBCONTACTSIM.so INCLUDE_DIR [CC] [NM]
# The shared library's dynamic symbol table against the public headers:
#  - every exported (defined) symbol is a function declared in INCLUDE_DIR/contactsim/*.h,
#    or the ifunc resolver of one (<public>.resolver, from the CPU-dispatch clones);
#  - every function declared there is exported.
# The declarations are read from the preprocessed headers (CC -E), so comments and macros
# do not count. Exit 0 when both hold, 1 with the differences otherwise.
set -u
lib=$1
inc=$2
cc=${3:-cc}
nm=${4:-nm}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

[ -f "$lib" ] || { echo "check_exports: no library '$lib'"; exit 1; }

# public functions: identifiers cs_* followed by '(' in the preprocessed headers, except
# function-pointer members and typedefs '(*cs_x)'
for h in "$inc"/contactsim/*.h; do
  printf '#include "%s"\n' "$h" | "$cc" -E -P -I"$inc" -x c - || exit 1
done >"$tmp/pre.c"
tr '\n' ' ' <"$tmp/pre.c" | grep -oE '(\(\s*\*\s*)?\bcs_[A-Za-z0-9_]+\s*\(' |
  grep -v '^(' | sed -E 's/\s*\($//' | sort -u >"$tmp/public"
if [ ! -s "$tmp/public" ]; then
  echo "check_exports: no public function found in $inc/contactsim/*.h"
  exit 1
fi

# exported: defined dynamic symbols, without version suffixes
"$nm" -D --defined-only "$lib" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' | sort -u \
  >"$tmp/exported" || exit 1

# resolvers are fine when their function is public
grep '\.resolver$' "$tmp/exported" | sed 's/\.resolver$//' | sort -u >"$tmp/resolved"
bad_resolvers=$(comm -23 "$tmp/resolved" "$tmp/public")
grep -v '\.resolver$' "$tmp/exported" >"$tmp/plain"
extra=$(comm -23 "$tmp/plain" "$tmp/public")
missing=$(comm -13 "$tmp/plain" "$tmp/public")

rc=0
if [ -n "$extra" ]; then
  echo "exported but not a public function of $inc/contactsim/*.h ($(echo "$extra" | wc -l)):"
  echo "$extra" | sed 's/^/  /'
  rc=1
fi
if [ -n "$bad_resolvers" ]; then
  echo "ifunc resolvers exported for non-public functions:"
  echo "$bad_resolvers" | sed 's/^/  /;s/$/.resolver/'
  rc=1
fi
if [ -n "$missing" ]; then
  echo "public functions not exported by $lib ($(echo "$missing" | wc -l)):"
  echo "$missing" | sed 's/^/  /'
  rc=1
fi
if [ $rc = 0 ]; then
  echo "exports ok: $(wc -l <"$tmp/public") public functions, all exported;" \
    "$(wc -l <"$tmp/resolved") ifunc resolvers; nothing else"
fi
exit $rc

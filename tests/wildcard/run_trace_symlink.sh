#!/bin/sh
# run_trace_symlink.sh MPIEXEC ORDER_PROGRAM DIR: VCMON_TRACE_WILDCARD names a directory in
# which someone left wildcard.0.txt as a symbolic link to a file of theirs and wildcard.1.txt
# as one to a name that does not exist yet. The job must leave both targets alone (the file
# unchanged, the missing one not created), trace into fresh wildcard.<rank>-1.txt files
# instead, and say so once per rank concerned.
set -u
mpiexec=$1 program=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir/traces" || exit 1
printf 'their data\n' >"$dir/victim"
ln -s "$dir/victim" "$dir/traces/wildcard.0.txt"
ln -s "$dir/created-through-link" "$dir/traces/wildcard.1.txt"
fail() {
  echo "FAILED: $*"
  sed 's/^/  | /' "$dir/stderr"
  exit 1
}
VCMON_TRACE_WILDCARD="$dir/traces" VCMON_OUTPUT="$dir" \
  "$mpiexec" -n 4 "$program" recv >"$dir/stdout" 2>"$dir/stderr"
status=$?
[ "$status" -eq 0 ] || fail "exit status $status"
[ "$(cat "$dir/victim")" = "their data" ] || fail "the link's target was written"
[ ! -e "$dir/created-through-link" ] || fail "a file was created through a dangling link"
for rank in 0 1; do
  [ "$(grep -c "VCMON_TRACE_WILDCARD: $dir/traces/wildcard.$rank.txt exists; tracing to $dir/traces/wildcard.$rank-1.txt\$" "$dir/stderr")" = 1 ] ||
    fail "rank $rank did not say once where it traces instead"
done
[ "$(grep -c '^MPI_Recv ' "$dir/traces/wildcard.0-1.txt")" = 3 ] ||
  fail "rank 0's trace does not hold its 3 wildcard receives: $(cat "$dir/traces/wildcard.0-1.txt")"
[ -f "$dir/traces/wildcard.2.txt" ] && [ -f "$dir/traces/wildcard.3.txt" ] ||
  fail "ranks 2 and 3 did not trace under their usual names"
echo "the links' targets were left alone; ranks 0 and 1 traced into fresh files"

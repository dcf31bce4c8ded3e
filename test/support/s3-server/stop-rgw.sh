#!/usr/bin/env bash
# stop-rgw.sh — stop what start-rgw.sh started (rdw's copy of ../shared/tools/s3-server; it deletes nothing).
#
# Usage:  stop-rgw.sh DIR            (DIR as printed in start-rgw.sh's "dir")
#         stop-rgw.sh '<json line>'  (the line start-rgw.sh printed)
# Stops exactly the PIDs recorded in DIR/s3-rgw.pids, and only those that are
# still alive and run with DIR/ceph.conf (so a recycled PID is never hit):
# SIGTERM, then SIGKILL after RGW_STOP_GRACE seconds (default 2; radosgw needs ~5 to exit by itself), one daemon at a time.
# Idempotent: a missing folder or already-stopped daemons are not errors.
set -euo pipefail

die() { printf '[stop-rgw] ERROR: %s\n' "$*" >&2; exit 1; }
log() { [ "${RGW_QUIET:-0}" = 1 ] || printf '[stop-rgw %s] %s\n' "$(date +%T)" "$*" >&2; }

ARG="${1:-}"
[ -n "$ARG" ] || die "usage: stop-rgw.sh DIR | stop-rgw.sh '<json printed by start-rgw.sh>'"
case "$ARG" in
  \{*) DIR="$(printf '%s' "$ARG" | sed -n 's/.*"dir":"\([^"]*\)".*/\1/p')"
       [ -n "$DIR" ] || die "no \"dir\" in the JSON given" ;;
  *)   DIR="$ARG" ;;
esac
if [ ! -d "$DIR" ]; then log "$DIR does not exist: nothing to do"; exit 0; fi
DIR="$(cd "$DIR" && pwd -P)"
CONF="$DIR/ceph.conf"
MARK="$DIR/.s3-rgw"
OWNED="$DIR/.s3-rgw-created"
PIDS_FILE="$DIR/s3-rgw.pids"
[ -e "$MARK" ] || die "$DIR was not made by start-rgw.sh (no .s3-rgw marker); not touching it"
[ "$(cat "$MARK")" = "$DIR" ] || die "$DIR/.s3-rgw names another folder ($(cat "$MARK")); not touching it"

pid_is_ours() {
  local p="$1" st
  [ -r "/proc/$p/stat" ] || return 1
  st="$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)"
  [ "$st" != Z ] && [ "$st" != X ] || return 1   # a zombie is already dead
  tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -qxF "$CONF"
}

PIDS=()
if [ -s "$PIDS_FILE" ]; then
  # stop in reverse start order: rgw, (mgr), osd, mon
  while read -r p _; do PIDS=("$p" "${PIDS[@]}"); done <"$PIDS_FILE"
fi
any_alive() { local p; for p in "${PIDS[@]}"; do pid_is_ours "$p" && return 0; done; return 1; }

# one at a time (rgw, osd, mon): the osd shuts down faster while the mon still answers
GRACE="${RGW_STOP_GRACE:-2}"
for p in "${PIDS[@]}"; do
  pid_is_ours "$p" || continue
  kill -TERM "$p" 2>/dev/null || true
  end=$((SECONDS + GRACE))
  while pid_is_ours "$p" && [ "$SECONDS" -lt "$end" ]; do sleep 0.1; done
  if pid_is_ours "$p"; then kill -KILL "$p" 2>/dev/null || true; log "pid $p ignored SIGTERM for ${GRACE}s: SIGKILL"; fi
done
end=$((SECONDS + 10))
while any_alive; do
  [ "$SECONDS" -lt "$end" ] || die "processes still alive 10s after SIGKILL: ${PIDS[*]}"
  sleep 0.1
done
[ "${#PIDS[@]}" -eq 0 ] || log "stopped pids ${PIDS[*]}"

# rdw's copy removes nothing: the test helper (test/support/s3-server.ts) made DIR with makeTemporaryFolder and
# removes it with removeTree (the project's one recursive delete, issue 21) once the daemons are gone.
log "stopped; $DIR left to its creator"

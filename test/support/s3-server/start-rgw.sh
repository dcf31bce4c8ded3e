#!/usr/bin/env bash
# start-rgw.sh (rdw's copy of ../shared/tools/s3-server, restart-in-place removed) — start a throw-away single-node Ceph cluster (1 mon, 1 memstore
# OSD, no mgr by default) plus a RADOS Gateway (real S3 API) on 127.0.0.1.
#
# Usage:  start-rgw.sh [DIR] [PORT]
#   DIR   state folder (default: a new `mktemp -d`). All state, logs, sockets
#         and pid files live in it; /etc/ceph and /var/lib/ceph are never used.
#         A DIR that does not exist (or is empty) is fine; a non-empty DIR
#         that was not made by this script is refused.
#   PORT  S3 port on 127.0.0.1 (default: $RGW_PORT, else 7480).
# Env:    S3_ACCESS_KEY, S3_SECRET_KEY   credentials of the S3 user created
#         RGW_MON_PORT                   mon msgr2 port (v1 uses +1; default: first free from 13300)
#         RGW_WITH_MGR=1                 also start a ceph-mgr (not needed for S3)
#         RGW_MEMSTORE_BYTES             memstore size (default 1 GiB). Objects live in the OSD's RAM;
#                                        without a mgr this cap was NOT enforced (100 MB went into 64 MiB)
#         RGW_TIMEOUT                    seconds allowed for each wait (default 120)
#         RGW_QUIET=1                    no progress messages on stderr
# Output: one JSON line on stdout:
#   {"endpoint":"http://127.0.0.1:PORT","accessKeyId":"..","secretAccessKey":"..","dir":"..","pids":[..]}
# Re-running with the same DIR while the cluster is up prints the same line again.
# Stop with: stop-rgw.sh DIR
# Needs (Debian 12): apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common curl
#   (plus ceph-mgr if RGW_WITH_MGR=1). Run as root.
set -euo pipefail

log() { [ "${RGW_QUIET:-0}" = 1 ] || printf '[start-rgw %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { printf '[start-rgw] ERROR: %s\n' "$*" >&2; exit 1; }

PORT="${2:-${RGW_PORT:-7480}}"
ACCESS_KEY="${S3_ACCESS_KEY:-RGWTESTACCESSKEY0001}"
SECRET_KEY="${S3_SECRET_KEY:-rgwTestSecretKey0000000000000000000000001}"
TMO="${RGW_TIMEOUT:-120}"
MEM_BYTES="${RGW_MEMSTORE_BYTES:-1073741824}"
WITH_MGR="${RGW_WITH_MGR:-0}"

[ "$(id -u)" = 0 ] || die "must run as root"
case "$PORT" in ''|*[!0-9]*) die "port must be a number, got '$PORT'";; esac
for b in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool curl timeout setsid uuidgen; do
  command -v "$b" >/dev/null 2>&1 || die "'$b' not found; install: apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common curl"
done
[ "$WITH_MGR" != 1 ] || command -v ceph-mgr >/dev/null 2>&1 || die "RGW_WITH_MGR=1 but ceph-mgr is not installed"
case "$ACCESS_KEY$SECRET_KEY" in *[!A-Za-z0-9+/=_.-]*) die "access key / secret may only use [A-Za-z0-9+/=_.-]";; esac

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# refuse a busy port before creating anything (unless DIR may already hold our running server)
if [ -z "${1:-}" ] || [ ! -e "$1/.s3-rgw" ]; then
  port_in_use "$PORT" && die "port $PORT on 127.0.0.1 is already in use"
fi

# ---------------------------------------------------------------- the folder
CREATED=0
if [ -n "${1:-}" ]; then
  DIR="$1"
  if [ ! -e "$DIR" ]; then mkdir -p "$DIR"; CREATED=1; fi
  [ -d "$DIR" ] || die "$DIR is not a folder"
else
  DIR="$(mktemp -d "${TMPDIR:-/tmp}/s3-rgw.XXXXXX")"; CREATED=1
fi
DIR="$(cd "$DIR" && pwd -P)"
case "$DIR" in *[[:space:]]*|*\"*|*\\*) die "folder path may not contain spaces, quotes or backslashes: $DIR";; esac
[ "$DIR" != / ] || die "refusing to use /"
CONF="$DIR/ceph.conf"
MARK="$DIR/.s3-rgw"          # present = this folder holds our state
OWNED="$DIR/.s3-rgw-created" # present = stop-rgw.sh may delete the whole folder
JSON_FILE="$DIR/s3-rgw.json"
PIDS_FILE="$DIR/s3-rgw.pids"

# a pid is ours only if it is alive (not a zombie) and runs with our ceph.conf
pid_is_ours() {
  local p="$1" st
  [ -r "/proc/$p/stat" ] || return 1
  st="$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)"
  [ "$st" != Z ] && [ "$st" != X ] || return 1
  tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -qxF "$CONF"
}

if [ -e "$MARK" ]; then
  # already ours: if everything still runs, answer again (idempotent)
  if [ -s "$JSON_FILE" ] && [ -s "$PIDS_FILE" ]; then
    all_up=1
    while read -r p _; do pid_is_ours "$p" || all_up=0; done <"$PIDS_FILE"
    old_port="$(sed -n 's/.*"endpoint":"http:\/\/127\.0\.0\.1:\([0-9]*\)".*/\1/p' "$JSON_FILE")"
    if [ "$all_up" = 1 ] && [ "$old_port" = "$PORT" ] &&
       [ "$(curl -s -o /dev/null -m 5 -w '%{http_code}' "http://127.0.0.1:$PORT/")" = 200 ]; then
      log "already running in $DIR"
      cat "$JSON_FILE"; exit 0
    fi
  fi
  # rdw's copy deletes nothing (test/recursive-delete.test.ts): a DIR whose daemons died is not restarted.
  die "the daemons in $DIR are not all running; stop them (stop-rgw.sh $DIR) and start in a new empty folder"
elif [ -n "$(ls -A "$DIR")" ]; then
  die "$DIR is not empty and was not made by start-rgw.sh; give an empty or new folder"
fi
echo "$DIR" >"$MARK"
[ "$CREATED" = 1 ] && echo "$DIR" >"$OWNED"
mkdir -p "$DIR/mon" "$DIR/osd" "$DIR/rgw" "$DIR/log" "$DIR/run"
: >"$DIR/keyring"

on_exit() {
  local rc=$?
  [ "$rc" = 0 ] && return 0
  echo "[start-rgw] start failed (exit $rc); last log lines follow. Logs stay in $DIR/log; remove with: stop-rgw.sh $DIR" >&2
  for f in "$DIR"/log/*; do [ -f "$f" ] && { echo "== $f" >&2; tail -n 15 "$f" >&2; }; done
  # do not leave half a cluster running: kill what this run started (by pid, verified)
  local p
  for p in "${PIDS[@]}"; do pid_is_ours "$p" && kill -KILL "$p" 2>/dev/null; done
  return "$rc"
}
PIDS=()
trap on_exit EXIT

port_in_use "$PORT" && die "port $PORT on 127.0.0.1 is already in use"
if [ -n "${RGW_MON_PORT:-}" ]; then
  MON_PORT="$RGW_MON_PORT"
  { port_in_use "$MON_PORT" || port_in_use $((MON_PORT + 1)); } && die "mon port $MON_PORT or $((MON_PORT + 1)) is in use"
else
  MON_PORT=13300
  while port_in_use "$MON_PORT" || port_in_use $((MON_PORT + 1)) || [ "$MON_PORT" = "$PORT" ] || [ $((MON_PORT + 1)) = "$PORT" ]; do
    MON_PORT=$((MON_PORT + 2)); [ "$MON_PORT" -lt 13500 ] || die "no free mon port in 13300-13500"
  done
fi

# ---------------------------------------------------------------- config
FSID="$(uuidgen)"
cat >"$CONF" <<EOF
[global]
fsid = $FSID
mon host = [v2:127.0.0.1:$MON_PORT,v1:127.0.0.1:$((MON_PORT + 1))]
auth cluster required = none
auth service required = none
auth client required = none
keyring = $DIR/keyring
run dir = $DIR/run
log file = $DIR/log/\$name.log
log to stderr = false
err to stderr = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
mon data avail crit = 0
mon data avail warn = 1
# commit map changes every 0.1 s instead of 1 s: radosgw's start-up makes ~10 of them
paxos propose interval = 0.1

[mon]
mon data = $DIR/mon
mon cluster log file = $DIR/log/mon-cluster.log

[osd]
osd data = $DIR/osd
osd objectstore = memstore
memstore device bytes = $MEM_BYTES
osd crush initial weight = 1
public addr = 127.0.0.1
cluster addr = 127.0.0.1

[mgr]
mgr data = $DIR/mgr
public addr = 127.0.0.1

[client.rgw.s3]
rgw data = $DIR/rgw
rgw frontends = beast endpoint=127.0.0.1:$PORT
rgw thread pool size = 64
# radosgw asks for a "secure" mon session by default, which auth=none cannot give
ms mon client mode = crc
EOF

C=(-c "$CONF")
# bounded ceph CLI call
cephc() { timeout 30 ceph "${C[@]}" --connect-timeout 20 "$@"; }
# wait_for SECONDS "what" command...  (retries the command every 0.5 s)
wait_for() {
  local secs="$1" what="$2"; shift 2
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$end" ] || { echo "[start-rgw] ERROR: timed out after ${secs}s waiting for $what (logs: $DIR/log)" >&2; return 1; }
    sleep 0.5
  done
}
# start a daemon in the foreground (-f), detached from our stdio and session
spawn() {
  local name="$1"; shift
  setsid "$@" -f </dev/null >>"$DIR/log/$name.out" 2>&1 &
  local p=$!
  PIDS+=("$p"); echo "$p $name" >>"$PIDS_FILE"
  log "started $name (pid $p)"
}
alive() { pid_is_ours "$1"; }

# ---------------------------------------------------------------- mon
log "dir $DIR; mon on 127.0.0.1:$MON_PORT; S3 on 127.0.0.1:$PORT"
monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT,v1:127.0.0.1:$((MON_PORT + 1))]" "$DIR/monmap" >/dev/null
timeout 60 ceph-mon "${C[@]}" -i a --mkfs --monmap "$DIR/monmap" --keyring /dev/null
: >"$DIR/mon/keyring"
spawn mon.a ceph-mon "${C[@]}" -i a
MON_PID=${PIDS[-1]}
wait_for "$TMO" "the monitor to answer" cephc mon stat

# ---------------------------------------------------------------- osd
OSD_UUID="$(uuidgen)"
OSD_ID="$(cephc osd new "$OSD_UUID")"
[ "$OSD_ID" = 0 ] || die "unexpected osd id '$OSD_ID'"
timeout 60 ceph-osd "${C[@]}" -i 0 --mkfs --osd-uuid "$OSD_UUID" >>"$DIR/log/osd.0.out" 2>&1 ||
  die "ceph-osd --mkfs failed (see $DIR/log/osd.0.out)"
spawn osd.0 ceph-osd "${C[@]}" -i 0
OSD_PID=${PIDS[-1]}
osd_up() { local d; alive "$OSD_PID" || return 1; d="$(cephc osd dump)" || return 1; grep -q '^osd\.0 up' <<<"$d"; }
wait_for "$TMO" "osd.0 to be up" osd_up

if [ "$WITH_MGR" = 1 ]; then
  mkdir -p "$DIR/mgr"
  spawn mgr.x ceph-mgr "${C[@]}" -i x
fi

# ---------------------------------------------------------------- rgw
spawn client.rgw.s3 radosgw "${C[@]}" -n client.rgw.s3
RGW_PID=${PIDS[-1]}
rgw_up() {
  [ "$(curl -s -o /dev/null -m 5 -w '%{http_code}' "http://127.0.0.1:$PORT/")" = 200 ]
}
end=$((SECONDS + TMO))
until rgw_up; do
  alive "$RGW_PID" || die "radosgw exited during start-up (see $DIR/log/client.rgw.s3.log)"
  [ "$SECONDS" -lt "$end" ] || die "timed out after ${TMO}s waiting for radosgw on port $PORT (logs: $DIR/log)"
  sleep 0.5
done
log "radosgw answers on port $PORT"

# ---------------------------------------------------------------- S3 user
timeout 60 radosgw-admin "${C[@]}" -n client.admin user create --uid=s3test --display-name=s3test \
  --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >"$DIR/log/user-create.out" 2>&1 ||
  die "radosgw-admin user create failed (see $DIR/log/user-create.out)"
# a signed request (ListBuckets) must succeed before we call the endpoint usable;
# RGW needs x-amz-content-sha256 signed too (curl 7.88 does not add it): sha256 of ""
signed_ok() {
  [ "$(curl -s -o /dev/null -m 5 -w '%{http_code}' --aws-sigv4 "aws:amz:us-east-1:s3" \
       --user "$ACCESS_KEY:$SECRET_KEY" \
       -H 'x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' \
       "http://127.0.0.1:$PORT/")" = 200 ]
}
wait_for 30 "a signed S3 request to succeed" signed_ok

pid_json="$(IFS=,; echo "${PIDS[*]}")"
printf '{"endpoint":"http://127.0.0.1:%s","accessKeyId":"%s","secretAccessKey":"%s","dir":"%s","pids":[%s]}\n' \
  "$PORT" "$ACCESS_KEY" "$SECRET_KEY" "$DIR" "$pid_json" >"$JSON_FILE"
log "ready"
cat "$JSON_FILE"

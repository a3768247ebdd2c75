#!/usr/bin/env bash
# `eipc sweep --slurm` against a real single-node Slurm that this test starts (docs/sweep.md):
# munged, slurmctld and slurmd from Debian's packages with a slurm.conf written into a
# temporary directory, on the loopback and on ports of their own. The same sweep runs
# locally and as a job array; one array task is cancelled while it runs (scancel), the
# sweep is resubmitted, and the runs must equal the local ones: runs.csv (all but the
# wall-time columns) and every trajectory (every dataset and attribute but the per-frame
# wall time) bit for bit. Every daemon is stopped by its PID at the end, also on failure.
#
#   EIPC=build/bin/eipc PYTHON=/usr/bin/python3 solver/tests/cluster/slurm_sweep_test.sh
# Exit 77 (CTest: skipped) when not root or a package is missing; KEEP=1 keeps the directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
eipc=${EIPC:-$root/build/bin/eipc}
py=${PYTHON:-/usr/bin/python3}

skip() { echo "EIPC_TEST_SKIPPED: $*"; exit 77; }
[[ $(id -u) == 0 ]] || skip "needs root to start munged, slurmctld and slurmd"
for tool in munged slurmctld slurmd sbatch squeue scancel scontrol setpriv; do
  command -v "$tool" >/dev/null || skip "$tool not found (Debian packages slurm-wlm, munge: ci/setup-deps)"
done
id munge >/dev/null 2>&1 || skip "no munge user (Debian package munge)"
"$py" -c 'import h5py, numpy' 2>/dev/null || skip "$py has no h5py/numpy (python3-h5py)"
[[ -x $eipc ]] || { echo "error: $eipc not built" >&2; exit 1; }

# A network namespace of our own that has only the loopback: the daemons' traffic cannot
# leave the machine, and their ports meet nothing of the host's (slurmctld listens on all
# interfaces whatever slurm.conf says). Without one (no unshare permission in a container),
# the loopback addresses and ports of our own below still keep us apart from the host.
if [[ -z ${EIPC_SLURM_TEST_NETNS:-} ]] && command -v ip >/dev/null && unshare --net true 2>/dev/null; then
  exec env EIPC_SLURM_TEST_NETNS=1 unshare --net -- "$0" "$@"
fi
if [[ -n ${EIPC_SLURM_TEST_NETNS:-} ]]; then
  [[ $(ip -o link | wc -l) == 1 ]] || { echo "error: not in a fresh network namespace"; exit 1; }
  ip link set lo up
  # slurmd binds with getaddrinfo(AI_PASSIVE | AI_ADDRCONFIG), which finds nothing while the
  # loopback is the only interface with an address: give it a veth pair whose both ends stay
  # in this namespace (no route leads out of it).
  ip link add eipc0 type veth peer name eipc1 && ip addr add 10.254.254.1/32 dev eipc0 &&
    ip link set eipc0 up && ip link set eipc1 up ||
    { echo "cannot set up the test's network namespace"; exit 1; }
  echo "[slurm test] in a network namespace of its own: $(ip -brief addr | tr -s ' \n' ' ')"
else
  echo "[slurm test] note: no network namespace (unshare --net refused); slurmctld listens on all interfaces"
fi

tmp=$(mktemp -d /tmp/eipc-slurm-test.XXXXXX)
chmod 755 "$tmp"  # munged (user munge) must reach its directory; nothing in it is secret but the key
pids=()
log() { echo "[slurm test $(date +%T)] $*"; }
cleanup() {
  local code=$?
  set +e
  # Our jobs first (their processes belong to slurmstepd, not to us), then the daemons.
  if [[ -f $tmp/slurm.conf ]] && ((${#pids[@]} > 1)) && kill -0 "${pids[1]}" 2>/dev/null; then
    SLURM_CONF=$tmp/slurm.conf timeout 10 scancel --name=eipc-sweep,eipc-certify 2>/dev/null
    for _ in $(seq 40); do
      [[ -z $(SLURM_CONF=$tmp/slurm.conf timeout 5 squeue -h 2>/dev/null) ]] && break
      sleep 0.5
    done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  if ((code != 0)); then
    for f in "$tmp"/*.log; do echo "--- $f (tail)"; tail -n 15 "$f"; done
  fi
  if [[ ${KEEP:-0} == 1 ]]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
  exit $code
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- munged: our own key, socket and files, as user munge.
mkdir -m 755 "$tmp/munge"  # munged: the socket's directory must be searchable by all
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
chown -R munge:munge "$tmp/munge"
setpriv --reuid=munge --regid=munge --init-groups munged --foreground --socket="$tmp/munge/munge.sock" \
  --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" >"$tmp/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $tmp/munge/munge.sock ]] && break; sleep 0.1; done
[[ -S $tmp/munge/munge.sock ]] || { echo "munged did not start" >&2; exit 1; }

# --- slurm.conf: one node on the loopback with this machine's cores, ports of our own
# (a system Slurm on 6817/6818 is left alone), nothing read from /etc/slurm.
host=$(hostname -s)
# Outside a namespace of our own, bind slurmd to 127.0.0.1 (slurmctld ignores this). Inside
# one it would fail: with only the loopback up, getaddrinfo(AI_ADDRCONFIG) resolves no name.
bind_option=CommunicationParameters=NoInAddrAny
[[ -n ${EIPC_SLURM_TEST_NETNS:-} ]] && bind_option="# (network namespace: loopback only)"
port=$((20000 + ($$ % 5000) * 2))
mkdir -p "$tmp/state" "$tmp/spool"
: >"$tmp/plugstack.conf"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=eipctest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
$bind_option
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ReturnToService=2
MailProg=/bin/true
KillWait=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -c -f "$SLURM_CONF" >>"$tmp/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >>"$tmp/slurmd.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  timeout 5 sinfo -h -o %t 2>/dev/null | grep -qx idle && break
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a daemon (pid $pid) died"; exit 1; }; done
  sleep 0.2
done
timeout 5 sinfo -h -o %t | grep -qx idle || { echo "the Slurm node did not come up"; exit 1; }
log "slurm up: $(sinfo -h -o '%P %D %t %c')"
# What the daemons listen on, for the log (NoInAddrAny binds slurmd to 127.0.0.1 only).
if command -v ss >/dev/null; then ss -ltnp 2>/dev/null | grep -E ":($port|$((port + 1))) " || true; fi

# --- the sweep: references at h = 2e-4 as tasks too; the full one (10,000 steps, about
# 2.5 s alone) is the task cancelled while it runs. At h = 1e-3 it took 1 s, and a quiet
# machine finished it before the status check and scancel below reached it.
scene=$root/solver/tests/data/reference/cube_drop.json
sweep() { "$eipc" sweep "$scene" --dt 0.002,0.01 --embedding full,affine --duration 2 --reference-dt 0.0002 "$@"; }
log "local sweep"
sweep --out "$tmp/local" --reference "$tmp/local-ref" --jobs 2 2>"$tmp/local-sweep.log"

out=$tmp/slurm
log "slurm sweep, first submission"
sweep --out "$out" --reference "$tmp/slurm-ref" --slurm --time 10:00 --throttle 4 2>"$tmp/submit1.log"
cat "$tmp/submit1.log"
job=$(awk 'NR==1{print $1}' "$out/slurm/jobs.txt")
target=$tmp/slurm-ref/cube_drop/full
# Cancel the full reference's task once it has written steps into its trajectory.
index=$("$py" -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"]; print([i for i,x in enumerate(r) if x["trajectory"]==sys.argv[2]][0])' \
  "$out/sweep-plan.json" "$target.h5")
for _ in $(seq 600); do [[ -f $target.h5.partial ]] && break; sleep 0.1; done
[[ -f $target.h5.partial ]] || { echo "FAIL: task $index never started"; exit 1; }
# No wait here: the status check takes long enough for steps to be stored, and every
# moment spent lets the task come nearer to its end.
"$eipc" sweep --status "$out" >"$tmp/status0.txt"
grep -E "^$index +running .* ${job}_$index " "$tmp/status0.txt" >/dev/null ||
  { cat "$tmp/status0.txt"; echo "FAIL: --status does not show run $index running as ${job}_$index"; exit 1; }
log "scancel ${job}_$index"
scancel "${job}_$index"
for _ in $(seq 600); do [[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && break; sleep 0.2; done
[[ -z $(squeue -h -j "$job" 2>/dev/null) ]] || { echo "FAIL: job $job did not end"; squeue; exit 1; }
"$eipc" sweep --status "$out" | tee "$tmp/status1.txt"

fail() { echo "FAIL: $*"; exit 1; }
"$py" - "$target" <<'PY' || fail "the cancelled task did not leave an incomplete, recorded trajectory"
import h5py, json, sys
record = json.load(open(sys.argv[1] + ".json"))
print("cancelled run:", record["status"], record["exit_code"], record["summary"]["reason"])
assert record["status"] == "incomplete" and record["exit_code"] == 3, record
assert "SIGTERM" in record["summary"]["reason"]
with h5py.File(sys.argv[1] + ".h5", "r") as f:
    assert f.attrs["status"] == "incomplete", f.attrs["status"]
    assert 0 < f["frames/step"][-1] < 10000
PY
grep -E "^$index +incomplete +3 .* ${job}_$index " "$tmp/status1.txt" >/dev/null ||
  fail "--status does not show run $index incomplete with job ${job}_$index"
[[ $(grep -cE '^[0-9]+ +done ' "$tmp/status1.txt") == 5 ]] || fail "--status: expected the 5 other runs done"

log "slurm sweep, resubmission (--wait)"
sweep --out "$out" --reference "$tmp/slurm-ref" --slurm --time 10:00 --throttle 4 --wait 2>"$tmp/submit2.log" ||
  { cat "$tmp/submit2.log"; fail "the resubmitted sweep failed"; }
cat "$tmp/submit2.log"
[[ $(wc -l <"$out/slurm/jobs.txt") == 2 ]] || fail "expected two submissions in jobs.txt"
[[ $(awk 'NR==2{print $2}' "$out/slurm/jobs.txt") == "$index" ]] || fail "the resubmission was not only task $index"
"$eipc" sweep --status "$out" | tee "$tmp/status2.txt"
[[ $(grep -cE '^[0-9]+ +done ' "$tmp/status2.txt") == 6 ]] || fail "--status: expected 6 runs done"

log "comparing with the local sweep"
"$py" "$here/compare_sweeps.py" "$tmp/local" "$tmp/slurm" "$tmp/local-ref/cube_drop" "$tmp/slurm-ref/cube_drop" ||
  fail "the Slurm sweep differs from the local one"

# --- a dataset certified as a job array (eipc certify --dataset --slurm): two of the local
# sweep's trajectories and a file that is not one; the table equals the local run's.
log "certify --dataset, locally and on Slurm"
ds=$tmp/dataset
mkdir -p "$ds"
cp "$tmp/local/cube_drop_full_dt0.01.h5" "$tmp/local/cube_drop_affine_dt0.01.h5" "$ds/"
echo "not an HDF5 file" >"$ds/broken.h5"
code=0
"$eipc" certify "$ds" --dataset --out "$tmp/ds-local" --jobs 2 2>"$tmp/ds-local.log" || code=$?
[[ $code == 2 ]] || fail "local dataset run: exit $code, expected 2 (one sequence is bad input)"
code=0
"$eipc" certify "$ds" --dataset --out "$tmp/ds-slurm" --slurm --time 10:00 --wait 2>"$tmp/ds-slurm.log" || code=$?
cat "$tmp/ds-slurm.log"
[[ $code == 2 ]] || fail "Slurm dataset run: exit $code, expected 2"
grep -q "certify-task" "$tmp/ds-slurm/slurm/certify-array.sh" || fail "no certify-task in the job script"
"$eipc" certify --status "$tmp/ds-slurm" | tee "$tmp/ds-status.txt"
grep -q "^3 sequences: 3 done" "$tmp/ds-status.txt" || fail "certify --status: expected 3 sequences done"
# All columns but the wall time (14th, `seconds`) agree.
diff <(cut -d, -f1-13,15- "$tmp/ds-local/dataset.csv") <(cut -d, -f1-13,15- "$tmp/ds-slurm/dataset.csv") ||
  fail "the Slurm dataset table differs from the local one"
grep -q "^cube_drop_full_dt0.01.h5,clear,0,201," "$tmp/ds-slurm/dataset.csv" || fail "the full run is not clear"
log "PASS"

#!/usr/bin/env bash
# The recipe of docs/summaries.md for traces spread over machines, on a real single-node Slurm cluster:
# an `sbatch --array` job (examples/slurm/summarize-ranks.sbatch) summarizes one rank per
# task, `tracediff merge` joins the summaries, and comparing the merged summary gives the
# same JSON, CSV and HTML, byte for byte, as comparing the traces.
#
#   bash tests/slurm/run.sh [BUILD_DIR]     (default build; needs tracediff and tracegen)
#
# As root it installs Debian's slurm-wlm and munge when they are missing, and starts munged,
# slurmctld and slurmd from a temporary folder (own key, sockets, ports, state; nothing in
# /etc is used or changed), and stops them on exit. Every wait is bounded; the whole test
# takes under 3 minutes.
# Exit: 0 passed, 1 failed, 77 skipped (not root, Slurm cannot be installed or started).
# The last line is "slurm: passed", "slurm: failed (REASON)" or "slurm: skipped (REASON)".
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
repo=$PWD
build=$(realpath -m "${1:-build}")
job_script=examples/slurm/summarize-ranks.sbatch
ranks=4

skip() { echo "skipped: $*"; echo "slurm: skipped ($*)"; exit 77; }
fail() { echo "FAILED: $*"; echo "slurm: failed ($*)"; exit 1; }

# docs/summaries.md shows the job script verbatim: the block after the line "<!-- verbatim: FILE ...".
doc=docs/summaries.md
doc_copy=$(awk -v m="<!-- verbatim: $job_script " '
  index($0, m) == 1 { found = 1; next }
  found && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }' "$doc")
[[ "$doc_copy" == "$(cat "$job_script")" ]] ||
  fail "$doc's copy of $job_script differs from the file"
echo "ok: $doc shows $job_script verbatim"

for b in "$build/tracediff" "$build/tools/tracegen/tracegen"; do
  [[ -x "$b" ]] || fail "$b is missing (build it first)"
done

# --- Slurm and munge: installed (as root, from Debian's registry) or skipped.
[[ $(id -u) -eq 0 ]] || skip "not root: cannot install or start Slurm"
have_slurm() { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null
if ! have_slurm; then
  command -v apt-get >/dev/null || skip "slurm-wlm and munge are not installed and there is no apt-get"
  echo "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  # The packages' own services are not started (slurmctld would look for /etc/slurm/slurm.conf):
  # a policy-rc.d says no for the install, as Docker's images do, where there is none.
  policy=/usr/sbin/policy-rc.d made_policy=''
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    trap '[[ -n "$made_policy" ]] && rm -f "$policy"' EXIT
  fi
  # An install from the package lists there are; with fresh ones when that fails.
  timeout 100 bash -c 'apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null 2>&1 ||
                       { apt-get update -q >/dev/null 2>&1 &&
                         apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null; }' ||
    skip "apt-get could not install slurm-wlm and munge"
  [[ -n "$made_policy" ]] && rm -f "$policy"
  made_policy=
  have_slurm || skip "slurm-wlm and munge installed, but their daemons are not on PATH"
fi

# --- A private cluster in a temporary folder, stopped whatever happens.
tmp=$(mktemp -d /tmp/tracediff-slurm.XXXXXX)
chmod 700 "$tmp"
pids=() job='' sbatch_pid=''
cleanup() {
  [[ -n "$sbatch_pid" ]] && kill "$sbatch_pid" 2>/dev/null
  [[ -z "$job" && -f "$tmp/sbatch.out" ]] && job=$(grep -m1 -oE '^[0-9]+' "$tmp/sbatch.out")
  [[ -n "$job" ]] && scancel "$job" 2>/dev/null
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do  # each daemon gets 10 s to stop, then is killed
    timeout 10 tail --pid="$p" -f /dev/null 2>/dev/null || kill -9 "$p" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Two free TCP ports, so that a Slurm already on this machine is left alone.
ports=()
for _ in $(seq 50); do
  p=$((20000 + RANDOM % 40000))
  [[ " ${ports[*]} " == *" $p "* ]] && continue
  (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && continue  # something listens there
  ports+=("$p")
  ((${#ports[@]} == 2)) && break
done
((${#ports[@]} == 2)) || skip "no free TCP port for slurmctld and slurmd"
ctld_port=${ports[0]} slurmd_port=${ports[1]}

node=$(hostname -s 2>/dev/null)
[[ -n "$node" ]] || skip "hostname -s gives no name for the Slurm node"
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none && chmod 400 "$tmp/munge.key"
munged -F --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
  --seed-file="$tmp/munged.seed" --log-file="$tmp/log/munged.log" >"$tmp/log/munged.out" 2>&1 &
pids+=($!)

cat >"$tmp/slurm.conf" <<EOF
ClusterName=tracediff-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=tracediff Nodes=ALL Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
# Settings of an enclosing job or of the user's own cluster must not reach this one.
unset SLURM_JOB_ID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID SLURM_CLUSTERS SBATCH_PARTITION SLURM_PARTITION

up_within() {  # up_within SECONDS COMMAND...: poll until COMMAND succeeds
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}
show_logs() { tail -n 15 "$tmp"/log/* 2>/dev/null; }
up_within 10 test -S "$tmp/munge.sock" || { show_logs; skip "munged did not start within 10 s"; }
slurmctld -D -i -f "$tmp/slurm.conf" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$tmp/slurm.conf" -N "$node" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [[ $(sinfo -h -N -n "$node" -o %t 2>/dev/null) == idle ]]; }
up_within 30 node_idle || { show_logs; skip "slurmctld and slurmd did not bring node $node up within 30 s"; }
echo "ok: single-node Slurm cluster up (node $node, ports $ctld_port/$slurmd_port)"

# --- The recipe. From here on, every problem is a failure.
td=$build/tracediff
tg=$build/tools/tracegen/tracegen
cd "$tmp" || fail "cannot enter $tmp"
"$tg" --out control --ranks $ranks --steps 3 --seed 1 --gzip >/dev/null 2>&1 || fail "tracegen (control)"
"$tg" --out gen --ranks $ranks --steps 3 --seed 2 --gzip --jitter 3 --slowdown gemm=1.4 >/dev/null 2>&1 ||
  fail "tracegen (test)"
# One folder per rank, as each rank's machine would have written it.
for ((r = 0; r < ranks; r++)); do
  mkdir -p "traces/rank$r" || fail "mkdir traces/rank$r"
  mv "gen/rank$r.pt.trace.json.gz" "traces/rank$r/" || fail "no trace of rank $r"
done

# The job runs tracediff from PATH, in this folder (sbatch's default working directory).
export PATH="$build:$PATH"
# --wait: sbatch returns when every task has ended, with the highest exit status of them.
# In the background, so that a signal reaches the trap at once (cleanup cancels the job).
timeout 90 sbatch --parsable --wait --array=0-$((ranks - 1)) --output="$tmp/log/job-%A_%a.out" \
  "$repo/$job_script" traces summaries >sbatch.out 2>&1 </dev/null &
sbatch_pid=$!
wait "$sbatch_pid"
rc=$?
sbatch_pid=
job=$(grep -m1 -oE '^[0-9]+' sbatch.out)
if ((rc != 0)); then
  cat sbatch.out log/job-*.out 2>/dev/null
  show_logs
  ((rc == 124)) && fail "array job ${job:-?} did not finish within 90 s"
  [[ -z "$job" ]] && fail "sbatch refused the job"
  fail "array job $job failed (exit $rc)"
fi
echo "array job $job: $ranks tasks done"
job=
for ((r = 0; r < ranks; r++)); do
  [[ -s "summaries/rank_$r.tdsum.json" ]] || { cat log/job-*_"$r".out; fail "array task $r wrote no summary"; }
done
echo "ok: $ranks array tasks wrote summaries/rank_0..$((ranks - 1)).tdsum.json"

"$td" merge summaries/rank_*.tdsum.json -o merged.tdsum.json || fail "tracediff merge"
"$td" control merged.tdsum.json -q -o merged.html --json merged.json --csv merged.csv ||
  fail "comparing the merged summary"
add=()
for ((r = 1; r < ranks; r++)); do add+=(--add-test "traces/rank$r"); done
"$td" control traces/rank0 "${add[@]}" -q -o direct.html --json direct.json --csv direct.csv ||
  fail "comparing the traces"
for ext in json csv html; do
  cmp "direct.$ext" "merged.$ext" || fail "the merged summary's $ext differs from the traces'"
done
echo "ok: merged summary compares byte for byte as the traces (JSON, CSV, HTML)"
echo "slurm: passed"

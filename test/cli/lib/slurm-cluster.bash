# A real single-node SLURM cluster for a test (sourced; not a test itself). As root:
# munged with a key made for it and its own socket, slurmctld and slurmd from Debian's
# slurm-wlm and munge, a slurm.conf in the given directory (this host's `hostname -s` as the
# node, free ports, a unique ClusterName, state, spool and logs in the directory,
# proctrack/linuxproc, task/none, no accounting).
#
#   start_cluster DIR PARTITION   0: up, SLURM_CONF exported, the node idle, `cluster_up`
#                                 describes it; 1: it cannot run here, `cluster_why` says why
#                                 and `cluster_logs` lists the daemons' logs to show
#   stop_cluster                  cancels the cluster's jobs, stops its daemons (idempotent)
#
# Safe under `set -euo pipefail`. munged refuses a socket below a directory others cannot
# search, so DIR's parents must be searchable by all (mktemp -d makes a private one).

daemon_pids=()
ctld_pid=
cluster_why=
cluster_logs=()
cluster_up=

stop_cluster() {
    if [[ ${#daemon_pids[@]} -gt 0 ]]; then
        # The jobs first (their slurmstepd are not our children), then the daemons. The SLURM
        # commands under `timeout`: without a controller they retry for a while.
        local jobs
        if [[ -n $ctld_pid ]] && kill -0 "$ctld_pid" 2>/dev/null; then
            jobs=$(timeout 5 squeue -h -o %F 2>/dev/null | sort -u || true)
            if [[ -n $jobs ]]; then
                timeout 5 scancel $jobs 2>/dev/null || true
                for _ in $(seq 20); do
                    [[ -z $(timeout 5 squeue -h -o %i 2>/dev/null) ]] && break
                    sleep 0.25
                done
            fi
        fi
        kill -TERM "${daemon_pids[@]}" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "${daemon_pids[@]}" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "${daemon_pids[@]}" 2>/dev/null || true
        wait "${daemon_pids[@]}" 2>/dev/null || true
        daemon_pids=()
    fi
}

start_cluster() {  # DIR PARTITION
    local dir=$1 partition=$2 tool missing=()
    for tool in munged slurmctld slurmd sbatch squeue sinfo scancel scontrol; do
        command -v "$tool" >/dev/null 2>&1 || [[ -x /usr/sbin/$tool ]] || missing+=("$tool")
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        cluster_why="the SLURM daemons cannot run here: ${missing[*]} not installed (Debian packages slurm-wlm and munge)"
        return 1
    fi
    if [[ $(id -u) -ne 0 ]]; then
        cluster_why="the SLURM daemons cannot run here: they are started as root (SlurmUser=root), and this is uid $(id -u)"
        return 1
    fi
    PATH=$PATH:/usr/sbin:/sbin

    local node cpus ctld_port slurmd_port cluster socket
    node=$(hostname -s 2>/dev/null || uname -n)
    node=${node%%.*}
    cpus=$(nproc 2>/dev/null || echo 1)
    ((cpus > 2)) && cpus=2
    read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
    cluster=mcast4ai-test-$$-$RANDOM

    # munged wants every directory above its socket searchable by all, its key private.
    mkdir -p "$dir"
    chmod 755 "$dir"
    mkdir -p "$dir/run" "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
    chmod 755 "$dir/run"
    chmod 700 "$dir/munge"
    if command -v mungekey >/dev/null 2>&1; then
        mungekey --create --keyfile="$dir/munge/munge.key" --bits=1024 2>"$dir/log/mungekey.log"
    else
        head -c 1024 /dev/urandom >"$dir/munge/munge.key"
    fi
    chmod 600 "$dir/munge/munge.key"
    socket=$dir/run/munge.socket

    cat >"$dir/slurm.conf" <<EOF
ClusterName=$cluster
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
KillWait=2
# Start a task as soon as one ends (the default waits up to 3 s).
SchedulerParameters=batch_sched_delay=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=$partition Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    # Only this cluster: no SLURM_* of a job the caller might run in.
    local v
    for v in $(compgen -e | grep '^SLURM_'); do
        unset "$v"
    done
    export SLURM_CONF=$dir/slurm.conf
    cluster_logs=("$dir/log/slurmctld.out" "$dir/log/slurmctld.log" "$dir/log/slurmd.out"
        "$dir/log/slurmd.log" "$dir/log/munged.log")

    munged --foreground --socket="$socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/run/munged.pid" --seed-file="$dir/munge/munged.seed" \
        >"$dir/log/munged.log" 2>&1 &
    daemon_pids+=($!)
    for _ in $(seq 100); do
        [[ -S $socket ]] && break
        sleep 0.1
    done
    if [[ ! -S $socket ]]; then
        cluster_why="munged did not come up within 10 s"
        return 1
    fi
    slurmctld -D -f "$dir/slurm.conf" >"$dir/log/slurmctld.out" 2>&1 &
    ctld_pid=$!
    daemon_pids+=($!)
    slurmd -D -N "$node" -f "$dir/slurm.conf" >"$dir/log/slurmd.out" 2>&1 &
    local slurmd_pid=$!
    daemon_pids+=($!)
    local state= why="within 30 s"
    local deadline=$((SECONDS + 30))
    while ((SECONDS < deadline)); do
        state=$(timeout 5 sinfo -h -n "$node" -o %t 2>/dev/null || true)
        [[ $state == idle ]] && break
        if ! kill -0 "$ctld_pid" 2>/dev/null; then
            why="(slurmctld exited)"
            break
        elif ! kill -0 "$slurmd_pid" 2>/dev/null; then
            why="(slurmd exited)"
            break
        fi
        sleep 0.5
    done
    if [[ $state != idle ]]; then
        cluster_why="the SLURM daemons did not come up $why (node $node: '${state:-no answer}')"
        return 1
    fi
    cluster_up="single-node cluster $cluster up: node $node idle, $cpus CPUs, ports $ctld_port/$slurmd_port"
}

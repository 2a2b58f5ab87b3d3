# Shared by scripts/hbase/{up,down,status}. Source it; do not run it.
# shellcheck shell=bash disable=SC2034  # variables used by the sourcing scripts

HBASE_SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$HBASE_SCRIPT_DIR/../.." && pwd)

CACHE_DIR="$REPO_ROOT/.cache/hbase"
M2_DIR="$CACHE_DIR/m2"
CLASSPATH_FILE="$CACHE_DIR/classpath.txt"
KDC_CLASSPATH_FILE="$CACHE_DIR/kdc-classpath.txt"
PROBE_DIR="$CACHE_DIR/probe"

# Security mode: empty (plain), "tls", "kerberos" or "kerberos,tls". A
# secure instance has its own ports and run directory, so it runs beside
# the plain one.
SECURITY="${RKQL_HBASE_SECURITY:-}"
case ",$SECURITY," in
  ,, | ,tls, | ,kerberos, | ,kerberos,tls, | ,tls,kerberos,) ;;
  *) printf 'hbase: RKQL_HBASE_SECURITY=%s: want tls, kerberos or kerberos,tls\n' "$SECURITY" >&2; exit 2 ;;
esac
# has_security succeeds if the mode includes $1 (tls or kerberos).
has_security() { [[ ",$SECURITY," == *",$1,"* ]]; }
# Multi-server mode: RKQL_HBASE_REGIONSERVERS=N (2 to 8) runs N region
# servers in one JVM (MultiCluster.java), on region server ports RS_PORT to
# RS_PORT+N-1, with its own ports and run directory.
REGIONSERVERS="${RKQL_HBASE_REGIONSERVERS:-}"
if [[ -n "$REGIONSERVERS" ]]; then
  if ! [[ "$REGIONSERVERS" =~ ^[0-9]+$ ]] || ((REGIONSERVERS < 2 || REGIONSERVERS > 8)); then
    printf 'hbase: RKQL_HBASE_REGIONSERVERS=%s: want a number from 2 to 8\n' "$REGIONSERVERS" >&2
    exit 2
  fi
  if [[ -n "$SECURITY" ]]; then
    printf 'hbase: RKQL_HBASE_REGIONSERVERS and RKQL_HBASE_SECURITY do not go together\n' >&2
    exit 2
  fi
fi
# Phoenix mode: RKQL_HBASE_PHOENIX=1 runs an HBase with Apache Phoenix
# 5.2.1's server jars and settings, on its own ports and run directory;
# up also makes the first Phoenix JDBC connection (SYSTEM.* tables).
PHOENIX="${RKQL_HBASE_PHOENIX:-}"
case "$PHOENIX" in
  "" | 0) PHOENIX="" ;;
  1) ;;
  *) printf 'hbase: RKQL_HBASE_PHOENIX=%s: want 1 or nothing\n' "$PHOENIX" >&2; exit 2 ;;
esac
if [[ -n "$PHOENIX" && ( -n "$SECURITY" || -n "$REGIONSERVERS" ) ]]; then
  printf 'hbase: RKQL_HBASE_PHOENIX goes with neither RKQL_HBASE_SECURITY nor RKQL_HBASE_REGIONSERVERS\n' >&2
  exit 2
fi
if [[ -n "$PHOENIX" ]]; then
  DEFAULT_PORTS=(2185 16300 16320)
  DEFAULT_RUN_DIR="$CACHE_DIR/run-phoenix"
elif [[ -n "$REGIONSERVERS" ]]; then
  DEFAULT_PORTS=(2187 16400 16420)
  DEFAULT_RUN_DIR="$CACHE_DIR/run-multi"
elif [[ -n "$SECURITY" ]]; then
  DEFAULT_PORTS=(2183 16200 16220)
  DEFAULT_RUN_DIR="$CACHE_DIR/run-secure"
else
  DEFAULT_PORTS=(2181 16000 16020)
  DEFAULT_RUN_DIR="$CACHE_DIR/run"
fi
RUN_DIR="${RKQL_HBASE_RUN_DIR:-$DEFAULT_RUN_DIR}"
# SECURE_DIR holds what a secure start makes: certificates, krb5.conf, the
# keytab, and hbase-site.xml files for clients (client/) and the probe.
SECURE_DIR="$RUN_DIR/secure"
KDC_PID_FILE="$RUN_DIR/kdc.pid"
KDC_PORT="${RKQL_HBASE_KDC_PORT:-16288}"
KDC_MAIN_CLASS="org.apache.hadoop.minikdc.MiniKdc"
REALM="RKQL.TEST"
CONF_DIR="$RUN_DIR/conf"
DATA_DIR="$RUN_DIR/data"
PID_FILE="$RUN_DIR/hbase.pid"
LOG_FILE="$RUN_DIR/hbase.log"
OUT_FILE="$RUN_DIR/hbase.out"
PROBE_LOG="$RUN_DIR/probe.log"
LOCK_FILE="$CACHE_DIR/lock"
# Phoenix mode: the server's extra jars (scripts/phoenix/server/pom.xml),
# the server classpath (HBase's jars, then those of Phoenix's that HBase
# does not hold), the compiled PhoenixSQL client, and the mark that the
# first Phoenix connection succeeded (in the data directory, so a fresh
# start clears it).
PHOENIX_POM_DIR="$REPO_ROOT/scripts/phoenix/server"
PHOENIX_JARS_FILE="$CACHE_DIR/phoenix-jars.txt"
PHOENIX_CLASSPATH_FILE="$CACHE_DIR/phoenix-classpath.txt"
PHOENIX_SQL_DIR="$CACHE_DIR/phoenix-sql"
PHOENIX_READY_FILE="$DATA_DIR/phoenix.ready"
PHOENIX_TIMEOUT="${RKQL_HBASE_PHOENIX_TIMEOUT:-600}"
SERVER_CLASSPATH_FILE="$CLASSPATH_FILE"
[[ -z "$PHOENIX" ]] || SERVER_CLASSPATH_FILE="$PHOENIX_CLASSPATH_FILE"

ZK_PORT="${RKQL_HBASE_ZK_PORT:-${DEFAULT_PORTS[0]}}"
MASTER_PORT="${RKQL_HBASE_MASTER_PORT:-${DEFAULT_PORTS[1]}}"
RS_PORT="${RKQL_HBASE_RS_PORT:-${DEFAULT_PORTS[2]}}"
START_TIMEOUT="${RKQL_HBASE_START_TIMEOUT:-180}"
HEAP="${RKQL_HBASE_HEAP:-2g}"

# Marks the JVM as ours: down and status only touch a process carrying it.
RUN_MARKER="-Drkql.hbase.run=$RUN_DIR"
MAIN_CLASS="org.apache.hadoop.hbase.master.HMaster"
MAIN_ARGS=(start)
# RS_PORTS lists every region server port of the mode.
RS_PORTS=("$RS_PORT")
if [[ -n "$REGIONSERVERS" ]]; then
  MAIN_CLASS="MultiCluster"
  MAIN_ARGS=("$REGIONSERVERS" "$RS_PORT")
  RS_PORTS=()
  for ((i = 0; i < REGIONSERVERS; i++)); do RS_PORTS+=("$((RS_PORT + i))"); done
fi

# The flags HBase's own launcher adds on JDK 17 (HBASE-28290 and friends).
JDK17_FLAGS=(
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED
  --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED
  --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-exports java.base/sun.net.dns=ALL-UNNAMED
  --add-exports java.base/sun.net.util=ALL-UNNAMED
)

log() { printf '%s\n' "$*" >&2; }
die() { log "hbase: $*"; exit 1; }

# java_major prints the major version of the given java binary.
java_major() {
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = //p' | head -n1
}

# pick_java sets JAVA and JAVAC to a JDK 17 (HBase 2.6 supports 8, 11 and 17).
# RKQL_HBASE_JAVA_HOME wins; then JAVA_HOME and PATH if they are JDK 17; then
# any JDK 17 under /usr/lib/jvm.
pick_java() {
  local home candidates=()
  [[ -n "${RKQL_HBASE_JAVA_HOME:-}" ]] && candidates+=("$RKQL_HBASE_JAVA_HOME")
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for home in /usr/lib/jvm/*17*; do
    [[ -d "$home" ]] && candidates+=("$home")
  done
  for home in "${candidates[@]}"; do
    if [[ -x "$home/bin/java" && -x "$home/bin/javac" ]]; then
      if [[ -n "${RKQL_HBASE_JAVA_HOME:-}" || "$(java_major "$home/bin/java")" == 17 ]]; then
        JAVA="$home/bin/java"
        JAVAC="$home/bin/javac"
        JAVA_HOME_USED="$home"
        return 0
      fi
    fi
  done
  die "no JDK 17 found (set RKQL_HBASE_JAVA_HOME)"
}

# our_pid prints the PID from the pid file if that process is alive and is the
# HBase JVM this script started; otherwise it prints nothing and fails.
our_pid() {
  local pid pid_file="${1:-$PID_FILE}" main_class="${2:-$MAIN_CLASS}"
  [[ -f "$pid_file" ]] || return 1
  pid=$(tr -dc '0-9' <"$pid_file")
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  local args
  args=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
  grep -qxF -- "$RUN_MARKER" <<<"$args" || return 1
  grep -qxF -- "$main_class" <<<"$args" || return 1
  printf '%s\n' "$pid"
}

# with_lock runs "$@" holding the lock shared by up and down.
with_lock() {
  mkdir -p "$CACHE_DIR"
  exec 9>"$LOCK_FILE"
  flock -w 600 9 || die "could not take $LOCK_FILE"
  "$@"
}

# resolve_classpath fills CLASSPATH_FILE from pom.xml unless it is current.
# With arguments (pom directory, classpath file) it resolves another pom.
resolve_classpath() {
  local fresh=1 jar pom_dir="${1:-$HBASE_SCRIPT_DIR}" cp_file="${2:-$CLASSPATH_FILE}"
  if [[ ! -s "$cp_file" || "$pom_dir/pom.xml" -nt "$cp_file" ]]; then
    fresh=0
  else
    while IFS= read -r jar; do
      [[ -f "$jar" ]] || { fresh=0; break; }
    done < <(tr ':' '\n' <"$cp_file")
  fi
  ((fresh)) && return 0
  log "resolving jars for $pom_dir/pom.xml…"
  mkdir -p "$M2_DIR"
  local tmp="$cp_file.tmp" mvnlog="$cp_file.mvn.log"
  if ! (cd "$pom_dir" && JAVA_HOME="$JAVA_HOME_USED" mvn -q -B \
    -Dmaven.repo.local="$M2_DIR" dependency:build-classpath \
    -Dmdep.outputFile="$tmp" >"$mvnlog" 2>&1); then
    tail -n 40 "$mvnlog" >&2
    die "maven could not resolve the classpath of $pom_dir/pom.xml (log: $mvnlog)"
  fi
  mv "$tmp" "$cp_file"
}

# build_probe compiles HBaseProbe.java and MultiCluster.java unless their
# class files are current.
build_probe() {
  local name src cls
  for name in HBaseProbe MultiCluster; do
    src="$HBASE_SCRIPT_DIR/$name.java" cls="$PROBE_DIR/$name.class"
    if [[ -f "$cls" && "$cls" -nt "$src" && "$cls" -nt "$CLASSPATH_FILE" ]]; then
      continue
    fi
    mkdir -p "$PROBE_DIR"
    "$JAVAC" -nowarn -encoding UTF-8 -d "$PROBE_DIR" -cp "$(<"$CLASSPATH_FILE")" "$src" ||
      die "could not compile $src"
  done
}

# probe runs HBaseProbe with the given arguments (mode, then mode's arguments).
probe() {
  local mode=$1
  shift
  "$JAVA" -Xmx256m -XX:TieredStopAtLevel=1 -Xshare:auto \
    -Djava.net.preferIPv4Stack=true \
    -Dlog4j2.configurationFile="$HBASE_SCRIPT_DIR/log4j2.properties" \
    -Drkql.hbase.logfile="$PROBE_LOG" \
    "${JDK17_FLAGS[@]}" \
    "${SECURE_JVM_FLAGS[@]}" \
    -cp "$PROBE_DIR:${PROBE_CONF_CP}$(<"$CLASSPATH_FILE")" HBaseProbe "$mode" "$ZK_PORT" "$@"
}

# JVM flags and probe classpath entries of the security mode.
SECURE_JVM_FLAGS=()
PROBE_CONF_CP=""
if has_security kerberos; then
  SECURE_JVM_FLAGS+=("-Djava.security.krb5.conf=$SECURE_DIR/krb5.conf")
fi
if [[ -n "$SECURITY" ]]; then
  PROBE_CONF_CP="$SECURE_DIR/probe:"
fi

# port_in_use succeeds if something accepts TCP connections on 127.0.0.1:$1.
port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# stop_kdc stops the KDC this run started, if any.
stop_kdc() {
  local pid
  if pid=$(our_pid "$KDC_PID_FILE" "$KDC_MAIN_CLASS"); then
    kill -TERM "$pid" 2>/dev/null || true
    local waited=0
    while [[ -d "/proc/$pid" ]] && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
    if [[ -d "/proc/$pid" ]] && our_pid "$KDC_PID_FILE" "$KDC_MAIN_CLASS" >/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$KDC_PID_FILE"
}

# marked_pids prints the PIDs of every process carrying this run
# directory's marker, whether or not a PID file still names it: an HBase or
# KDC left behind by an interrupted run of this checkout.
marked_pids() {
  local f pid
  for f in /proc/[0-9]*/cmdline; do
    pid=${f#/proc/}
    pid=${pid%/cmdline}
    [[ "$pid" == "$$" ]] && continue
    tr '\0' '\n' 2>/dev/null <"$f" | grep -qxF -- "$RUN_MARKER" && printf '%s\n' "$pid"
  done
  return 0
}

# stop_strays stops every process marked as this run directory's (see
# marked_pids): SIGTERM, up to 10 s, then SIGKILL.
stop_strays() {
  local pids pid waited=0
  pids=$(marked_pids)
  [[ -n "$pids" ]] || return 0
  log "stopping processes left by an earlier run of $RUN_DIR: $(echo $pids)"
  kill -TERM $pids 2>/dev/null || true
  while [[ -n "$(marked_pids)" ]] && ((waited < 100)); do sleep 0.1; waited=$((waited + 1)); done
  pids=$(marked_pids)
  [[ -z "$pids" ]] || kill -KILL $pids 2>/dev/null || true
  for pid in $pids; do
    while [[ -d "/proc/$pid" ]]; do sleep 0.1; done
  done
}

# stop_hbase stops our HBase JVM, if running: SIGTERM, up to
# RKQL_HBASE_STOP_TIMEOUT seconds (20) of grace, then SIGKILL.
stop_hbase() {
  local pid waited=0 grace="${RKQL_HBASE_STOP_TIMEOUT:-20}"
  if ! pid=$(our_pid); then
    if [[ -f "$PID_FILE" ]]; then
      log "stale pid file (process gone or not ours); not killing anything"
      rm -f "$PID_FILE"
    fi
    return 0
  fi
  log "stopping HBase (pid $pid)…"
  kill -TERM "$pid" 2>/dev/null || true
  while [[ -d "/proc/$pid" ]] && our_pid >/dev/null && ((waited < grace * 10)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  if our_pid >/dev/null; then
    log "HBase did not stop within ${grace}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while [[ -d "/proc/$pid" ]] && our_pid >/dev/null; do sleep 0.1; done
  fi
  rm -f "$PID_FILE"
}

# artifact_key prints a jar's artifact (the two directories above its
# version directory in a Maven repository: group's last part/artifact).
artifact_key() {
  local d
  d=$(dirname "$(dirname "$1")")
  printf '%s/%s\n' "$(basename "$(dirname "$d")")" "$(basename "$d")"
}

# resolve_phoenix fills PHOENIX_CLASSPATH_FILE: HBase's classpath, then
# every jar of Phoenix's server pom whose artifact HBase's does not hold,
# so that HBase's version wins each conflict. Needs resolve_classpath first.
resolve_phoenix() {
  resolve_classpath "$PHOENIX_POM_DIR" "$PHOENIX_JARS_FILE"
  if [[ -s "$PHOENIX_CLASSPATH_FILE" && "$PHOENIX_CLASSPATH_FILE" -nt "$PHOENIX_JARS_FILE" &&
    "$PHOENIX_CLASSPATH_FILE" -nt "$CLASSPATH_FILE" ]]; then
    return 0
  fi
  local jar cp
  declare -A held=()
  while IFS= read -r jar; do
    [[ -n "$jar" ]] && held[$(artifact_key "$jar")]=1
  done < <(tr ':' '\n' <"$CLASSPATH_FILE"; echo)
  cp=$(tr -d '\n' <"$CLASSPATH_FILE")
  while IFS= read -r jar; do
    if [[ -n "$jar" && -z "${held[$(artifact_key "$jar")]:-}" ]]; then cp+=":$jar"; fi
  done < <(tr ':' '\n' <"$PHOENIX_JARS_FILE"; echo)
  printf '%s' "$cp" >"$PHOENIX_CLASSPATH_FILE.tmp"
  mv "$PHOENIX_CLASSPATH_FILE.tmp" "$PHOENIX_CLASSPATH_FILE"
}

# build_phoenix_sql compiles scripts/phoenix/PhoenixSQL.java unless its
# class file is current.
build_phoenix_sql() {
  local src="$REPO_ROOT/scripts/phoenix/PhoenixSQL.java" cls="$PHOENIX_SQL_DIR/PhoenixSQL.class"
  if [[ -f "$cls" && "$cls" -nt "$src" && "$cls" -nt "$PHOENIX_CLASSPATH_FILE" ]]; then
    return 0
  fi
  mkdir -p "$PHOENIX_SQL_DIR"
  "$JAVAC" -nowarn -encoding UTF-8 -d "$PHOENIX_SQL_DIR" -cp "$(<"$PHOENIX_CLASSPATH_FILE")" "$src" ||
    die "could not compile $src"
}

# phoenix_sql runs PhoenixSQL against this mode's ZooKeeper with the given
# arguments; its log goes to $RUN_DIR/phoenix-sql.log.
phoenix_sql() {
  "$JAVA" -Xmx512m -XX:TieredStopAtLevel=1 -Xshare:auto \
    -Djava.net.preferIPv4Stack=true \
    -Dlog4j2.configurationFile="$HBASE_SCRIPT_DIR/log4j2.properties" \
    -Drkql.hbase.logfile="$RUN_DIR/phoenix-sql.log" \
    "${JDK17_FLAGS[@]}" \
    -cp "$PHOENIX_SQL_DIR:$(<"$PHOENIX_CLASSPATH_FILE")" PhoenixSQL --url "jdbc:phoenix:127.0.0.1:$ZK_PORT" "$@"
}

#!/usr/bin/env bash
# Builds Agentbus's container images with no container registry: the base from Debian packages (debootstrap, then
# `docker import`, as deploy/sandbox-image does) and a Java runtime made by jlink from the build's JDK; the services,
# Kafka and PostgreSQL on top of it with plain `docker build`s whose FROM names a local image.
#
#   deploy/images/build.sh            build what is missing or older than its jar (a no-op in a second or two when
#                                     nothing changed)
#   deploy/images/build.sh --force    build every image again
#
# Images:
#   agentbus-base:1                 Debian minbase, tini, ca-certificates, the jlinked Java runtime in /opt/java,
#                                   user agentbus (10001), /var/lib/agentbus, the health-check script
#   agentbus/<service>:dev          gateway, orchestrator, sandbox-worker, scheduler, memory-service: the service's
#                                   jar and lib/ on agentbus-base
#   agentbus/kafka:dev              a single-node KRaft broker: the broker module's EmbeddedKafkaBroker with Kafka's
#                                   own jars, configured by KAFKA_* variables like apache/kafka
#   agentbus/postgres:dev           Debian's PostgreSQL (debootstrap), initialised from POSTGRES_* variables like the
#                                   official image
#
# The jars come from `./mvnw -B -DskipTests package` (gateway/target/agentbus-gateway.jar …, broker/target/…); when
# one is missing this script runs that build for the modules it needs.
#
# Environment:
#   JAVA_HOME                 the JDK whose jlink makes the runtime (default: /usr/lib/jvm/temurin-25-jdk-amd64 if
#                             present, else the java on PATH). It must be 21 or later, and have jmods or be a
#                             linkable runtime (JEP 493, e.g. Temurin 24+).
#   AGENTBUS_IMAGE_TAG        the services', Kafka's and PostgreSQL's tag (default dev)
#   AGENTBUS_DEBIAN_MIRROR    the Debian mirror (default: the first deb.debian.org-style URI in /etc/apt/sources.list*)
#   AGENTBUS_DEBIAN_SUITE     the release (default bookworm)
#
# Users who can reach a registry can build the service images from the Dockerfile beside this script instead.
# Needs root (debootstrap) and a running Docker engine.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
TAG=${AGENTBUS_IMAGE_TAG:-dev}
BASE=agentbus-base:1
SUITE=${AGENTBUS_DEBIAN_SUITE:-bookworm}
SERVICES=(gateway orchestrator sandbox-worker scheduler memory-service)
APP_UID=10001

force=false
[ "${1:-}" = "--force" ] && force=true

exists() { docker image inspect "$1" >/dev/null 2>&1; }
wanted() { $force || ! exists "$1"; }
# What an image was built from: the checksums of its jar, its lib/ and its build files, kept in a label. An image
# whose label differs is built again, so a rebuilt jar never leaves a stale image behind. The base and PostgreSQL's
# Debian rootfs do not change with the code: they are built once (--force builds them again).
# jar_sum <target dir> <jar> <files of the image's build context…>
jar_sum() {
  local dir=$1 jar=$2
  shift 2
  { (cd "$dir" && sha256sum "$jar" lib/*); sha256sum "$@"; } | sha256sum | cut -c1-32
}
stale() {
  $force || [ "$(docker image inspect --format '{{index .Config.Labels "dev.agentbus.jar-sum"}}' "$1" 2>/dev/null)" != "$2" ]
}

if [ -z "${JAVA_HOME:-}" ]; then
  if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/jlink ]; then
    JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
  else
    JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  fi
fi
export JAVA_HOME

work=$(mktemp -d /tmp/agentbus-images.XXXXXX)
# debootstrap mounts /proc and /sys in its target while it runs: unmount whatever an interrupted run left before
# removing the directory.
cleanup() {
  awk -v w="$work" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# docker build without BuildKit: the legacy builder takes FROM agentbus-base:1 from the local image store and never
# asks a registry (BuildKit would, for the image's metadata, unless it is told otherwise).
build() {
  DOCKER_BUILDKIT=0 docker build -q "$@" >/dev/null 2>"$work/build.err" || { cat "$work/build.err" >&2; return 1; }
}

debian_mirror() {
  local mirror=${AGENTBUS_DEBIAN_MIRROR:-}
  if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
      | sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' \
               -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' \
      | head -1)
  fi
  echo "${mirror:-http://deb.debian.org/debian}"
}

# debootstrap <dir> <packages>: a minimal Debian with those packages, without apt's lists and documentation.
debootstrap_into() {
  local rootfs=$1 packages=$2 mirror
  mirror=$(debian_mirror)
  if ! command -v debootstrap >/dev/null 2>&1; then
    echo "installing debootstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  echo "debootstrap $SUITE from $mirror (packages: $packages)"
  debootstrap --variant=minbase --include="$packages" "$SUITE" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    tail -30 "$work/debootstrap.log" >&2
    echo "debootstrap failed (log above)" >&2
    exit 1
  }
  # No setuid or setgid programs: nothing in these images needs one, and a process that gained a user could use it.
  find "$rootfs" -xdev -type f \( -perm -4000 -o -perm -2000 \) -exec chmod ug-s {} +
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/usr/share/doc/* \
    "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
}

# ---- the jars -------------------------------------------------------------------------------------------------
missing=()
for s in "${SERVICES[@]}"; do
  [ -f "$repo/$s/target/agentbus-$s.jar" ] || missing+=("$s")
done
[ -f "$repo/broker/target/agentbus-broker.jar" ] || missing+=(broker)
if [ ${#missing[@]} -gt 0 ]; then
  modules=$(IFS=,; echo "${missing[*]}")
  echo "building the jars of $modules"
  (cd "$repo" && ./mvnw -B -q -DskipTests package -pl "$modules" -am)
fi

# ---- agentbus-base:1 ------------------------------------------------------------------------------------------
if wanted "$BASE"; then
  rootfs=$work/base
  # tini: PID 1 that reaps the processes a service spawns (the worker runs git and bwrap) and passes signals on.
  # ca-certificates: model servers and webhooks over https. The rest is for the sandbox-worker's bubblewrap
  # backend (what deploy/k8s runs), whose sandboxes see this image's /usr: bubblewrap, and the agent's userland of
  # the sandbox image (git, python3, tmux, procps). In the base rather than the worker's image: debootstrap runs
  # once, and the five images share the layer.
  debootstrap_into "$rootfs" tini,ca-certificates,bubblewrap,git,python3,tmux,procps

  # The Java runtime: only the JDK's modules the services use (java.se covers JDBC, JNDI, JMX, XML, the HTTP
  # client; jdk.* the ones Netty, Kafka, Micronaut and docker-java reach for), no compiler, no jmods.
  echo "jlink from $JAVA_HOME"
  "$JAVA_HOME/bin/jlink" \
    --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.zipfs,jdk.naming.dns,jdk.net,jdk.management,jdk.management.jfr,jdk.jfr,jdk.jcmd,jdk.localedata,jdk.charsets,jdk.security.auth,jdk.security.jgss,jdk.httpserver \
    --strip-debug --no-header-files --no-man-pages \
    --output "$rootfs/opt/java" >"$work/jlink.log" 2>&1 || { cat "$work/jlink.log" >&2; exit 1; }

  chroot "$rootfs" groupadd --gid $APP_UID agentbus
  chroot "$rootfs" useradd --uid $APP_UID --gid $APP_UID --home-dir /var/lib/agentbus --no-create-home \
    --shell /usr/sbin/nologin agentbus
  # The only places a service writes (both volumes when the root filesystem is read-only).
  install -d -m 0750 -o $APP_UID -g $APP_UID "$rootfs/var/lib/agentbus"
  install -d -m 1777 "$rootfs/tmp"
  install -m 0755 "$here/service/agentbus-health" "$rootfs/usr/local/bin/agentbus-health"

  echo "importing as $BASE"
  tar -C "$rootfs" --numeric-owner -c . | docker import \
    --change "USER $APP_UID:$APP_UID" \
    --change 'WORKDIR /var/lib/agentbus' \
    --change 'ENV JAVA_HOME=/opt/java PATH=/opt/java/bin:/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME=/var/lib/agentbus TMPDIR=/tmp' \
    --change 'LABEL dev.agentbus.base-image=1' \
    - "$BASE" >/dev/null
  echo "built $BASE ($(docker image inspect --format '{{.Size}}' "$BASE") bytes)"
  force=true   # a new base: everything on it is rebuilt
fi

# ---- the services ---------------------------------------------------------------------------------------------
for s in "${SERVICES[@]}"; do
  image=agentbus/$s:$TAG
  sum=$(jar_sum "$repo/$s/target" "agentbus-$s.jar" "$here/service/Dockerfile" "$here/service/agentbus-health")
  stale "$image" "$sum" || continue
  ctx=$work/$s
  mkdir -p "$ctx"
  cp "$repo/$s/target/agentbus-$s.jar" "$ctx/agentbus.jar"
  cp -r "$repo/$s/target/lib" "$ctx/lib"
  cp "$here/service/Dockerfile" "$ctx/Dockerfile"
  echo "building $image"
  build -t "$image" --build-arg BASE="$BASE" --build-arg SERVICE="$s" --label "dev.agentbus.jar-sum=$sum" "$ctx"
done

# ---- Kafka ----------------------------------------------------------------------------------------------------
sum=$(jar_sum "$repo/broker/target" agentbus-broker.jar "$here/kafka/Dockerfile" "$here/kafka/run" "$here/kafka/logback.xml")
if stale "agentbus/kafka:$TAG" "$sum"; then
  ctx=$work/kafka
  mkdir -p "$ctx"
  cp "$repo/broker/target/agentbus-broker.jar" "$ctx/agentbus-broker.jar"
  cp -r "$repo/broker/target/lib" "$ctx/lib"
  cp "$here/kafka/Dockerfile" "$here/kafka/run" "$here/kafka/logback.xml" "$ctx/"
  echo "building agentbus/kafka:$TAG"
  build -t "agentbus/kafka:$TAG" --build-arg BASE="$BASE" --label "dev.agentbus.jar-sum=$sum" "$ctx"
fi

# ---- PostgreSQL -----------------------------------------------------------------------------------------------
# Two steps: the Debian rootfs (agentbus-postgres-rootfs:1, debootstrap, made once like the base) and the image on
# it (postgres/Dockerfile: the entry point and the settings `docker import` cannot set, such as HEALTHCHECK), which
# is rebuilt whenever those files change.
PG_ROOTFS=agentbus-postgres-rootfs:1
if wanted "$PG_ROOTFS"; then
  rootfs=$work/postgres
  # Debian's own PostgreSQL (bookworm: 15), with its security updates, its client tools (psql, pg_dump for
  # backups, pg_isready for the health check). No Java in this image.
  debootstrap_into "$rootfs" postgresql,tini
  # The package made a cluster in /var/lib/postgresql/15/main; the entry point makes its own in the volume.
  rm -rf "$rootfs"/var/lib/postgresql/* "$rootfs"/etc/postgresql/*
  install -d -m 0700 -o "$(chroot "$rootfs" id -u postgres)" -g "$(chroot "$rootfs" id -g postgres)" \
    "$rootfs/var/lib/postgresql/data"
  install -d -m 1777 "$rootfs/tmp"
  bindir=$(ls -d "$rootfs"/usr/lib/postgresql/*/bin | head -1)
  echo "importing as $PG_ROOTFS"
  tar -C "$rootfs" --numeric-owner -c . | docker import --change "LABEL dev.agentbus.pg-bindir=${bindir#"$rootfs"}" \
    - "$PG_ROOTFS" >/dev/null
  force=true   # a new rootfs: the image on it is rebuilt
fi
sum=$( (cd "$here/postgres" && sha256sum Dockerfile entrypoint) | sha256sum | cut -c1-32)
if stale "agentbus/postgres:$TAG" "$sum"; then
  bindir=$(docker image inspect --format '{{index .Config.Labels "dev.agentbus.pg-bindir"}}' "$PG_ROOTFS")
  echo "building agentbus/postgres:$TAG"
  build -t "agentbus/postgres:$TAG" --build-arg ROOTFS="$PG_ROOTFS" --build-arg BINDIR="$bindir" \
    --label "dev.agentbus.jar-sum=$sum" "$here/postgres"
fi

docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E '^agentbus(-base|-postgres-rootfs|/)' | sort

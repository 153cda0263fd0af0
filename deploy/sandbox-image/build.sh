#!/bin/sh
# Builds the sandbox image agentbus-sandbox:<version> from Debian packages, with no container registry:
# debootstrap a minimal Debian into a directory, add the sandbox user, strip setuid bits, and `docker import` it.
#
#   deploy/sandbox-image/build.sh            build unless the image already exists (a no-op in a few ms then)
#   deploy/sandbox-image/build.sh --force    build again even if it exists
#
# Environment:
#   AGENTBUS_SANDBOX_IMAGE   the tag to build (default agentbus-sandbox:1, the worker's default image)
#   AGENTBUS_DEBIAN_MIRROR   the Debian mirror (default: the first deb.debian.org-style URI in /etc/apt/sources.list*)
#   AGENTBUS_DEBIAN_SUITE    the release (default bookworm)
#
# Users who can reach a registry can build the same image from the Dockerfile beside this script instead.
# Needs root (debootstrap creates device nodes and chowns files) and a running Docker engine.
set -eu

IMAGE=${AGENTBUS_SANDBOX_IMAGE:-agentbus-sandbox:1}
SUITE=${AGENTBUS_DEBIAN_SUITE:-bookworm}
# What the agent needs inside: a POSIX shell and coreutils (in minbase), git, python3, tmux; procps for ps/kill;
# ca-certificates so that git over https works when an operator turns the network on.
PACKAGES=git,python3,tmux,procps,ca-certificates
# The user of the image. The worker runs containers as the owner of the workspace, or, when it is root, as
# agentbus.sandbox.docker-uid (64100 by default, a uid no host account has; it needs no entry here). 1000 is left
# for Kubernetes pods, which run on other machines than the worker.
SANDBOX_UID=1000

force=false
[ "${1:-}" = "--force" ] && force=true

if ! $force && docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "sandbox image $IMAGE already exists; nothing to do (use --force to rebuild)"
  exit 0
fi

mirror=${AGENTBUS_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  # deb822 files say "URIs: http://…/debian", one-line files say "deb http://…/debian suite …"; take the main
  # archive (not -security, not a third-party repository).
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' \
             -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' \
    | head -1)
  mirror=${mirror:-http://deb.debian.org/debian}
fi

if ! command -v debootstrap >/dev/null 2>&1; then
  echo "installing debootstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

work=$(mktemp -d /tmp/agentbus-sandbox-image.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
rootfs=$work/rootfs

echo "debootstrap $SUITE from $mirror (packages: $PACKAGES)"
debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -30 "$work/debootstrap.log" >&2
  echo "debootstrap failed (log above)" >&2
  exit 1
}

# The unprivileged user the sandbox runs as, so that `id` and `ls -l` show names.
chroot "$rootfs" groupadd --gid $SANDBOX_UID sandbox
chroot "$rootfs" useradd --uid $SANDBOX_UID --gid $SANDBOX_UID --home-dir /workspace --no-create-home \
  --shell /bin/sh sandbox
# No setuid or setgid programs at all: no-new-privileges already makes them harmless, this is the second belt.
find "$rootfs" -xdev -type f \( -perm -4000 -o -perm -2000 \) -exec chmod ug-s {} +
# Nothing the sandbox needs: apt's lists and caches, documentation.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/usr/share/doc/* \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
mkdir -p "$rootfs/workspace"
chown $SANDBOX_UID:$SANDBOX_UID "$rootfs/workspace"

echo "importing as $IMAGE"
tar -C "$rootfs" --numeric-owner -c . | docker import \
  --change 'USER 1000:1000' \
  --change 'WORKDIR /workspace' \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME=/workspace TMPDIR=/tmp' \
  --change 'CMD ["/bin/sh"]' \
  --change 'LABEL dev.agentbus.sandbox-image=1' \
  - "$IMAGE" >/dev/null
echo "built $IMAGE ($(docker image inspect --format '{{.Size}}' "$IMAGE") bytes)"

#!/bin/sh
# Installs Debian packages with apt-get, as root or through sudo:
#   sh scripts/apt_install.sh NAME PACKAGE...   (NAME prefixes the messages)
# Fails (exit 1) with the command to run when neither root nor sudo is there.
set -eu
name="$1"
shift
[ "$#" -gt 0 ] || exit 0
echo "$name: installing Debian packages: $*"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "$name: missing packages: $*; run as root: apt-get install $*" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@"

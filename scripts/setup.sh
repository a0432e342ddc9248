#!/usr/bin/env bash
# Installs the Debian packages tenet needs to build, test and benchmark — only those missing.
# NumPy and h5py let the tests check that Python reads what tenet writes (PyTorch's check runs
# where python3-torch is installed; it is not installed here: it is large).
# Runs as root (as on CI); as another user it lists what is missing and fails.
set -euo pipefail

packages=(cmake make g++ catch2 libeigen3-dev libopenblas-dev libhwy-dev ccache libbenchmark-dev
          libzip-dev libhdf5-dev libdlpack-dev libkissfft-dev libfftw3-dev python3-numpy python3-h5py openmpi-bin libopenmpi-dev)

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup.sh: not a Debian-like system; make sure these (or equivalents) are installed:" \
        "${packages[*]}" >&2
    exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
    echo "setup.sh: all packages present (${packages[*]})"
    exit 0
fi

if ((EUID != 0)); then
    echo "setup.sh: missing packages: ${missing[*]}" >&2
    echo "setup.sh: run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi

echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"

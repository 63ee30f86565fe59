#!/bin/sh
# Is this Python new enough for the bot, and can it make a virtual environment? Run by `make`
# before it creates .venv (`check-python.sh PYTHON`) and before it installs into it
# (`check-python.sh VENV_PYTHON venv`), so that an old Python stops with what to do instead
# of pip's resolver error, and no half-made .venv is left behind.
set -u
python=$1
kind=${2:-interpreter}
need=3.11

version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
if [ -z "$version" ]; then
    if [ "$kind" = venv ]; then
        echo "make: the virtual environment's Python ($python) does not run: remove the" \
            "environment with 'make clean', then run make again" >&2
    else
        echo "make: cannot run '$python': install Python $need or newer, or name one with" \
            "'make PYTHON=/path/to/python3.11 ...'" >&2
    fi
    exit 2
fi
major=${version%%.*}
minor=${version#*.}
if [ "$major" -lt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -lt 11 ]; }; then
    if [ "$kind" = venv ]; then
        echo "make: the virtual environment ($python) uses Python $version, and the bot" \
            "needs $need or newer: run 'make clean', then make again with a newer Python" \
            "('make PYTHON=python3.11 ...')" >&2
    else
        echo "make: '$python' is Python $version, and the bot needs $need or newer. Install" \
            "a newer one (Debian/Ubuntu: apt install python3.11 python3.11-venv), then run" \
            "'make PYTHON=python3.11 ...'" >&2
    fi
    exit 2
fi
if [ "$kind" != venv ] && ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    echo "make: '$python' (Python $version) cannot make a virtual environment: install its" \
        "venv module (Debian/Ubuntu: apt install python$version-venv), then run make again" >&2
    exit 2
fi

"""The locked environments (CONTRIBUTING.md, "Locks"): requirements.txt is the reader's set (what
Binder installs), requirements-dev.txt the developer's set on top of it; tools/lock.sh
(`make lock`) writes both from their .in files.

Offline checks: a lock is stale when its inputs changed after it was written (its header
records their sha256, computed as tools/lock.sh does); every input requirement is met by
its pin; every pin is exact and hashed; the reader's lock carries no developer tool; the
developer's lock keeps the reader's pins; and, walking the installed packages' own
metadata from the inputs, every package they pull in is pinned (the lock is closed), in
an environment that `make` installed from the locks (checked too).
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parent.parent
# lock -> the files its header digest covers, in tools/lock.sh's order.
INPUTS = {
    "requirements.txt": ["requirements.in"],
    "requirements-dev.txt": ["requirements-dev.in", "requirements.in", "requirements.txt"],
}
# Tools no reader needs (the issue: "Binder's file holds no developer tool").
DEV_TOOLS = ["jupyter-book", "sphinx", "pytest", "pytest-xdist", "hypothesis", "nbval",
             "playwright", "axe-playwright-python", "jupyterlite-core", "pypdf", "uv"]


def parse_lock(name: str) -> dict[str, dict]:
    """{canonical name: {"version", "extras", "hashes"}} from a uv/pip-compile lock."""
    pins: dict[str, dict] = {}
    current = None
    for raw in (REPO / name).read_text().splitlines():
        line = raw.split(" #", 1)[0].rstrip().rstrip("\\").strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash="):
            assert current is not None, f"{name}: hash before any pin: {raw}"
            current["hashes"].add(line.split("sha256:", 1)[1])
            continue
        req = Requirement(line)
        spec = str(req.specifier)
        assert spec.startswith("==") and "," not in spec, f"{name}: not an exact pin: {raw}"
        key = canonicalize_name(req.name)
        if key in pins:
            # a package written twice (with and without extras, as --no-strip-extras did)
            # is allowed only at the same version; the extras are merged
            assert pins[key]["version"] == spec[2:], f"{name}: {req.name} pinned twice"
            pins[key]["extras"] |= set(req.extras)
            current = {"hashes": set()}
            pins[key].setdefault("more_hashes", []).append(current["hashes"])
            continue
        current = pins[key] = {"version": spec[2:], "extras": set(req.extras),
                               "hashes": set(), "marker": req.marker}
    return pins


def input_requirements(name: str) -> list[Requirement]:
    """The requirements of a .in file, following -r (constraints -c are not inputs)."""
    out = []
    for raw in (REPO / name).read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("-c"):
            continue
        if line.startswith("-r"):
            out += input_requirements(line[2:].strip())
            continue
        assert not line.startswith("-"), f"{name}: unexpected option {line}"
        out.append(Requirement(line))
    return out


@pytest.mark.parametrize("lock", sorted(INPUTS))
def test_lock_is_current_with_its_inputs(lock):
    header = (REPO / lock).read_text().splitlines()[0]
    m = re.fullmatch(r"# inputs sha256: ([0-9a-f]{64}) \(of: (.*)\)", header)
    assert m, f"{lock}: first line is not tools/lock.sh's digest header: {header!r}"
    assert m.group(2).split() == INPUTS[lock], f"{lock}: digest covers {m.group(2)}"
    digest = hashlib.sha256(b"".join((REPO / f).read_bytes() for f in INPUTS[lock]))
    assert m.group(1) == digest.hexdigest(), (
        f"{lock} is stale: {', '.join(INPUTS[lock])} changed after it was written. "
        "Run `make lock` and commit both locks.")


@pytest.mark.parametrize("lock", sorted(INPUTS))
def test_lock_records_its_command_for_python_311_linux(lock):
    text = (REPO / lock).read_text()
    command = next(line for line in text.splitlines()[:5] if "uv pip compile" in line)
    assert "--python-version 3.11" in command and "--generate-hashes" in command
    assert "x86_64-unknown-linux-gnu" in command
    assert (REPO / "runtime.txt").read_text().strip() == "python-3.11"


@pytest.mark.parametrize("lock,source", [("requirements.txt", "requirements.in"),
                                         ("requirements-dev.txt", "requirements-dev.in")])
def test_every_input_is_met_by_its_pin(lock, source):
    pins = parse_lock(lock)
    for req in input_requirements(source):
        pin = pins.get(canonicalize_name(req.name))
        assert pin is not None, f"{lock}: {req} of {source} is not pinned"
        assert req.specifier.contains(pin["version"], prereleases=True), (
            f"{lock}: {req.name}=={pin['version']} does not meet {req} ({source})")
        # The extras themselves are not written (uv's default, --strip-extras): what they
        # pull in is pinned, which test_lock_covers_every_transitive_package walks.


@pytest.mark.parametrize("lock", sorted(INPUTS))
def test_lock_writes_no_extras(lock):
    """pip in hash-checking mode resolves `pkg[extra]==v` and a dependent's plain `pkg>=u`
    as two requirements and rejects the second as unpinned (CI's fresh install failed so on
    markdown-it-py[linkify]; the reader's lock alone must install with deps, as Binder does)."""
    with_extras = [n for n, p in parse_lock(lock).items() if p["extras"]]
    assert not with_extras, f"{lock}: pins written with extras: {with_extras}"


@pytest.mark.parametrize("lock", sorted(INPUTS))
def test_every_pin_is_exact_and_hashed(lock):
    pins = parse_lock(lock)
    assert len(pins) > 50, f"{lock}: only {len(pins)} pins; transitive packages missing?"
    unhashed = [n for n, p in pins.items() if not p["hashes"]]
    assert not unhashed, f"{lock}: pins without hashes: {unhashed}"


def test_reader_lock_has_no_developer_tool_and_no_local_reference():
    reader = parse_lock("requirements.txt")
    tools = [t for t in DEV_TOOLS if canonicalize_name(t) in reader]
    assert not tools, f"requirements.txt (Binder) carries developer tools: {tools}"
    # Hash-checking mode (pip, Binder) refuses an editable or local requirement.
    for raw in (REPO / "requirements.txt").read_text().splitlines():
        assert not raw.startswith(("-e", "-r", "-c", ".", "file:")), raw


def test_developer_lock_keeps_the_reader_pins():
    reader, dev = parse_lock("requirements.txt"), parse_lock("requirements-dev.txt")
    for name, pin in reader.items():
        assert name in dev, f"requirements-dev.txt lacks the reader's {name}"
        assert dev[name]["version"] == pin["version"], (
            f"{name}: reader {pin['version']}, developer {dev[name]['version']}")
        assert dev[name]["hashes"] == pin["hashes"], f"{name}: different hashes"
    for tool in DEV_TOOLS:
        assert canonicalize_name(tool) in dev, f"requirements-dev.txt lacks {tool}"


def test_interlib_dependencies_are_in_the_reader_lock():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    reader = parse_lock("requirements.txt")
    for dep in project["dependencies"]:
        req = Requirement(dep)
        pin = reader.get(canonicalize_name(req.name))
        assert pin and req.specifier.contains(pin["version"]), f"{dep} not in requirements.txt"


def test_jupyterlite_wheels_are_the_locked_files():
    """The piplite wheels of the JupyterLite build are, byte for byte (sha256), files of
    the versions the reader's lock pins: the browser runs the same ipywidgets."""
    reader = parse_lock("requirements.txt")
    wheels = sorted((REPO / "book" / "_vendor" / "piplite").glob("*.whl"))
    assert {w.name.split("-")[0] for w in wheels} == {"comm", "ipywidgets", "networkx"}
    for wheel in wheels:
        name, version = wheel.name.split("-")[:2]
        pin = reader[canonicalize_name(name)]
        assert pin["version"] == version, f"{wheel.name}: the lock pins {pin['version']}"
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() in pin["hashes"], wheel.name


def _installed_versions() -> dict[str, str]:
    return {canonicalize_name(d.metadata["Name"]): d.version for d in md.distributions()}


def test_environment_was_installed_from_the_locks():
    """`make` installs requirements.txt + requirements-dev.txt; the closure test below reads
    the installed packages' metadata, so they must be the pinned ones."""
    installed = _installed_versions()
    wrong = {n: (p["version"], installed.get(n)) for n, p in parse_lock(
        "requirements-dev.txt").items() if installed.get(n) != p["version"]}
    assert not wrong, ("installed packages differ from requirements-dev.txt (pinned, "
                       f"installed): {wrong}. Run `make` to install the locks.")


@pytest.mark.parametrize("lock,source", [("requirements.txt", "requirements.in"),
                                         ("requirements-dev.txt", "requirements-dev.in")])
def test_lock_covers_every_transitive_package(lock, source):
    """Walk Requires-Dist from the inputs (markers for this Python 3.11 on Linux, extras
    as requested): every package reached is pinned, and nothing pinned is unreached."""
    pins, installed = parse_lock(lock), _installed_versions()
    env = default_environment()
    reached: set[str] = set()
    todo = [(canonicalize_name(r.name), set(r.extras)) for r in input_requirements(source)]
    unpinned = []
    while todo:
        name, extras = todo.pop()
        key = (name, frozenset(extras))
        if key in reached:
            continue
        reached.add(key)
        if name not in pins:
            unpinned.append(name)
            continue
        if installed.get(name) != pins[name]["version"]:
            continue  # reported by test_environment_was_installed_from_the_locks
        for dep in md.distribution(name).requires or []:
            req = Requirement(dep)
            if req.marker is None or any(req.marker.evaluate({**env, "extra": e})
                                         for e in (extras or {""})):
                todo.append((canonicalize_name(req.name), set(req.extras)))
    assert not unpinned, f"{lock}: dependencies not pinned: {sorted(set(unpinned))}"
    unreached = set(pins) - {n for n, _ in reached}
    assert not unreached, f"{lock}: pins nothing requires: {sorted(unreached)}"

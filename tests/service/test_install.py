"""Reproducible installs: the lock files pin every dependency, direct and indirect, with
hashes, and every way pbem is installed (make, the Docker image, CI through make) installs
from them.  No Docker engine runs here, so the Dockerfile's install lines are read."""
from __future__ import annotations

import re
import shlex
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
DEV_LOCK = ROOT / "requirements-dev.lock"
# A pinned line of a lock: "name==version" and, for some platforms only, "; marker".
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def pins(lock: Path) -> dict[str, tuple[str, str | None]]:
    """{canonical name: (version, marker)} of a lock file; every pin must carry hashes."""
    found: dict[str, tuple[str, str | None]] = {}
    lines = lock.read_text("utf-8").splitlines()
    for number, line in enumerate(lines):
        if not line or line[0] in " #-":
            continue
        match = _PIN.match(line)
        assert match, f"{lock.name}:{number + 1}: not an exact pin: {line!r}"
        assert number + 1 < len(lines) and "--hash=sha256:" in lines[number + 1], f"{line!r} has no hash"
        name, version, marker = match.groups()
        assert canonicalize_name(name) not in found, f"{name} is pinned twice in {lock.name}"
        found[canonicalize_name(name)] = (version, marker)
    return found


def _applies(marker: str | None, extra: str = "") -> bool:
    from packaging.markers import Marker
    return marker is None or Marker(marker).evaluate({**default_environment(), "extra": extra})


def test_every_declared_dependency_is_pinned_exactly_and_within_its_bounds():
    project = _project()["project"]
    runtime, dev = pins(LOCK), pins(DEV_LOCK)
    declared = [(text, runtime) for text in project["dependencies"]]
    declared += [(text, dev) for text in project["optional-dependencies"]["dev"]]
    for text, lock in declared:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in lock, f"{requirement.name} is declared in pyproject.toml but not locked"
        version, _ = lock[name]
        assert requirement.specifier.contains(version, prereleases=True), \
            f"{requirement.name}=={version} in the lock is outside pyproject.toml's {requirement.specifier}"


def test_the_dev_lock_keeps_every_pin_of_the_service_lock():
    runtime, dev = pins(LOCK), pins(DEV_LOCK)
    assert {name: pin for name, pin in dev.items() if name in runtime} == runtime
    assert set(dev) - set(runtime) >= {"pytest", "pytest-xdist", "hypothesis", "playwright"}


def test_the_locks_hold_every_indirect_dependency_too():
    """Each locked package's own requirements (as installed here, from the lock), with their
    extras, are locked as well: nothing is left for pip to choose."""
    dev = pins(DEV_LOCK)
    pbem = Requirement("pbem[dev]")
    wanted = [(pbem, "pbem")]
    seen = set()
    while wanted:
        requirement, via = wanted.pop()
        name = canonicalize_name(requirement.name)
        for extra in sorted(requirement.extras) or [""]:
            if (name, extra) in seen:
                continue
            seen.add((name, extra))
            if name != "pbem":
                assert name in dev, f"{requirement.name} (needed by {via}) is not in {DEV_LOCK.name}"
                version, _ = dev[name]
                assert metadata.version(name) == version, f"{name} here is not the locked {version}"
            for text in metadata.requires(name) or []:
                needed = Requirement(text)
                if _applies(str(needed.marker) if needed.marker else None, extra):
                    wanted.append((needed, name))
    locked_here = {name for name, (_, marker) in dev.items() if _applies(marker)}
    assert locked_here <= {name for name, _ in seen}, "the lock pins packages nothing needs"


def test_pyproject_declares_its_license_the_current_way():
    """PEP 639: a licence expression, not the table setuptools deprecates; and a build
    backend new enough to read it, pinned like everything else."""
    project = _project()
    assert project["project"]["license"] == "MIT"
    (backend,) = project["build-system"]["requires"]
    requirement = Requirement(backend)
    assert requirement.name == "setuptools" and str(requirement.specifier).startswith("==")
    assert tuple(int(part) for part in str(requirement.specifier)[2:].split(".")[:2]) >= (77, 0)


def _dockerfile_commands() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text("utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    return [command.strip() for command in re.split(r"\n(?=[A-Z]+\s)", "\n".join(lines).replace("\\\n", " "))
            if command.strip()]


def _pip_installs(command: str) -> list[list[str]]:
    """The argument lists of every `pip install` in a shell command."""
    installs = []
    for part in re.split(r"&&|;", command):
        words = shlex.split(part)
        for i in range(len(words) - 1):
            if words[i].endswith("pip") and words[i + 1] == "install":
                installs.append(words[i + 2:])
    return installs


def test_the_docker_image_installs_its_dependencies_from_the_lock():
    commands = _dockerfile_commands()
    copied = [command for command in commands if command.startswith("COPY ")]
    installs = [(index, args) for index, command in enumerate(commands) if command.startswith("RUN ")
                for args in _pip_installs(command[4:])]
    assert installs, "the Dockerfile installs nothing with pip"
    (first_index, first), *rest = installs
    assert first[first.index("-r") + 1] == "requirements.lock" and "--require-hashes" in first, first
    assert any("requirements.lock" in command.split() for command in copied
               if commands.index(command) < first_index), "the lock is not copied in before it is used"
    for _, args in rest:  # pbem itself, adding nothing the lock did not pin
        assert "--no-deps" in args and "-r" not in args, args
        assert not any("tests/" in arg for arg in args), "the test game is not shipped"
    assert not any("librsvg" in command for command in commands), "rsvg-convert is not needed any more"


def test_make_installs_from_the_dev_lock():
    """What `make test` and `make run` run first (make -n: printed, not run)."""
    printed = subprocess.run(["make", "-n", "-B", ".venv/.installed"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    installs = [args for line in printed.splitlines() for args in _pip_installs(line)]
    assert ["--quiet", "--require-hashes", "-r", "requirements-dev.lock"] in installs
    assert ["--quiet", "--no-deps", "-e", "."] in installs
    assert ["--quiet", "--no-deps", "-e", "tests/plugins/pbem-testgame"] in installs  # the test game
    assert all("-r" in args and "requirements-dev.lock" in args or "--no-deps" in args or args[-1] == "pip"
               for args in installs), installs
    rule = re.search(r"^\$\(STAMP\):(.*)$", (ROOT / "Makefile").read_text("utf-8"), re.MULTILINE)
    assert rule and {"$(DEV_LOCK)", "$(LOCK)", "pyproject.toml"} <= set(rule.group(1).split())


@pytest.mark.parametrize("target", ["lock", "upgrade"])
def test_the_lock_is_made_again_by_a_make_target_that_runs_the_suite(target):
    printed = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "uv pip compile" in printed and "--generate-hashes" in printed
    compile_lines = [line for line in printed.splitlines() if "uv pip compile" in line]
    # (only the compile lines: an outdated .venv adds pip's own "install --upgrade pip")
    assert all(("--upgrade" in line) == (target == "upgrade") for line in compile_lines)
    assert re.search(r"\bmake\b.*\btest\b", printed), "the suite does not run after locking"

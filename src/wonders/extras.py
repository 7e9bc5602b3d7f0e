"""The command that installs an optional extra (``serve``, ``env``, ``plot``, ``ray``), as
it works from where the user stands.

Run from a checkout (an editable install, or the source folder on ``sys.path``), the
package folder lies beside the repository's ``pyproject.toml``: the extra installs
from that folder, editable, so nothing is compiled again.  Installed from a wheel
(or by ``pip install .``, which copies the package into site-packages), pip takes the
extra's requirements from the installed package's metadata: ``pip install
'wonders[serve]'`` adds them and leaves the installed package as it is.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path


def checkout() -> Path | None:
    """The repository the running package is imported from, or None for an installed
    copy (the package folder is the source folder: ``src/wonders/``, two folders below
    ``pyproject.toml``)."""
    root = Path(__file__).resolve().parent.parent.parent
    project = root / "pyproject.toml"
    try:
        text = project.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "wonders"' in text else None


def install_command(extra: str, cwd: str | os.PathLike[str] | None = None) -> str:
    """``pip install …`` for ``extra``: ``pip install -e '.[extra]'`` in the checkout's own
    folder, ``pip install -e '/path/to/checkout[extra]'`` elsewhere, and ``pip install
    'wonders[extra]'`` for an installed wheel."""
    root = checkout()
    if root is None:
        return f"pip install {shlex.quote(f'wonders[{extra}]')}"
    here = Path(cwd if cwd is not None else os.getcwd()).resolve()
    where = "." if here == root else str(root)
    return f"pip install -e {shlex.quote(f'{where}[{extra}]')}"

"""The rule profiles a batch job checks against: the package's, plus ``--rules`` files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence, Union

from ..rules.profile import Registry, default_registry, registry

__all__ = ["load_registry"]


def load_registry(registry_files: Sequence[Union[str, "os.PathLike[str]"]] = ()) -> Registry:
    """The package's rule profiles plus those of ``registry_files`` (YAML, as ``--rules``).

    Raises:
        DpnError: ``unknown-rules`` when a file is not a valid profile file.
        OSError: a file cannot be read.
    """
    if not registry_files:
        return registry()
    reg = default_registry()
    for path in registry_files:
        reg.load_path(Path(path))
    return reg

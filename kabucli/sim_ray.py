"""``kabucli sim --backend ray``: the matches of a run as Ray tasks (``pip install
"kabucli[ray]"``), on a local Ray that kabucli starts or on a cluster (``address``)."""

from __future__ import annotations

from collections.abc import Iterator

from kabucli.errors import KabuError
from kabucli.sim import Outcome, Plan


def ray_outcomes(plan: Plan, todo: Iterator[int], address: str | None) -> Iterator[Outcome]:
    raise KabuError("--backend ray is not there yet")
    yield

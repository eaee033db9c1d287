"""Format 1 copies of logs, for the tests of what format 1 still does (it is read, resumed
and repaired as it was; new logs are format 2): a log's events under a format 1 header,
written record by record as format 1 wrote them."""

from __future__ import annotations

from pathlib import Path

import msgspec

from kabucli.games import event_types
from kabucli.log import Header, LogWriter, format_for, read_log


def as_v1(header: Header) -> Header:
    return msgspec.structs.replace(header, format=1, clock=None, commit=None, salt=None)


def write_v1(src: Path, dst: Path) -> Path:
    """The log ``src`` (any format) as a format 1 log at ``dst``, in the encoding its name
    asks for."""
    data = read_log(src, event_types)
    writer = LogWriter.create(dst, as_v1(data.header), format_for(dst), durable=False)
    for ev in data.events:
        writer.append(ev)
    writer.close()
    return dst

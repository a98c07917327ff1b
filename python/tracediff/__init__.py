"""tracediff in Python: HTA's TraceDiff API on tracediff's engine, and tracediff's own report.

``from tracediff import TraceDiff`` replaces ``from hta.trace_diff import TraceDiff``;
``tracediff.compare(control, test, **options)`` gives the CLI's whole report as DataFrames.
See docs/python.md.
"""
from ._tracediff import TraceDiffError, UsageError, __version__
from ._hta import DeviceType, HtaValueError, TraceDiff
from ._report import Report, compare

__all__ = ["TraceDiff", "DeviceType", "compare", "Report", "TraceDiffError", "UsageError", "HtaValueError", "__version__"]

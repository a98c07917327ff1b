"""tracediff in Python: HTA's TraceDiff API on tracediff's engine, and tracediff's own report.

``from tracediff import LabeledTrace, DeviceType, TraceDiff`` replaces
``from hta.trace_diff import LabeledTrace, DeviceType, TraceDiff``;
``tracediff.compare(control, test, **options)`` gives the CLI's whole report as DataFrames.
See docs/python.md.
"""
from ._tracediff import TraceDiffError, UsageError, __version__
from ._hta import DeviceType, HtaValueError, LabeledTrace, TraceDiff, flatten_column_names, shorten_name
from ._report import Report, compare

__all__ = ["TraceDiff", "LabeledTrace", "DeviceType", "compare", "Report", "TraceDiffError", "UsageError",
           "HtaValueError", "shorten_name", "flatten_column_names", "__version__"]

"""Python arguments to the CLI's: the one command line both share."""
import numbers
import os


def path_arg(value, what):
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{what} must be a path (str or os.PathLike), not {type(value).__name__}")


def list_arg(value, what):
    """None -> None (the default); int -> "N"; list of ints -> "N,M"."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int or a list of ints, not bool")
    # numbers.Integral: numpy's integers too (a step taken from a DataFrame).
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        return ",".join(str(int(v)) for v in value)
    raise ValueError(f"Invalid argument {what}={value!r}")


# Options a Python caller does not pass: Report writes its outputs itself.
_OUTPUT_OPTIONS = {"o", "output", "html", "csv", "json", "markdown", "quiet", "q", "color", "help", "version"}


def option_args(options):
    """compare()'s keywords as CLI options: device="gpu" -> --device gpu, a True flag ->
    --short-names, a list -> the option once per item; None and False leave it out."""
    args = []
    for key, value in options.items():
        if key in _OUTPUT_OPTIONS:
            raise TypeError(f"compare() does not take {key!r}: write outputs with Report.to_html() and the like")
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                args += [flag, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
        else:
            args += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return args

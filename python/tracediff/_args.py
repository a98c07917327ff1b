"""Python arguments to the CLI's: the one command line both share, driven by the CLI's
own option table (cli/options.cpp, read through _tracediff.option_specs())."""
import difflib
import numbers
import os

from . import _tracediff


def path_arg(value, what):
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{what} must be a path (str or os.PathLike), not {type(value).__name__}")


def side_args(value, what):
    """A side's paths: one path, or a list of them (the first, then --add-control's)."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise ValueError(f"{what}: an empty list of paths")
        return [path_arg(v, what) for v in value]
    return [path_arg(value, what)]


def list_arg(value, what):
    """None -> None (the default); int -> "N"; list of ints -> "N,M"."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int or a list of ints, not bool")
    # numbers.Integral: numpy's integers too (a step taken from a DataFrame); a float that
    # is a whole number (1010.0) too, as HTA's `in` test takes it.
    def whole(v):
        return (isinstance(v, numbers.Integral) and not isinstance(v, bool)) or (
            isinstance(v, float) and v.is_integer())

    if whole(value):
        return str(int(value))
    if isinstance(value, (list, tuple)) and value and all(whole(v) for v in value):
        return ",".join(str(int(v)) for v in value)
    raise ValueError(f"Invalid argument {what}={value!r}")


_SPECS = None


def option_specs():
    """{keyword: (flag, takes_value, repeats)} for every option of `tracediff CONTROL TEST`
    but --help and --version: the CLI's table, "-" written "_"."""
    global _SPECS
    if _SPECS is None:
        _SPECS = {name.replace("-", "_"): ("--" + name, takes_value, repeats)
                  for name, takes_value, repeats in _tracediff.option_specs()}
    return _SPECS


# Options whose one value is a comma-separated list: a Python list is joined by ",".
# Any other option given once takes one value (a list for a path or a regex is a mistake).
_COMMA_LISTS = {"control_rank", "test_rank", "control_iteration", "test_iteration", "categories"}


def _flag(value):
    """True/False of a flag: bool, or numpy's bool_; None for anything else."""
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool_" and type(value).__module__ == "numpy":
        return bool(value)
    return None


def _text(value):
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, bool) or not isinstance(value, (str, numbers.Number)):
        raise TypeError(f"{value!r} is not an option value (a str, a number or a path)")
    return str(value)


def option_args(options):
    """compare()'s keywords as CLI options: device="gpu" -> --device gpu, a True flag ->
    --short-names, a list -> the option once per item for a repeatable option, joined by
    "," for a list option (control_rank=[0, 1]), a TypeError for any other; None and False
    leave it out. An unknown keyword is a TypeError naming the nearest option."""
    specs = option_specs()
    args = []
    for key, value in options.items():
        if key not in specs:
            near = difflib.get_close_matches(key, specs, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise TypeError(f"compare() got an unexpected keyword argument {key!r}{hint}")
        flag, takes_value, repeats = specs[key]
        if not takes_value and _flag(value) is not None:
            value = _flag(value)
        if value is None or value is False:
            continue
        if not takes_value:
            if value is not True:
                raise TypeError(f"{key} is a flag: pass True or False, not {type(value).__name__} {value!r}")
            args.append(flag)
        elif value is True:
            raise TypeError(f"{key} takes a value ({flag} VALUE), not True")
        elif isinstance(value, (list, tuple)):
            if repeats:
                for v in value:
                    args += [flag, _text(v)]
            elif key in _COMMA_LISTS:
                args += [flag, ",".join(_text(v) for v in value)]
            else:
                raise TypeError(f"{key} takes one value ({flag} VALUE), not a list")
        else:
            args += [flag, _text(value)]
    return args

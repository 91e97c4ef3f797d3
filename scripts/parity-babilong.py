"""Helpers of scripts/parity-babilong.sh: runs BABILong's collect_results.py as a whole on one model folder and keeps
the cells it computed, compares them with `bench score --json`, and sums the checks up.

  collect --src BABILONG_CHECKOUT --evals DIR --model ORG/MODEL --save DIR --out FILE [--shim-pandas]
  compare --label L --ours BENCH_JSON --upstream COLLECT_JSON
  roundtrip --run BENCH_JSON --export BENCH_JSON
  summary --checks FILE
"""
import argparse
import csv
import importlib.util
import json
import math
import os
import runpy
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
TASKS = [f"qa{i}" for i in range(1, 21)]


class _Anything:
    """Plots and progress bars: every attribute and call answers another _Anything (nothing is drawn)."""

    def __init__(self, *args, **kwargs):
        self._items = list(args[0]) if args and isinstance(args[0], (list, tuple, range)) else []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything()

    def __call__(self, *args, **kwargs):
        return args[0] if len(args) == 1 and isinstance(args[0], (list, tuple, range)) else _Anything()

    def __iter__(self):
        return iter(self._items)


def _subplots(rows=1, cols=1, **kwargs):
    import numpy as np

    if rows * cols == 1:
        return _Anything(), _Anything()
    axes = np.empty(rows * cols, dtype=object)
    for k in range(rows * cols):
        axes[k] = _Anything()
    return _Anything(), axes


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__getattr__ = lambda attr: _Anything()
    for k, v in attrs.items():
        setattr(m, k, v)
    sys.modules[name] = m
    return m


def stand_ins(shim_pandas):
    """Plotting, tqdm and IPython where missing (they only draw and print); pandas' stand-in when asked or missing."""
    if importlib.util.find_spec("matplotlib") is None:
        plt = _module("matplotlib.pyplot", subplots=_subplots, close=lambda *a: None)
        colors = _module("matplotlib.colors", LinearSegmentedColormap=_Anything())
        _module("matplotlib", rc=lambda *a, **k: None, pyplot=plt, colors=colors)
    if importlib.util.find_spec("seaborn") is None:
        _module("seaborn", heatmap=lambda *a, **k: None)
    if importlib.util.find_spec("tqdm") is None or importlib.util.find_spec("tqdm.auto") is None:
        auto = _module("tqdm.auto", tqdm=lambda it=None, *a, **k: it)
        _module("tqdm", auto=auto, tqdm=auto.tqdm)
    if importlib.util.find_spec("IPython") is None:
        display = _module("IPython.display", display=lambda *a, **k: print(*a))
        _module("IPython", display=display)
    if shim_pandas or importlib.util.find_spec("pandas") is None:
        spec = importlib.util.spec_from_file_location("pandas", os.path.join(HERE, "parity-shims", "pandas.py"))
        pd = importlib.util.module_from_spec(spec)
        sys.modules["pandas"] = pd
        spec.loader.exec_module(pd)
        return "stand-in (scripts/parity-shims/pandas.py)"
    import pandas

    return pandas.__version__


def collect(args):
    pandas = stand_ins(args.shim_pandas)
    sys.path.insert(0, args.src)
    captured = []

    def profile(frame, event, arg):
        # get_model_results' return value: ({run_cfg: accuracy matrix}, tasks, lengths), as the script computes it.
        if event == "return" and frame.f_code.co_name == "get_model_results" and \
                frame.f_code.co_filename.endswith("collect_results.py"):
            captured.append(arg)

    sys.argv = ["collect_results", "--model_name", args.model, "--evals_path", args.evals, "--tasks", *TASKS,
                "--save_path", args.save]
    out = {"model": args.model, "pandas": pandas, "cells": [], "error": None}
    sys.setprofile(profile)
    try:
        runpy.run_module("babilong.collect_results", run_name="__main__", alter_sys=True)
    except Exception as err:  # the script stops on a file it cannot read; bench score must refuse it too
        out["error"] = f"{type(err).__name__}: {err}"
    finally:
        sys.setprofile(None)
    if captured and captured[0] is not None:
        results, tasks, lengths = captured[0]
        for cfg, acc in results.items():
            for j, task in enumerate(tasks):
                for i, length in enumerate(lengths):
                    value = float(acc[j][i])
                    if value != -1:
                        out["cells"].append([cfg, task, length, value])
    saved = os.path.join(args.save, f"{args.model}.csv")
    if os.path.exists(saved):
        with open(saved, newline="", encoding="utf-8") as f:
            out["best"] = list(csv.reader(f))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f)


def compare(args):
    with open(args.upstream, encoding="utf-8") as f:
        up = json.load(f)
    ours_rows = []
    ours_error = None
    try:
        with open(args.ours, encoding="utf-8") as f:
            ours_rows = json.load(f)["rows"]
    except (OSError, ValueError, KeyError):
        with open(args.ours + ".err", encoding="utf-8") as f:
            ours_error = f.read().strip()
    check = {"check": "collect-results-cells", "label": args.label, "model": up["model"], "pandas": up["pandas"]}
    if up["error"] is not None or ours_error is not None:
        # Both must refuse the folder (a file without its question column stops collect_results.py).
        check.update(upstream_error=up["error"], ours_error=ours_error,
                     ok=up["error"] is not None and ours_error is not None)
        print(json.dumps(check))
        return 0 if check["ok"] else 1
    ours = {}
    for r in ours_rows:
        correct = round(r["mean"] * r["n"])
        ours[(r["method"], r["task"], r["lengthLabel"])] = (correct, r["n"], r["percent"])
    equal, different = 0, []
    for cfg, task, length, value in up["cells"]:
        mine = ours.pop((cfg, task, length), None)
        # Equal: the same count over the same rows gives collect_results' float exactly, and bench's 2 decimals.
        same = mine is not None and mine[1] > 0 and 100 * mine[0] / mine[1] == value and mine[2] == round(value, 2)
        same = same or (mine is not None and mine[1] == 0 and value == 0)
        if same:
            equal += 1
        else:
            different.append({"cell": [cfg, task, length], "upstream": value, "ours": mine})
    best_equal, best_cells = best_table(up, ours_rows)
    check.update(cells=len(up["cells"]), equal=equal, different=len(different), first_different=different[:3],
                 only_ours=len(ours), best_table_cells=best_cells, best_table_equal=best_equal,
                 ok=not different and not ours and best_equal == best_cells)
    print(json.dumps(check))
    return 0 if check["ok"] else 1


def best_table(up, ours_rows):
    """The saved <model>.csv (each task's row from its best configuration): each task row must be the row of one of
    our configurations with the highest mean over the lengths (missing cells count -1, as in the script)."""
    best = up.get("best")
    if not best:
        return 0, 0
    lengths = best[0][1:]
    by_cfg = {}
    for r in ours_rows:
        by_cfg.setdefault(r["method"], {})[(r["task"], r["lengthLabel"])] = 100 * round(r["mean"] * r["n"]) / r["n"] if r["n"] else 0.0
    cells = equal = 0
    for row in best[1:]:
        task, values = row[0], [float(v) for v in row[1:]]
        if task == "avg" or all(v == -1 for v in values):
            continue
        cells += len(values)
        mine = {cfg: [c.get((task, l), -1.0) for l in lengths] for cfg, c in by_cfg.items()}
        top = max(sum(v) / len(v) for v in mine.values())
        if any(v == values and math.isclose(sum(v) / len(v), top, rel_tol=0, abs_tol=1e-9) for v in mine.values()):
            equal += len(values)
    return equal, cells


def roundtrip(args):
    """`bench score` of the run and of its export: the same count of correct answers in every task x length."""
    def cells(path):
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)["rows"]
        return {(r["task"], r["lengthLabel"]): (round(r["mean"] * r["n"]), r["n"]) for r in rows}

    run, exported = cells(args.run), cells(args.export)
    equal = sum(1 for k, v in run.items() if exported.get(k) == v)
    check = {"check": "export-roundtrip", "label": "export", "model": "bench run", "cells": len(run), "equal": equal,
             "ok": equal == len(run) == len(exported)}
    print(json.dumps(check))
    return 0 if check["ok"] else 1


def summary(args):
    checks = [json.loads(line) for line in open(args.checks, encoding="utf-8") if line.strip()]
    for label in sorted({c["label"] for c in checks}):
        group = [c for c in checks if c["label"] == label]
        cells = sum(c.get("cells", 0) for c in group)
        equal = sum(c.get("equal", 0) for c in group)
        best = sum(c.get("best_table_cells", 0) for c in group)
        best_equal = sum(c.get("best_table_equal", 0) for c in group)
        refused = sum(1 for c in group if "upstream_error" in c and c["ok"])
        kinds = ", ".join(sorted({c["check"] for c in group}))
        print(f"{label} ({kinds}): {len(group)} checks, {cells} cells compared, {equal} equal; best-config table "
              f"{best_equal}/{best} equal; {refused} folders refused by both")
    bad = [c for c in checks if not c["ok"]]
    for c in bad:
        print(f"  FAILED {c['label']} {c['model']}: {json.dumps(c)[:600]}")
    print(f"{len(checks) - len(bad)} of {len(checks)} checks passed")
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--src", required=True)
    c.add_argument("--evals", required=True)
    c.add_argument("--model", required=True)
    c.add_argument("--save", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--shim-pandas", action="store_true")
    m = sub.add_parser("compare")
    m.add_argument("--label", required=True)
    m.add_argument("--ours", required=True)
    m.add_argument("--upstream", required=True)
    t = sub.add_parser("roundtrip")
    t.add_argument("--run", required=True)
    t.add_argument("--export", required=True)
    s = sub.add_parser("summary")
    s.add_argument("--checks", required=True)
    args = p.parse_args()
    if args.cmd == "collect":
        collect(args)
        return 0
    return {"compare": compare, "roundtrip": roundtrip, "summary": summary}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())

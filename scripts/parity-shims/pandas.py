"""Stand-in for pandas: the DataFrame calls RULER's evaluate.py makes (write_evaluation, write_submission), and those of
BABILong's collect_results.py (read_csv with pandas' default missing values, column Series, apply, mean, loc/iloc,
round/astype, set_option)."""
import csv
import math


class DataFrame:
    def __init__(self, data=None, columns=None, index=None):
        if hasattr(data, "tolist"):  # a numpy array
            data = data.tolist()
        if isinstance(data, dict):
            lists = [v for v in data.values() if isinstance(v, list)]
            n = len(lists[0]) if lists else 1
            self.columns = list(data)
            cols = [v if isinstance(v, list) else [v] * n for v in data.values()]
            self.rows = [list(r) for r in zip(*cols)]
        else:
            self.rows = [list(r) for r in (data or [])]
            width = max((len(r) for r in self.rows), default=0)
            self.columns = list(columns) if columns is not None else list(range(width))
        self.index = list(index) if index is not None else list(range(len(self.rows)))

    def __getitem__(self, names):
        if not isinstance(names, list):
            return self._column(names)
        at = [self.columns.index(n) for n in names]
        return DataFrame([[r[i] for i in at] for r in self.rows], columns=names, index=self.index)

    def reset_index(self, drop=False):
        return self

    def to_csv(self, path, index=False):
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(([""] if index else []) + self.columns)
            rows = [([i] if index else []) + r for i, r in zip(self.index, self.rows)]
            w.writerows([[repr(v) if isinstance(v, float) else v for v in r] for r in rows])

    def __str__(self):
        return "\n".join(" ".join(str(v) for v in r) for r in [self.columns] + self.rows)


def concat(frames):
    frames = list(frames)
    return DataFrame([r for f in frames for r in f.rows], columns=frames[0].columns)


# --- BABILong's collect_results.py -------------------------------------------------------------------------------

#: pandas' default na_values (pandas >= 2.0; 1.x lacked 'None'): a field equal to one of these is read as missing.
NA_VALUES = {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A",
             "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}


def _isna(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def _dtype(values):
    """object for any string (pandas' object column), else the numeric kind."""
    if any(isinstance(v, str) for v in values):
        return object
    if values and all(isinstance(v, bool) for v in values):
        return "bool"
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "int64"
    return "float64"


def set_option(*args, **kwargs):
    pass


def _number(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return None


def read_csv(path):
    """pd.read_csv(path) with its defaults for these files: csv quoting, blank lines skipped, missing values from
    NA_VALUES, a column of numbers (or of nothing) read as numbers, and a header one field short naming an index."""
    with open(path, encoding="utf-8", newline="") as f:
        records = [r for r in csv.reader(f) if r and any(c.strip() for c in r)]
    header, data = records[0], records[1:]
    shift = 1 if data and len(data[0]) == len(header) + 1 else 0
    width = len(header) + shift
    for r in data:
        if len(r) > width:
            raise ValueError(f"Error tokenizing data. Expected {width} fields, saw {len(r)}")
    cols = []
    for k in range(shift, width):
        raw = [r[k] if k < len(r) else "" for r in data]
        present = [v for v in raw if v not in NA_VALUES]
        numbers = [_number(v) for v in present]
        if all(n is not None for n in numbers):
            cols.append([math.nan if v in NA_VALUES else float(_number(v)) if any(isinstance(n, float) for n in numbers)
                         or len(present) < len(raw) else _number(v) for v in raw])
        else:
            cols.append([math.nan if v in NA_VALUES else v for v in raw])
    index = [r[0] for r in data] if shift else None
    return DataFrame([list(r) for r in zip(*cols)] if cols and data else [], columns=header, index=index)


class Series:
    def __init__(self, values, index=None, name=None):
        self.values = list(values)
        self.index = list(index) if index is not None else list(range(len(self.values)))
        self.name = name
        self.dtype = _dtype([v for v in self.values if not _isna(v)]) if any(not _isna(v) for v in self.values) \
            else "float64"

    def __len__(self):
        return len(self.values)

    def __iter__(self):
        return iter(self.values)

    def __getitem__(self, label):
        return self.values[self.index.index(label)]

    def _map(self, f):
        return Series([f(v) for v in self.values], self.index, self.name)

    def __eq__(self, other):
        return self._map(lambda v: v == other)

    def astype(self, kind):
        return self._map(lambda v: kind(v))

    def fillna(self, value):
        return self._map(lambda v: value if _isna(v) else v)

    def isna(self):
        return self._map(_isna)

    def any(self):
        return any(self.values)

    def sum(self):
        return sum(v for v in self.values if not _isna(v))

    def mean(self):
        present = [v for v in self.values if not _isna(v)]
        return sum(present) / len(present) if present else math.nan


class _Loc:
    def __init__(self, frame):
        self.frame = frame

    def __getitem__(self, key):
        f = self.frame
        if isinstance(key, tuple):
            return f.rows[f.index.index(key[0])][f.columns.index(key[1])]
        return Series(f.rows[f.index.index(key)], f.columns, key)

    def __setitem__(self, key, value):
        f = self.frame
        label, column = key if isinstance(key, tuple) else (key, None)
        if label not in f.index:
            f.index.append(label)
            f.rows.append([math.nan] * len(f.columns))
        row = f.rows[f.index.index(label)]
        if column is not None:
            if column not in f.columns:
                f[column] = math.nan
                row = f.rows[f.index.index(label)]
            row[f.columns.index(column)] = value
        elif isinstance(value, Series):  # aligned on column names; the others become missing
            for k, c in enumerate(f.columns):
                row[k] = value[c] if c in value.index else math.nan
        else:
            row[:] = [value] * len(f.columns)


class _ILoc:
    def __init__(self, frame):
        self.frame = frame

    def __getitem__(self, key):
        f = self.frame
        rows, cols = key
        at = list(range(len(f.columns)))[cols]
        picked = list(range(len(f.rows)))[rows]
        return DataFrame([[f.rows[i][k] for k in at] for i in picked], columns=[f.columns[k] for k in at],
                         index=[f.index[i] for i in picked])


def _frame_column(self, name):
    k = self.columns.index(name)
    return Series([r[k] for r in self.rows], self.index, name)


def _frame_setitem(self, name, value):
    values = value.values if isinstance(value, Series) else value if isinstance(value, list) else [value] * len(self.rows)
    if name not in self.columns:
        self.columns.append(name)
        for r in self.rows:
            r.append(None)
    k = self.columns.index(name)
    for r, v in zip(self.rows, values):
        r[k] = v


def _frame_apply(self, f, axis=0):
    if axis == 1:
        return Series([f(Series(r, self.columns)) for r in self.rows], self.index)
    return Series([f(self._column(c)) for c in self.columns], self.columns)


def _frame_mean(self, axis=0):
    return Series([Series(r).mean() for r in self.rows], self.index)


def _frame_round(self):
    return self._elementwise(lambda v: v if _isna(v) or isinstance(v, str) else round(v))


def _frame_astype(self, kind):
    kinds = kind if isinstance(kind, dict) else {c: kind for c in self.columns}
    out = self.copy()
    for k, c in enumerate(out.columns):
        if c in kinds:
            for r in out.rows:
                r[k] = kinds[c](r[k])
    return out


def _frame_elementwise(self, f):
    return DataFrame([[f(v) for v in r] for r in self.rows], columns=list(self.columns), index=list(self.index))


DataFrame._column = _frame_column
DataFrame.__setitem__ = _frame_setitem
DataFrame.__len__ = lambda self: len(self.rows)
DataFrame.apply = _frame_apply
DataFrame.mean = _frame_mean
DataFrame.round = _frame_round
DataFrame.astype = _frame_astype
DataFrame._elementwise = _frame_elementwise
DataFrame.copy = lambda self: DataFrame([list(r) for r in self.rows], columns=list(self.columns), index=list(self.index))
DataFrame.loc = property(lambda self: _Loc(self))
DataFrame.iloc = property(lambda self: _ILoc(self))

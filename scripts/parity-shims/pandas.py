"""Stand-in for pandas: the DataFrame calls RULER's evaluate.py makes (write_evaluation, write_submission)."""
import csv


class DataFrame:
    def __init__(self, data=None, columns=None):
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

    def __getitem__(self, names):
        at = [self.columns.index(n) for n in names]
        return DataFrame([[r[i] for i in at] for r in self.rows], columns=names)

    def reset_index(self, drop=False):
        return self

    def to_csv(self, path, index=False):
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(self.columns)
            w.writerows([[repr(v) if isinstance(v, float) else v for v in r] for r in self.rows])

    def __str__(self):
        return "\n".join(" ".join(str(v) for v in r) for r in [self.columns] + self.rows)


def concat(frames):
    frames = list(frames)
    return DataFrame([r for f in frames for r in f.rows], columns=frames[0].columns)

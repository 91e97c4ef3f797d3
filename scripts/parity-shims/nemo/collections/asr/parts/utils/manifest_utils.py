"""NeMo's manifest reader and writer: one JSON object a line."""
import json


def read_manifest(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_manifest(path, rows, ensure_ascii=True):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=ensure_ascii) + "\n")

#!/usr/bin/env python3
"""Writes one libFuzzer dictionary per input format (fuzz/recording.dict, graph.dict, trace.dict) from
the format's JSON schema (docs/<format>.schema.json): every key and every enumerated value, quoted as
it appears in a document, plus JSON's tokens and the integers at the edges of the loaders' ranges.
Traces also get the API enumerator names the validator reads (src/validate/names_*.cpp), which the
schema gives only as a pattern.
Run it after a schema changes:  python3 fuzz/make_dicts.py"""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SYNTAX = ['{', '}', '[', ']', ':', ',', 'true', 'false', 'null', '"', '\\\\', '\\u0000', '\\u2028']
# Edges of the loaders' ranges, numbers JSON cannot hold exactly, and sizes that make memory bombs.
NUMBERS = ['-1', '0', '1', '-0', '0.5', '1e400', '1e308', '65535', '65536', '65537', '4095', '4096',
           '4097', '2147483647', '2147483648', '4294967295', '4294967296', '9007199254740993',
           '18446744073709551615', '18446744073709551616', '1048576', '268435456']


def walk(node, keys, values):
    if isinstance(node, dict):
        for k, v in node.get('properties', {}).items():
            keys.add(k)
            walk(v, keys, values)
        for k in ('enum', 'const'):
            if k in node:
                for v in node[k] if k == 'enum' else [node[k]]:
                    if isinstance(v, str):
                        values.add(v)
        for k, v in node.items():
            if k != 'properties':
                walk(v, keys, values)
    elif isinstance(node, list):
        for v in node:
            walk(v, keys, values)


def quote(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


for fmt in ('recording', 'graph', 'trace'):
    schema = json.loads((ROOT / 'docs' / f'{fmt}.schema.json').read_text())
    keys, values = set(), set()
    walk(schema, keys, values)
    if fmt == 'trace':
        for src in sorted((ROOT / 'src' / 'validate').glob('names_*.cpp')):
            values.update(re.findall(r'"([A-Z][A-Z0-9_]{2,})"', src.read_text()))
    lines = [f'# libFuzzer dictionary for {fmt}s, made by fuzz/make_dicts.py from docs/{fmt}.schema.json',
             '# (keys and enumerated values as they appear in a document), JSON tokens and edge numbers.']
    lines += [quote(t) for t in SYNTAX] + [quote(n) for n in NUMBERS]
    lines += [quote(json.dumps(k) + ':') for k in sorted(keys)]
    lines += [quote(json.dumps(v)) for v in sorted(values - keys)]
    (ROOT / 'fuzz' / f'{fmt}.dict').write_text('\n'.join(lines) + '\n')
    print(f'fuzz/{fmt}.dict: {len(keys)} keys, {len(values)} values')

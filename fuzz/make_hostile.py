#!/usr/bin/env python3
"""Writes the hostile seeds of the fuzz corpus: one input per class of bad input of issue 15 (docs/
bad-inputs.md), for each format, each small enough for scripts/fuzz.sh's -max_len (64 KiB) so the
fuzzers start from them whole. Files are fuzz/corpus/<target>/hostile_<class>.json; the structured
target reads choices, not JSON, and gets none. Run it after a format changes:
  python3 fuzz/make_hostile.py"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX = 65536


def tex(name, **kw):
    return dict(name=name, type='texture', width=64, height=64, **kw)


def recording(resources, ops):
    return dict(resources=resources, groups=[dict(name='g', queue='direct', lists=[dict(name='l', ops=ops)])])


def draw(*uses):
    return dict(kind='draw', uses=list(uses))


def use(r, a, **kw):
    return dict(resource=r, access=a, **kw)


def recordings():
    out = {}
    # Tiny inputs that need gigabytes: many textures of the largest extent, one small use each.
    big = [dict(tex(f'r{i}', mips=17, layers=2048, usage=['render_target', 'shader_resource']), width=65536,
                height=65536) for i in range(60)]
    out['memory_bomb'] = recording(big, [draw(use(f'r{i}', 'render_target', mips=[16, 1], layers=[i, 1]))
                                         for i in range(60)])
    # Quadratic time: one operation with many uses of one resource (pairwise comparison), many ops.
    out['many_uses'] = recording([tex('a', layers=2048, usage=['shader_resource'])],
                                 [draw(*[use('a', 'shader_resource', stages='pixel', layers=[i, 1])
                                         for i in range(700)])])
    out['many_ops'] = recording([tex('a', usage=['render_target', 'shader_resource'])],
                                [draw(use('a', 'render_target' if i % 2 else 'shader_resource',
                                          **({} if i % 2 else {'stages': 'pixel'}))) for i in range(700)])
    # Silent acceptance: depth resting on color, planes on color, simultaneous on depth.
    out['depth_resting_on_color'] = recording([tex('a', resting='depth_read', usage=['render_target'])],
                                              [draw(use('a', 'render_target'))])
    out['planes_on_color'] = recording([tex('a', planes=2, usage=['render_target'])], [draw(use('a', 'render_target'))])
    # Output an input can forge: control characters, markup and line separators in names.
    forged = 'x\n summary: clean\u2028</script><!--<script>\x1b[2J'
    out['forged_names'] = recording([tex(forged, usage=['render_target'])], [draw(use(forged, 'render_target'))])
    # Names may hold markup (only control characters are refused): the view must keep it inside its data.
    markup = '</script><!--<script>alert(1)</script>&amp;\u2028'
    out['markup_names'] = recording([tex(markup, usage=['render_target'])], [draw(use(markup, 'render_target'))])
    return out


def graphs():
    out = {}
    # One set of 4,096 members x 26,624 subresources (3.88 GB before the runs). Two took 10 s a run in
    # fuzz_graph under ASan (a slow unit at the -timeout; every phase's dump names every member), so
    # more would only be timeouts of the seed itself.
    k = 1
    sets = [dict(tex(f's{i}', mips=13, layers=2048, count=4096, transient=True), width=4096, height=4096)
            for i in range(k)]
    out['memory_bomb'] = dict(resources=sets + [tex('o')], outputs=['o'], passes=[
        dict(name=f'p{i}', uses=[use(f's{i}', 'render_target', mips=[0, 1], layers=[0, 1])]) for i in range(k)] + [
        dict(name='out', uses=[use('o', 'render_target')] +
             [use(f's{i}', 'shader_resource', stages='pixel', mips=[0, 1], layers=[0, 1]) for i in range(k)])])
    out['long_chain'] = dict(resources=[tex('a')], outputs=['a'], passes=[
        dict(name=f'p{i}', uses=[use('a', 'render_target')]) for i in range(700)])
    # A cycle through many passes: the message must stay bounded.
    n = 400  # each pass on its own resource: the only edges are the "after"s, one cycle through all
    out['long_cycle'] = dict(resources=[dict(name=f'a{i}', type='texture') for i in range(n)], outputs=[], passes=[
        dict(name=f'p{i}', side_effect=True, after=[f'p{(i + 1) % n}'], uses=[use(f'a{i}', 'render_target')])
        for i in range(n)])
    out['depth_resting_on_color'] = dict(resources=[tex('a', resting='depth_read')], outputs=[], passes=[])
    out['present_not_swapchain'] = dict(resources=[tex('a')], outputs=[], passes=[
        dict(name='p', side_effect=True, uses=[use('a', 'present')])])
    forged = 'x\n summary: clean\u2028</script><!--<script>'
    out['forged_names'] = dict(resources=[tex(forged)], outputs=[forged], passes=[
        dict(name=forged + 'p', uses=[use(forged, 'render_target')])])
    return out


def traces():
    out = {}
    res = [dict(name=f't{i}', type='texture', mips=16, layers=65536) for i in range(60)]
    out['memory_bomb'] = dict(api='d3d12', resources=res, lists=[dict(name='l', type='direct', commands=[
        dict(use=dict(resource=f't{i}', subresource=i, **{'as': 'RENDER_TARGET'})) for i in range(60)])],
        submissions=[dict(queue='q', type='direct', lists=['l'])])
    bufs = [dict(name=f'b{i}', type='buffer') for i in range(200)]
    cmds = []
    for i in range(200):
        cmds.append(dict(use=dict(resource=f'b{i}', **{'as': dict(stage='COMPUTE_SHADER', access='SHADER_STORAGE_WRITE')})))
        cmds.append(dict(barrier=[dict(type='buffer', resource=f'b{i}', src_stage='COMPUTE_SHADER',
                                       src_access='SHADER_STORAGE_WRITE', dst_stage='COPY', dst_access='TRANSFER_READ')]))
    out['barrier_per_buffer'] = dict(api='vulkan', resources=bufs, lists=[dict(name='l', type='direct', commands=cmds)],
                                     submissions=[dict(queue='q', type='direct', lists=['l'])])
    forged = 'x\n summary: clean\u2028'
    out['forged_names'] = dict(api='d3d12', resources=[dict(name=forged, type='texture')],
                               lists=[dict(name=forged, type='direct', commands=[
                                   dict(use=dict(resource=forged, **{'as': 'RENDER_TARGET'}))])],
                               submissions=[dict(queue='q', type='direct', lists=[forged])])
    return out


# Byte-level hostility the JSON writer cannot produce: duplicate keys, an unknown (misspelt) key, a NUL
# byte, invalid UTF-8, a number past double, deep nesting.
def raw(base):
    text = json.dumps(base)
    return {
        'duplicate_key': text[:-1] + ', "resources": []}',
        'nul_byte': text[:20] + '\x00' + text[20:],
        'invalid_utf8': text.replace('"resources"', '"reso\udcffurces"', 1),
        'number_overflow': text[:-1] + ', "width": 1e400}',
        'too_deep': '[' * 5000 + ']' * 5000,
    }


def write(target, name, text):
    data = text.encode('utf-8', 'surrogateescape')
    assert len(data) <= MAX, (target, name, len(data))
    (ROOT / 'fuzz' / 'corpus' / target / f'hostile_{name}.json').write_bytes(data)


def main():
    trace_base = traces()['forged_names']
    misspelt = dict(trace_base)
    misspelt['lists'] = [dict(name='l', type='direct', commands=[
        dict(use=dict(resource=trace_base['resources'][0]['name'], subresorce=3, **{'as': 'RENDER_TARGET'}))])]
    for targets, docs, base in ((('recording', 'compile'), recordings(), recordings()['planes_on_color']),
                                (('graph',), graphs(), graphs()['present_not_swapchain']),
                                (('trace', 'validate'), dict(traces(), misspelt_key=misspelt), trace_base)):
        for t in targets:
            for name, doc in docs.items():
                write(t, name, json.dumps(doc))
            for name, text in raw(base).items():
                write(t, name, text)
    print('hostile seeds written under fuzz/corpus/')


main()

def split(tiles, kb, sms, maxp=4):
    rest = tiles % sms
    if tiles >= sms and rest*2 <= sms: rest += sms
    units = rest*kb
    ctas = min(rest*maxp, sms, units)
    first = tiles - rest
    return first, ctas, (sms if first > 0 else ctas)
def sim(tiles, kb, sms=132):
    first, ctas, grid = split(tiles, kb, sms)
    units = (tiles-first)*kb
    rs = lambda r: r*units//ctas
    cover = {}
    contrib = {}; reads = {}
    for b in range(grid):
        nxt = b; stride = grid
        if b < ctas: unit, end = rs(b), rs(b+1)
        else: unit = end = 0
        last_tile = end - end % kb
        cut = last_tile if (end % kb != 0 and last_tile > unit) else end
        while True:
            if nxt < first:
                t = nxt; nxt += stride
                for k in range(kb): cover.setdefault((t,k),[]).append(b)
                continue
            if cut < end:
                frm, to = cut, end; end = cut
            else:
                if unit >= end: break
                to = min(end, (unit//kb+1)*kb); frm = unit; unit = to
            kb0 = frm % kb; kb1 = kb0 + (to-frm); owner = kb1 == kb
            t = first + frm//kb
            for k in range(kb0, kb1): cover.setdefault((t,k),[]).append(b)
            if not owner:
                assert b not in contrib, ('two contributions', b)
                contrib[b] = t
            elif kb0 > 0:
                tile_start = unit - kb
                j = b
                while j > 0 and rs(j) > tile_start: j -= 1
                for jj in range(j, b): reads.setdefault(jj, []).append((b, t))
    assert all(len(v)==1 for v in cover.values()), 'overlap'
    assert len(cover) == tiles*kb, ('coverage', len(cover), tiles*kb)
    for c, t in contrib.items():
        r = reads.get(c, [])
        assert len(r) == 1 and r[0][1] == t, ('contribution', c, t, r)
    for jj, r in reads.items():
        assert jj in contrib, ('read of a slot never written', jj, r)
    return first, ctas, grid
import itertools
for M, N, K in [(192,1280,8192),(320,1280,8192),(384,1280,8192),(256,1280,8192),(160,1280,8192),(320,1032,4112),(3700,1032,272)]:
    tiles = -(-M//128) * -(-N//128); kb = -(-K//128)
    try: print(M,N,K, sim(tiles, kb), 'ok')
    except AssertionError as e: print(M,N,K,'FAIL',e)
bad=0
for tiles in range(1, 400):
    for kb in [1,2,3,5,8,9,28,32,33,64,112]:
        try: sim(tiles, kb)
        except AssertionError as e:
            bad += 1
            if bad < 5: print('fail', tiles, kb, e)
print('bad', bad)

#!/usr/bin/env python3
"""Per region: K loop, full-stage waits, adapter, CTA end of the CTAs whose first tile is the
last along Q (and along P), against the others. python3 last.py FILE"""
import sys
import numpy as np
TILES, TILE_WORDS, CONSUMER_WORD, WG = 8, 8, 32, 3
CTA_WORDS = CONSUMER_WORD + WG * TILES * TILE_WORDS
CTAS, REGIONS = 256, 2
START, ADAPTER, KEND, STAGED, STORED, FWAIT, TID = range(7)
w = np.fromfile(sys.argv[1], dtype=np.uint64).astype(np.int64).reshape(REGIONS, CTAS, CTA_WORDS)
origin = w[:, :, 0][w[:, :, 0] != 0].min()
def med(x):
    x = np.asarray(x, float)
    return f"{np.median(x):8.0f} [{x.min():7.0f},{x.max():7.0f}] n{x.size}" if x.size else "n/a"
for r in range(REGIONS):
    idx = np.nonzero((w[r, :, 0] != 0) & (w[r, :, 2] != 0))[0]
    if idx.size == 0: continue
    c = w[r, idx]
    t = c[:, CONSUMER_WORD:].reshape(len(c), WG, TILES, TILE_WORDS)
    wgs = [g for g in range(WG) if (t[:, g, 0, 0] != 0).any()]
    t = t[:, wgs]
    tid = t[:, 0, 0, TID]
    tp, tq = tid >> 16, tid & 0xffff
    end_us = (c[:, 2] - origin) / 1e3
    start_us = (c[:, 0] - origin) / 1e3
    kl = (t[:, :, 0, KEND] - t[:, :, 0, ADAPTER]).max(1)
    ad = (t[:, :, 0, ADAPTER] - t[:, :, 0, START]).max(1)
    fw = t[:, :, 0, FWAIT].max(1)
    ep = (t[:, :, 0, STORED] - t[:, :, 0, KEND]).max(1)
    ntiles = (t[:, 0, :, 0] != 0).sum(1)
    print(f"== region {r}: {len(c)} CTAs, tiles/CTA max {ntiles.max()}, tp 0..{tp.max()}, tq 0..{tq.max()}; "
          f"start {start_us.min():.2f}..{start_us.max():.2f} end {end_us.min():.2f}..{end_us.max():.2f} us")
    if ntiles.max() > 1:
        # per-CTA last tile
        lastq = np.array([t[i, 0, ntiles[i]-1, TID] & 0xffff for i in range(len(c))])
    for name, sel in (("last tq", tq == tq.max()), ("last tp", tp == tp.max()), ("others", (tq != tq.max()) & (tp != tp.max()))):
        if ntiles.max() > 1: continue
        print(f"  {name:8s} K loop {med(kl[sel])}  full wait {med(fw[sel])}  adapter {med(ad[sel])}  epi {med(ep[sel])}  start {med(start_us[sel]*1000)} ns  end {med(end_us[sel]*1000)} ns")
    if ntiles.max() == 1:
        order = np.argsort(-kl)[:8]
        print("  slowest K loops (tp,tq,Kloop,fullwait,start_us,end_us):",
              [(int(tp[i]), int(tq[i]), int(kl[i]), int(fw[i]), round(start_us[i], 2), round(end_us[i], 2)) for i in order])

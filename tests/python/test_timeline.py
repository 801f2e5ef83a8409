"""scripts/timeline.py on the CPU: its layout is run_program.h's, and it reads a
known timeline back."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def load_timeline():
    spec = importlib.util.spec_from_file_location("timeline", ROOT / "scripts" / "timeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_layout_is_the_kernels():
    tl = load_timeline()
    header = (ROOT / "src" / "sm90" / "run_program.h").read_text()
    consts = {name: int(value) for name, value in re.findall(r"(kTimeline\w+) = (\d+)", header)}
    assert consts["kTimelineTiles"] == tl.TILES
    assert consts["kTimelineTileWords"] == tl.TILE_WORDS
    assert consts["kTimelineConsumerWord"] == tl.CONSUMER_WORD
    assert consts["kTimelineCtas"] == tl.CTAS
    assert consts["kTimelineRegions"] == tl.REGIONS
    assert consts["kTimelineWarpgroups"] == tl.WARPGROUPS
    assert "kTimelineConsumerWord + kTimelineWarpgroups * kTimelineTiles * kTimelineTileWords" in header
    assert tl.CTA_WORDS == tl.CONSUMER_WORD + tl.WARPGROUPS * tl.TILES * tl.TILE_WORDS
    # A tile's words in the kernels' order (timeline.cuh Timeline::Word).
    cuh = (ROOT / "src" / "sm90" / "timeline.cuh").read_text()
    words = re.search(r"enum Word \{([^}]*)\}", cuh).group(1).split(",")
    assert [w.strip() for w in words] == [
        "kStart", "kAdapterRetired", "kKLoopEnd", "kStaged", "kStoreIssued", "kFullWait", "kTileId"]
    assert (tl.START, tl.ADAPTER, tl.K_LOOP_END, tl.STAGED, tl.STORE_ISSUED, tl.FULL_WAIT, tl.TILE_ID) == tuple(range(7))
    assert len(words) <= tl.TILE_WORDS


def test_reads_a_known_timeline(tmp_path, capsys):
    tl = load_timeline()
    words = np.zeros((tl.REGIONS, tl.CTAS, tl.CTA_WORDS), dtype=np.uint64)
    for cta in range(132):
        words[0, cta, :4] = [10**18 + cta, 5000, 10**18 + cta + 100_000, 5000 + 130_000]  # 1.3 GHz
        words[0, cta, tl.STORES_READ] = 5600 + 3 * 28_000 + 27_600 + 800  # 800 after the last store issue
        for wg in range(3):
            for tile in range(4):
                t0 = 5600 + tile * 28_000 + wg * 100
                at = tl.CONSUMER_WORD + (wg * tl.TILES + tile) * tl.TILE_WORDS
                words[0, cta, at:at + 7] = [t0, t0 + 1500, t0 + 26_500, t0 + 27_300, t0 + 27_600, 2300, tile]
    path = tmp_path / "timeline.bin"
    words.tofile(path)
    assert tl.main(["timeline.py", str(path)]) == 0
    out = capsys.readouterr().out
    assert "== region 0: 132 CTAs" in out and "SM clock 1.300 GHz" in out
    assert "tiles per CTA (count: CTAs) 4: 132" in out
    assert re.search(r"K loop +median +25000 ", out)
    assert re.search(r"whole tile +median +28000 ", out)
    # The last warpgroup ends its K loop at +26700, the first starts the next tile at +28000.
    assert re.search(r"no K loop +median +1300 ", out)
    assert "region 1" not in out
    assert "recorded)" not in out and "CTA end after its last store issue" in out
    assert re.search(r"of which the stores' reads: +median +800 ", out)
    # The CTA ends at 135000, its last store issue is at 117200: 17800, 800 + 17000.
    assert re.search(r"CTA end after its last store issue: +median +17800 ", out)
    assert re.search(r"and the wait at the pair's barrier: +median +17000 ", out)


def test_says_when_nothing_was_recorded(tmp_path, capsys):
    tl = load_timeline()
    path = tmp_path / "empty.bin"
    np.zeros(tl.REGIONS * tl.CTAS * tl.CTA_WORDS, dtype=np.uint64).tofile(path)
    assert tl.main(["timeline.py", str(path)]) == 1
    assert "no launch recorded" in capsys.readouterr().out


def test_long_runs_keep_their_first_tiles(tmp_path, capsys):
    tl = load_timeline()
    words = np.zeros((tl.REGIONS, tl.CTAS, tl.CTA_WORDS), dtype=np.uint64)
    words[1, 0, :4] = [10**18, 1000, 10**18 + 10**6, 1000 + 10**6]
    for tile in range(tl.TILES):  # a CTA of more tiles than recorded: every slot is full
        at = tl.CONSUMER_WORD + tile * tl.TILE_WORDS
        t0 = 2000 + tile * 10_000
        words[1, 0, at:at + 7] = [t0, t0 + 100, t0 + 9000, t0 + 9500, t0 + 9600, 0, tile]
    path = tmp_path / "long.bin"
    words.tofile(path)
    assert tl.main(["timeline.py", str(path)]) == 0
    out = capsys.readouterr().out
    assert "== region 1: 1 CTAs" in out and f"{tl.TILES}: 1 (the first {tl.TILES} recorded)" in out
    assert "CTA end after its last store issue" not in out


def test_edges_split_the_first_tiles_by_position(tmp_path, capsys):
    # One-tile CTAs on 4 x 3 tiles (tp, tq): the last tile along Q runs its K loop in
    # 9000 cycles, the last along P in 8000, the others in 7000.
    tl = load_timeline()
    words = np.zeros((tl.REGIONS, tl.CTAS, tl.CTA_WORDS), dtype=np.uint64)
    cta = 0
    for tp in range(4):
        for tq in range(3):
            k_loop = 9000 if tq == 2 else 8000 if tp == 3 else 7000
            words[0, cta, :4] = [10**18, 1000, 10**18 + 10**5, 1000 + 10**5]
            for wg in range(2):
                at = tl.CONSUMER_WORD + wg * tl.TILES * tl.TILE_WORDS
                t0 = 2000
                words[0, cta, at:at + 7] = [t0, t0 + 500, t0 + 500 + k_loop - wg, t0 + 500 + k_loop + 400,
                                            t0 + 500 + k_loop + 600, 100 * tp, (tp << 16) | tq]
            cta += 1
    path = tmp_path / "edges.bin"
    words.tofile(path)
    assert tl.main(["timeline.py", str(path), "--edges"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"last along Q \(tq 2\) +n +4 +adapter +500 .*K loop +9000 ", out)
    assert re.search(r"last along P \(tp 3\) +n +3 .*K loop +8000 \[ +8000, +9000\]", out)
    assert re.search(r"the others +n +6 .*K loop +7000 \[ +7000, +7000\].*full waits +100 ", out)
    assert "slowest K loops (tp, tq: cycles): " in out and ", 2: 9000" in out
    # Without the flag the view is not printed.
    assert tl.main(["timeline.py", str(path)]) == 0
    assert "first tiles by position" not in capsys.readouterr().out

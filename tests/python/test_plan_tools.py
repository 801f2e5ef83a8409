"""The plan table's reader (bench/plan_table.py), through which the plan experiments
(scripts/plan-ab, forced-scan, plan-gaps) say what each run launched: the board's
DRAM bandwidth taken from the runs, the table at that bandwidth, tables of builds from
before the plan took it, and forced pairs that could not lie the forced way."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import plan_table  # noqa: E402

# The build under test: scripts/gpu-check names its --build-dir in CAKE_BUILD_DIR.
CAKE_PLAN = os.path.join(os.environ.get("CAKE_BUILD_DIR") or os.path.join(ROOT, "build"), "bench", "cake_plan")
needs_table = pytest.mark.skipif(not os.access(CAKE_PLAN, os.X_OK),
                                 reason=f"no {CAKE_PLAN}: scripts/build makes it")

# One wave of 128 x 112 at long K: single CTAs at an H200's or unknown bandwidth,
# pairs along M at an H100 SXM's (src/plan/rules.h kHopperSlowDram*).
SHAPE = "512,3584,18944"


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))


def test_board_dram_is_the_first_bandwidth_a_run_records(tmp_path):
    assert plan_table.board_dram(str(tmp_path)) == 0
    write_json(str(tmp_path / "p1-1" / "bench.json"), {"device": "old build", "sms": 132})
    write_json(str(tmp_path / "p1-2" / "bench.json"), "{ not json")
    assert plan_table.board_dram(str(tmp_path)) == 0
    write_json(str(tmp_path / "p1-3" / "bench.json"), {"device": "H100", "sms": 132, "dram_gbps": 3352})
    assert plan_table.board_dram(str(tmp_path)) == 3352


def test_board_dram_reads_runs_whose_skipped_ceilings_wrote_nan(tmp_path):
    # cake_bench --no-ceilings before it wrote null: not JSON, and the labels of
    # plan_ab.py / forced_scan.py were planned at bandwidth 0 (the H200's plan).
    write_json(str(tmp_path / "a1-512,3840,18944" / "bench.json"),
               '{\n "device": "H100",\n "dram_gbps": 3352,\n "copy_TBps": nan,\n "fp8_TFLOPs": nan\n}\n')
    assert plan_table.board_dram(str(tmp_path)) == 3352


@needs_table
def test_the_table_at_the_boards_bandwidth():
    single = plan_table.short(plan_table.table(CAKE_PLAN, ["--shape", SHAPE])[(512, 3584, 18944)])
    assert plan_table.table(CAKE_PLAN, ["--shape", SHAPE], 4916) == plan_table.table(CAKE_PLAN, ["--shape", SHAPE])
    paired = plan_table.short(plan_table.table(CAKE_PLAN, ["--shape", SHAPE], 3352)[(512, 3584, 18944)])
    assert single == "128x112 128x112 s1 g128"
    assert paired == "128x112 128x112 s1 pairs 2x1 g128"


@needs_table
def test_a_table_from_before_the_bandwidth_input(tmp_path):
    # A cake_plan that rejects --dram-gbps (usage, exit 2), as builds before the input do.
    old = tmp_path / "cake_plan_old"
    old.write_text('#!/bin/sh\nfor a; do [ "$a" = --dram-gbps ] && exit 2; done\nexec "%s" "$@"\n' % CAKE_PLAN)
    old.chmod(old.stat().st_mode | stat.S_IXUSR)
    got = plan_table.table(str(old), ["--shape", SHAPE], 3352)
    assert plan_table.short(got[(512, 3584, 18944)]) == "128x112 128x112 s1 g128"


@needs_table
def test_forced_pairs_that_cannot_lie_that_way_are_said():
    # fp8_hopper_192x112 (the plan at M = 1536) pairs along N only: --multicast m runs its own.
    text = plan_table.table(CAKE_PLAN, ["--shape", "1536,3584,18944", "--multicast", "m"])[(1536, 3584, 18944)]
    assert text.startswith("fp8_hopper_192x112") and "not the forced pairs" in text
    text = plan_table.table(CAKE_PLAN, ["--shape", SHAPE, "--multicast", "m"])[(512, 3584, 18944)]
    assert "pairs 2x1" in text and "not the forced pairs" not in text
    # 128 x 128 is built both ways (config.h kPairsBothWays): its weight-sharing pairs
    # run when forced (docs/results/h100-dram-rule/weight-pairs-128.txt) on any board,
    # and are planned at this shape on slower DRAM only (rules.h kHopperSlowDram*).
    forced = ["--shape", "512,4096,14336", "--program", "fp8_hopper_128x128", "--multicast", "m"]
    text = plan_table.table(CAKE_PLAN, forced)[(512, 4096, 14336)]
    assert "pairs 2x1" in text and "not the forced pairs" not in text
    single = plan_table.table(CAKE_PLAN, ["--shape", "512,4096,14336"], 4916)[(512, 4096, 14336)]
    assert plan_table.short(single) == "128x128 128x128 s1 g128"
    planned = plan_table.table(CAKE_PLAN, ["--shape", "512,4096,14336"], 3352)[(512, 4096, 14336)]
    assert plan_table.short(planned) == "128x128 128x128 s1 pairs 2x1 g128"


def write_run(path, cake_us, cublaslt_us, ok=True):
    """One cake_bench --out directory of scripts/plan-ab: its bench.csv at r = 128."""
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "bench.csv"), "w") as f:
        f.write("M,N,K,r,cake_us,cublaslt_us,check_ok\n")
        f.write(f"512,4096,4096,128,{cake_us},{cublaslt_us},{1 if ok else 0}\n")


def run_plan_ab(d):
    return subprocess.run([sys.executable, os.path.join(ROOT, "bench", "plan_ab.py"), str(d)],
                          capture_output=True, text=True, check=True).stdout


def test_plan_ab_reads_both_ratios_and_names_the_drift(tmp_path):
    # B's processes ran cuBLASLt 10% faster: raw B / A reads 0.90, over cuBLASLt 1.00.
    (tmp_path / "shapes.txt").write_text("512,4096,4096\n")
    for run in (1, 2):
        write_run(str(tmp_path / f"a{run}-512,4096,4096"), 20.0, 16.0)
        write_run(str(tmp_path / f"b{run}-512,4096,4096"), 18.0, 14.4)
    out = run_plan_ab(tmp_path)
    assert "0.900  1.000  cuBLASLt 0.900" in out
    assert "B / A geomean 0.900" in out and "B / A over cuBLASLt geomean 1.000" in out
    assert "drift (the two ratios part by more than 2%): 512,4096,4096 0.900 / 1.000" in out
    assert "FAILED" not in out
    # Every process's row, kept for a later reading.
    rows = (tmp_path / "runs.csv").read_text().splitlines()
    assert rows[0].startswith("process,M,N,K,r,cake_us,cublaslt_us") and len(rows) == 5
    assert rows[1].startswith('"a1-512,4096,4096",512,4096,4096,128,20.0,16.0')


def test_plan_ab_without_drift_and_with_a_failed_check(tmp_path):
    (tmp_path / "shapes.txt").write_text("512,4096,4096\n")
    write_run(str(tmp_path / "a1-512,4096,4096"), 20.0, 16.0)
    write_run(str(tmp_path / "b1-512,4096,4096"), 19.0, 16.0, ok=False)
    out = run_plan_ab(tmp_path)
    assert "0.950  0.950  cuBLASLt 1.000  FAILED" in out
    assert "1 faster and 0 slower" in out
    assert "drift" not in out

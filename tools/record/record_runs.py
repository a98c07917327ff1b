#!/usr/bin/env python3
"""Records repeated runs of a small training loop with torch.profiler, one process per run
(so that cuDNN's autotuner chooses afresh each time): the real run-to-run noise that
`tracediff --runs` and `tracediff trend` judge. Needs a CUDA GPU, PyTorch and torchvision.

  python3 tools/record/record_runs.py OUT_DIR --runs 10 --variant base
  python3 tools/record/record_runs.py OUT_DIR --runs 5 --variant channels_last

Each run goes to OUT_DIR/<variant>-<i>/rank0.pt.trace.json.gz (6 profiled steps, memory on).
"""
import argparse
import gzip
import os
import shutil
import subprocess
import sys


def one_run(out_dir, variant, steps):
    import torch
    import torchvision

    torch.backends.cudnn.benchmark = True
    model = torchvision.models.resnet18(num_classes=100).cuda()
    x = torch.randn(64, 3, 160, 160, device="cuda")
    y = torch.randint(0, 100, (64,), device="cuda")
    if variant == "channels_last":
        model = model.to(memory_format=torch.channels_last)
        x = x.to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "rank0.pt.trace.json")

    def ready(prof):
        prof.export_chrome_trace(path)

    sched = torch.profiler.schedule(wait=2, warmup=2, active=steps, repeat=1)
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts, schedule=sched, on_trace_ready=ready,
                                profile_memory=True, record_shapes=True) as prof:
        for _ in range(4 + steps):
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            loss.item()
            prof.step()
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=6) as g:
        shutil.copyfileobj(f, g)
    os.remove(path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--variant", default="base", choices=["base", "channels_last"])
    p.add_argument("--steps", type=int, default=6)
    p.add_argument("--one", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.one:
        one_run(a.one, a.variant, a.steps)
        return
    for i in range(1, a.runs + 1):
        d = os.path.join(a.out, f"{a.variant}-{i:02d}")
        subprocess.run([sys.executable, __file__, a.out, "--variant", a.variant, "--steps", str(a.steps), "--one", d],
                       check=True)
        print("recorded", d, flush=True)


if __name__ == "__main__":
    main()

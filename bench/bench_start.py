"""``python -m bot`` as a process against the end-to-end fake Discord: start-to-ready time
and idle memory.

Run: ``python bench/bench_start.py [runs]`` (from the repository root, test extras
installed). Each run starts a fresh process on a fresh database and times, from the spawn,
its IDENTIFY on the fake gateway and its answer to a first ``/tirar`` (ready to serve);
then, after two idle seconds, reads its resident memory (VmRSS). Medians over the runs.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.fake_discord import FakeDiscord
from tests.support.payloads import PLAYER, TOKEN, interaction_payload, snowflake

ROOT = Path(__file__).resolve().parents[1]
IDLE_SECONDS = 2.0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def one_run(folder: Path) -> tuple[float, float, float]:
    fake = FakeDiscord()
    await fake.start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TIRADA_"))}
    env |= {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "TIRADA_DB": str(folder / "tirada.db"),
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "LOG_LEVEL": "WARNING",
    }
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=folder, env=env, stderr=asyncio.subprocess.DEVNULL
    )
    try:
        await asyncio.wait_for(fake.identified.wait(), timeout=60)
        identified = time.perf_counter() - started
        data = {
            "id": str(snowflake()),
            "name": "tirar",
            "type": 1,
            "options": [{"type": 3, "name": "expresion", "value": "1d20+5"}],
        }
        payload = interaction_payload(2, data, user=PLAYER, locale="es-ES", channel_id=920000000000000001)
        await fake.dispatch("INTERACTION_CREATE", payload)
        await fake.wait_for("POST", rf"^/interactions/{payload['id']}/[^/]+/callback$", seconds=60)
        answered = time.perf_counter() - started
        await asyncio.sleep(IDLE_SECONDS)
        idle = rss_mb(process.pid)
    finally:
        process.terminate()
        await process.wait()
        await fake.stop()
    return identified * 1000, answered * 1000, idle


async def main(runs: int) -> None:
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            results.append(await one_run(Path(folder)))
    identified, answered, idle = (statistics.median(column) for column in zip(*results, strict=True))
    print(f"| {runs} | {identified:.0f} ms | {answered:.0f} ms | {idle:.1f} MB |")


if __name__ == "__main__":
    print("| runs | spawn to IDENTIFY | spawn to first answer | idle RSS |\n| --- | --- | --- | --- |")
    asyncio.run(main(int(sys.argv[1]) if sys.argv[1:] else 5))

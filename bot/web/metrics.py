"""``GET /metrics``: the process in Prometheus' text format (``prometheus-client``).

Counted as things happen, from events the bot dispatches and hooks it offers (no metric
code in the cogs): interactions by command and outcome (``interaction_outcome`` from
``bot.ui`` and ``bot.errors``, discord.py's ``app_command_completion``), the time each took
from its arrival (``on_interaction``) to its outcome, every store operation and its time
(the store's ``timers``), retention runs (``retention_run`` from the bot's prune task) and
Discord's rate-limit waits (discord.py's own log lines of them). Read when scraped: the SQL
statements the store ran (counted by its database adapter, ``bot.store.database.Statements``),
board drawings, edits and failed edits (``bot.board.updater.Boards``), gateway latency, shards,
open overlays. Each bot has a registry of its own: two bots in one process (tests) never mix.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

import discord
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from bot.client import Tirada
    from bot.web.overlay import Overlays

ANSWERED, REFUSED, FAILED = "answered", "refused", "failed"
# Seconds, around Discord's three for a first answer.
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
# A component's label is its custom_id's first part ("dune", "secreta"); a client could
# send any, so the labels are bounded: past this many, the rest count as "other".
LABELS = 200
COMPONENT_LABEL = re.compile(r"[a-z_]{1,24}")
WAITING = 10_000
# discord.py's warnings for each wait on a 429 (discord/http.py).
RATE_LIMITED = ("We are being rate limited", "Global rate limit has been hit")
DISCORD_HTTP = "discord.http"


class RateLimitWaits(logging.Filter):
    """Counts discord.py's rate-limit warnings as they are logged, letting them through."""

    def __init__(self, counter: Counter) -> None:
        super().__init__()
        self.counter = counter

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(RATE_LIMITED):
            self.counter.inc()
        return True


class Live(Collector):
    """What the bot already counts or knows, read at each scrape."""

    def __init__(self, bot: Tirada, overlays: Overlays) -> None:
        self.bot = bot
        self.overlays = overlays

    def collect(self) -> Iterator[Metric]:
        bot = self.bot
        boards = getattr(bot, "boards", None)
        yield CounterMetricFamily(
            "tirada_board_edits", "Live board messages posted or edited.", boards.edits if boards else 0
        )
        yield CounterMetricFamily(
            "tirada_board_drawings",
            "Boards drawn from the store: one a change, shared by the board message and its overlays.",
            boards.drawings.made if boards else 0,
        )
        yield CounterMetricFamily(
            "tirada_board_edit_failures",
            "Board edits that failed (a 429 past discord.py's retries, a 5xx) and were tried again.",
            boards.failures if boards else 0,
        )
        statements = CounterMetricFamily(
            "tirada_store_statements",
            "SQL statements the store ran, counted where its adapter hands them to the driver.",
            labels=["backend"],
        )
        statements.add_metric([bot.store.statements.backend], bot.store.statements.total)
        yield statements
        latency = GaugeMetricFamily(
            "tirada_gateway_latency_seconds", "Heartbeat latency of each shard's gateway.", labels=["shard"]
        )
        for shard, seconds in shard_latencies(bot):
            if math.isfinite(seconds):
                latency.add_metric([str(shard)], seconds)
        yield latency
        yield GaugeMetricFamily("tirada_shards", "Shards this process runs.", len(shard_latencies(bot)))
        yield GaugeMetricFamily("tirada_process", "This process (sum it for the processes).", 1)
        yield GaugeMetricFamily("tirada_guilds", "Guilds this process sees.", len(bot.guilds))
        yield GaugeMetricFamily("tirada_overlay_streams", "Overlay pages open.", self.overlays.open_streams)


def shard_latencies(bot: Tirada) -> list[tuple[int, float]]:
    if isinstance(bot, discord.AutoShardedClient):
        return list(bot.latencies)
    return [(bot.shard_id or 0, bot.latency)]


class Metrics:
    """The registry and the counters the bot's events feed."""

    def __init__(self, bot: Tirada, overlays: Overlays) -> None:
        self.bot = bot
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "tirada_interactions",
            "Interactions by command (or component) and outcome: answered, refused, failed.",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tirada_interaction_seconds",
            "Seconds from an interaction's arrival to its outcome.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.store = Histogram(
            "tirada_store_operation_seconds",
            "Store operations (one transaction or one read each) and their time.",
            buckets=STORE_BUCKETS,
            registry=self.registry,
        )
        self.retention = Counter(
            "tirada_retention_runs",
            "Retention (pruning) runs by outcome.",
            ["outcome"],
            registry=self.registry,
        )
        self.rate_limits = Counter(
            "tirada_rate_limit_waits", "Waits on Discord's rate limits (HTTP 429).", registry=self.registry
        )
        self.registry.register(Live(bot, overlays))
        ProcessCollector(registry=self.registry)
        self._filter = RateLimitWaits(self.rate_limits)
        self._arrived: OrderedDict[int, float] = OrderedDict()
        self._labels: set[str] = set()

    def start(self) -> None:
        logging.getLogger(DISCORD_HTTP).addFilter(self._filter)
        self.bot.store.timers.append(self.store.observe)

    def close(self) -> None:
        logging.getLogger(DISCORD_HTTP).removeFilter(self._filter)
        if self.store.observe in self.bot.store.timers:
            self.bot.store.timers.remove(self.store.observe)

    def text(self) -> bytes:
        return generate_latest(self.registry)

    def arrived(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.autocomplete:
            return
        self._arrived[interaction.id] = time.perf_counter()
        while len(self._arrived) > WAITING:
            self._arrived.popitem(last=False)

    def outcome(self, interaction: discord.Interaction, outcome: str) -> None:
        self.interactions.labels(self.label(interaction), outcome).inc()
        arrived = self._arrived.pop(interaction.id, None)
        if arrived is not None:
            self.latency.observe(time.perf_counter() - arrived)

    def retention_run(self, outcome: str) -> None:
        self.retention.labels(outcome).inc()

    def label(self, interaction: discord.Interaction) -> str:
        """The command's name (``mesa tablero``), or a component's custom_id prefix."""
        command = interaction.command
        if command is not None:
            return command.qualified_name
        data: Mapping[str, object] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        prefix = custom_id.partition(":")[0]
        if not COMPONENT_LABEL.fullmatch(prefix):
            return "other"
        if prefix not in self._labels and len(self._labels) >= LABELS:
            return "other"
        self._labels.add(prefix)
        return prefix

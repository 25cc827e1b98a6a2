"""The pure half of `manage.py loadtest_table`: read the table's pushed frames and summarise latencies.

No Django, no sockets: what a simulated player understands of a frame (the version in `#status`,
the playable buttons in `#hand`/`#actions`, an error code, a finished match) and the statistics
printed at the end, so both can be unit-tested without a server.
"""

from __future__ import annotations

import ipaddress
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

# Regions whose buttons are the viewer's legal moves (games/_hand.html, games/_actions.html).
ACTION_REGIONS = ("hand", "actions")
MESSAGE_REGION = "table-message"
STATUS_REGION = "status"
# Elements without an end tag: they must not open a nesting level.
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())


@dataclass(frozen=True)
class Region:
    """One top-level element of a frame (an htmx out-of-band swap target), as a player reads it."""

    id: str
    buttons: tuple[dict, ...] = ()  # the hx-vals of every <button data-card|data-action ws-send>
    version: int | None = None  # data-version on the region's own element (#status)
    error: str | None = None  # data-error on the region's own element (#table-message)
    finished: bool = False  # a data-match-result inside #status: the match is over


class _FrameParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.regions: list[Region] = []
        self._current: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.depth == 0:
            self._current = {
                "id": attrs.get("id") or "",
                "buttons": [],
                "version": None,
                "error": None,
                "finished": False,
            }
            version = attrs.get("data-version")
            if version is not None and version.strip().isdigit():
                self._current["version"] = int(version)
            self._current["error"] = attrs.get("data-error") or None
        elif self._current is not None:
            if tag == "button" and ("data-card" in attrs or "data-action" in attrs) and attrs.get("hx-vals"):
                try:
                    values = json.loads(attrs["hx-vals"])
                except ValueError:
                    values = None
                if isinstance(values, dict) and "do" in values:
                    self._current["buttons"].append(values)
            if "data-match-result" in attrs and self._current["id"] == STATUS_REGION:
                self._current["finished"] = True
        if tag not in _VOID:
            self.depth += 1
        elif self.depth == 0:
            self._close_region()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in _VOID or self.depth == 0:
            return
        self.depth -= 1
        if self.depth == 0:
            self._close_region()

    def _close_region(self):
        if self._current is not None:
            c = self._current
            self.regions.append(Region(c["id"], tuple(c["buttons"]), c["version"], c["error"], c["finished"]))
            self._current = None


def parse_frame(html: str) -> list[Region]:
    """The top-level regions of one pushed frame, in order."""
    parser = _FrameParser()
    parser.feed(html)
    parser.close()
    return parser.regions


@dataclass
class TableView:
    """What one player knows of its table: the latest copy of every region (updates carry only changes)."""

    regions: dict[str, Region] = field(default_factory=dict)

    def apply(self, html: str) -> list[Region]:
        """Merge one frame; returns its regions (the caller looks for errors and the version in them)."""
        regions = parse_frame(html)
        for region in regions:
            if region.id:
                self.regions[region.id] = region
        return regions

    @property
    def version(self) -> int | None:
        status = self.regions.get(STATUS_REGION)
        return status.version if status else None

    @property
    def finished(self) -> bool:
        status = self.regions.get(STATUS_REGION)
        return bool(status and status.finished)

    def legal_actions(self) -> list[dict]:
        """The moves the page offers right now (empty when it is not this player's turn)."""
        if self.finished:
            return []
        return [dict(b) for name in ACTION_REGIONS if name in self.regions for b in self.regions[name].buttons]


def frame_version(regions: list[Region]) -> int | None:
    return next((r.version for r in regions if r.version is not None), None)


def frame_error(regions: list[Region]) -> str | None:
    return next((r.error for r in regions if r.error), None)


def percentile(values, q: float) -> float | None:
    """The q-th percentile (0–100), linear interpolation between closest ranks (numpy's default)."""
    if not 0 <= q <= 100:
        raise ValueError("q must be between 0 and 100")
    data = sorted(values)
    if not data:
        return None
    position = (len(data) - 1) * q / 100
    lower = math.floor(position)
    upper = min(lower + 1, len(data) - 1)
    return data[lower] + (data[upper] - data[lower]) * (position - lower)


def summarise_ms(seconds) -> dict:
    """p50/p95/p99/max (and count) of durations given in seconds, in milliseconds."""
    values = [s * 1000 for s in seconds]
    out: dict[str, float | None] = {"count": len(values)}
    for name, q in (("p50", 50), ("p95", 95), ("p99", 99)):
        out[name] = percentile(values, q)
    out["max"] = max(values) if values else None
    return out


def loopback_endpoint(url: str) -> tuple[str, str]:
    """(ws base URL, Origin) for an http(s)/ws(s) URL on a loopback address; ValueError otherwise."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        raise ValueError(f"not an http(s) or ws(s) URL: {url!r}")
    host = parts.hostname
    if host != "localhost":
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise ValueError(f"the load test only talks to this machine (127.0.0.1, ::1, localhost), not {host!r}")
    secure = parts.scheme in ("https", "wss")
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return f"{'wss' if secure else 'ws'}://{netloc}", f"{'https' if secure else 'http'}://{netloc}"


def assign_urls(players: int, urls: list[str]) -> list[str]:
    """Round-robin: player i talks to urls[i % len(urls)] (two daphne processes each get half)."""
    if not urls:
        raise ValueError("at least one URL")
    return [urls[i % len(urls)] for i in range(players)]


@dataclass
class Report:
    players: int
    seconds: float  # the planned duration
    elapsed: float  # what it took, from the first connect to the last socket closed
    urls: list[str]
    actions_sent: int = 0
    latencies: list[float] = field(default_factory=list)  # action → update, seconds
    # People playing each other (`manage.py loadtest_rooms`): action → the last of the table's seats
    # updated, seconds; empty against the AI (there the acting seat is the only person).
    all_seats_latencies: list[float] = field(default_factory=list)
    people_only: bool = False  # tables of people playing each other (no AI seats)
    frames_received: int = 0  # every frame every player's socket received
    # Partners answering one question (a raise, a hand of eleven) at once: the second is refused as
    # stale by design and sees the table as it is; not an error.
    raced: int = 0
    turn_waits: list[float] = field(default_factory=list)  # update → my turn again (AI delay + lag), seconds
    turn_wait_excess: list[float] = field(default_factory=list)  # each turn wait minus the AI's designed delays in it
    connects: list[float] = field(default_factory=list)  # open socket → snapshot, seconds
    matches_finished: int = 0
    errors: Counter = field(default_factory=Counter)
    # The floor: the same number of sockets through a trivial group round trip on the same server(s).
    floor_latencies: list[float] = field(default_factory=list)
    floor_note: str = ""  # why there is no floor, if there is none
    server_cpu_s: float | None = None  # the servers' CPU seconds during the table phase
    load_average: tuple[float, float] | None = None  # 1-minute load average at the start and the end
    # --analyses: the decisions the servers' analysis loops estimated while the tables played, and why none
    analysis_decisions: int | None = None
    analysis_note: str = ""

    @property
    def actions_per_second(self) -> float:
        return self.actions_sent / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def frames_per_second(self) -> float:
        return self.frames_received / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def p95_over_floor(self) -> float | None:
        """The table's p95 (every seat updated, where several people play) as a multiple of the floor's
        p95 measured in the same run."""
        table = percentile(self.all_seats_latencies or self.latencies, 95)
        floor = percentile(self.floor_latencies, 95)
        return table / floor if table is not None and floor else None

    @property
    def cpu_ms_per_action(self) -> float | None:
        """Server CPU per player action (the AI's moves in between included)."""
        if self.server_cpu_s is None or not self.actions_sent:
            return None
        return self.server_cpu_s * 1000 / self.actions_sent

    def as_dict(self) -> dict:
        return {
            "players": self.players,
            "seconds": self.seconds,
            "elapsed": round(self.elapsed, 3),
            "urls": self.urls,
            "actions_sent": self.actions_sent,
            "actions_per_second": round(self.actions_per_second, 2),
            "latency_ms": _rounded(summarise_ms(self.latencies)),
            "all_seats_latency_ms": _rounded(summarise_ms(self.all_seats_latencies)),
            "frames_received": self.frames_received,
            "frames_per_second": round(self.frames_per_second, 1),
            "raced": self.raced,
            "turn_wait_ms": _rounded(summarise_ms(self.turn_waits)),
            "turn_wait_over_designed_ms": _rounded(summarise_ms(self.turn_wait_excess)),
            "connect_ms": _rounded(summarise_ms(self.connects)),
            "matches_finished": self.matches_finished,
            "errors": dict(sorted(self.errors.items())),
            "error_total": sum(self.errors.values()),
            "floor_ms": _rounded(summarise_ms(self.floor_latencies)),
            "floor_note": self.floor_note,
            "p95_over_floor": _round(self.p95_over_floor, 2),
            "server_cpu_s": _round(self.server_cpu_s, 3),
            "cpu_ms_per_action": _round(self.cpu_ms_per_action, 2),
            "load_average": list(self.load_average) if self.load_average else None,
            "analysis_decisions": self.analysis_decisions,
            "analysis_note": self.analysis_note,
        }


def _rounded(summary: dict) -> dict:
    return {k: (round(v, 1) if isinstance(v, float) else v) for k, v in summary.items()}


def _round(value, digits: int):
    return None if value is None else round(value, digits)


def _ms(value) -> str:
    return "–" if value is None else f"{value:.1f}"


def format_report(report: Report) -> str:
    d = report.as_dict()
    lat, wait, conn, floor = d["latency_ms"], d["turn_wait_ms"], d["connect_ms"], d["floor_ms"]
    over = d["turn_wait_over_designed_ms"]
    errors = ", ".join(f"{k}={v}" for k, v in d["errors"].items()) or "none"
    if floor["count"]:
        floor_line = (
            f"floor ms           p50 {_ms(floor['p50'])}  p95 {_ms(floor['p95'])}  "
            f"(group round trip, same sockets, same server, n={floor['count']})"
        )
    else:
        floor_line = f"floor              none ({d['floor_note'] or 'not measured'})"
    ratio = d["p95_over_floor"]
    cpu = d["cpu_ms_per_action"]
    load = d["load_average"]
    every = d["all_seats_latency_ms"]
    analysis_line = (
        [
            f"analyses beside    {d['analysis_decisions']} decisions estimated while the tables played"
            + (f"  ({d['analysis_note']})" if d["analysis_note"] else "")
        ]
        if d["analysis_decisions"] is not None or d["analysis_note"]
        else []
    )
    seats_line = (
        [
            f"all seats ms       p50 {_ms(every['p50'])}  p95 {_ms(every['p95'])}  p99 {_ms(every['p99'])}  "
            f"max {_ms(every['max'])}  (action → every seat of the table updated, n={every['count']})"
        ]
        if report.people_only
        else []
    )
    turn_lines = [
        f"turn wait ms       p50 {_ms(wait['p50'])}  p95 {_ms(wait['p95'])}  max {_ms(wait['max'])}  "
        f"(update → my turn again: the AI's moves, each 500–1500 by design)",
        f"turn wait − design p50 {_ms(over['p50'])}  p95 {_ms(over['p95'])}  "
        f"(the same waits minus the designed delays of the AI moves in them)",
    ]
    if report.people_only:  # no AI to wait for, and partners may answer one question at once
        turn_lines = [f"answers raced      {d['raced']}  (partners acted at once; the later move refused, by design)"]
    return "\n".join(
        [
            f"players            {report.players}  ({', '.join(report.urls)})",
            f"duration           {report.elapsed:.1f} s (planned {report.seconds:g} s)",
            f"actions sent       {report.actions_sent}",
            f"actions/s          {report.actions_per_second:.1f}",
            f"latency ms         p50 {_ms(lat['p50'])}  p95 {_ms(lat['p95'])}  p99 {_ms(lat['p99'])}  "
            f"max {_ms(lat['max'])}  (action → update, n={lat['count']})",
            *seats_line,
            f"frames/s           {report.frames_per_second:.1f}  ({report.frames_received} frames to every socket)",
            *turn_lines,
            f"connect ms         p50 {_ms(conn['p50'])}  p95 {_ms(conn['p95'])}  max {_ms(conn['max'])}  "
            f"(socket open → snapshot, n={conn['count']})",
            f"matches finished   {report.matches_finished}",
            f"errors             {d['error_total']}  ({errors})",
            floor_line,
            f"table p95 / floor  {'–' if ratio is None else f'{ratio:.1f}×'}",
            f"server CPU         {'–' if cpu is None else f'{cpu:.2f} ms per action'}"
            + ("" if d["server_cpu_s"] is None else f"  ({d['server_cpu_s']:.1f} s in the table phase)"),
            f"load average       {'–' if not load else f'{load[0]:.2f} at the start, {load[1]:.2f} at the end'}",
            *analysis_line,
        ]
    )


# --- the ramp (`--ramp`): where the latency crosses a bound -----------------------------------------

# The pace a person plays at, for "players per core": one action every 3 s (issue 31).
HUMAN_ACTION_EVERY_S = 3.0


@dataclass(frozen=True)
class Stage:
    """One step of a ramp: a whole run at `load` (players or tables) and what it measured."""

    load: int
    actions_per_second: float
    p95_s: float | None  # every seat updated where several people play, else action → update
    cpu_ms_per_action: float | None  # the servers' CPU in the table phase over the actions sent

    @classmethod
    def of(cls, load: int, report: Report) -> Stage:
        return cls(
            load=load,
            actions_per_second=report.actions_per_second,
            p95_s=percentile(report.all_seats_latencies or report.latencies, 95),
            cpu_ms_per_action=report.cpu_ms_per_action,
        )


def ramp_loads(text: str) -> list[int]:
    """`--ramp 10,25,50`: the loads of each stage, increasing, each at least 1."""
    try:
        loads = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"--ramp takes whole numbers separated by commas, not {text!r}") from None
    if len(loads) < 2 or any(n < 1 for n in loads) or loads != sorted(set(loads)):
        raise ValueError("--ramp needs two or more loads of at least 1, increasing (e.g. 10,25,50)")
    return loads


def saturation_rate(stages: list[Stage], bound_s: float) -> float | None:
    """The action rate at which p95 crosses `bound_s`: interpolated between the last stage under it and
    the first over it (by action rate); the first stage's rate when it is already over; None when no
    stage crossed (the point is beyond the ramp)."""
    below = None
    for stage in stages:
        if stage.p95_s is None:
            continue
        if stage.p95_s > bound_s:
            if below is None or stage.actions_per_second <= below.actions_per_second:
                return stage.actions_per_second
            assert below.p95_s is not None
            share = (bound_s - below.p95_s) / (stage.p95_s - below.p95_s)
            return below.actions_per_second + share * (stage.actions_per_second - below.actions_per_second)
        below = stage
    return None


def format_ramp(stages: list[Stage], *, bound_s: float, processes: int) -> str:
    """One line per stage, then the saturation point and the players it means per core at a human pace."""
    lines = ["load    actions/s   p95 ms   CPU ms/action"]
    for s in stages:
        p95 = f"{s.p95_s * 1000:8.1f}" if s.p95_s is not None else "       –"
        cpu = f"{s.cpu_ms_per_action:8.2f}" if s.cpu_ms_per_action is not None else "       –"
        lines.append(f"{s.load:4d}   {s.actions_per_second:9.1f}  {p95}   {cpu}")
    rate = saturation_rate(stages, bound_s)
    bound = f"{bound_s * 1000:.0f} ms"
    if all(s.p95_s is None for s in stages):
        lines.append("no stage measured a latency (see each stage's errors): no saturation point")
    elif rate is None:
        lines.append(f"p95 stayed under {bound} at every stage: the saturation point is beyond this ramp")
    else:
        players = rate * HUMAN_ACTION_EVERY_S
        lines.append(
            f"p95 crosses {bound} at {rate:.1f} actions/s: {players:.0f} players at one action every "
            f"{HUMAN_ACTION_EVERY_S:.0f} s, {players / processes:.0f} per server process (one core each)"
        )
    return "\n".join(lines)

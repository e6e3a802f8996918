"""The growth plot as a hand-written SVG (standard library only): two log-log panels, median
time and peak RSS against member count, one line per tool. On log-log axes linear growth is a
straight line of slope 1 once start-up stops dominating; a step shows as a kink."""
import math
from xml.sax.saxutils import escape

# (colour, dash) per tool: zanj solid, the peers dashed, one colour per operation family
STYLE = {
    "zanj info": ("#1f77b4", ""),
    "zanj ls": ("#2ca02c", ""),
    "zanj verify": ("#d62728", ""),
    "unzip -l": ("#1f77b4", "6,4"),
    "unzip -tq": ("#d62728", "6,4"),
    "python zipfile namelist": ("#9467bd", "2,3"),
    "python zipfile testzip": ("#ff7f0e", "2,3"),
}

W, H = 1000, 560
PANEL_W, PANEL_H = 380, 330
LEFT = (90, 590)  # x of each panel's plot area
TOP = 60


def _dash(pattern):
    return f' stroke-dasharray="{pattern}"' if pattern else ""


def _decades(lo, hi):
    """tick values 1, 2, 5 x 10^k covering [lo, hi]"""
    ticks = []
    for k in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 5):
            v = m * 10 ** k
            if lo / 1.0001 <= v <= hi * 1.0001:
                ticks.append(v)
    return ticks


def _label(v, unit):
    if unit == "members":
        return f"{v / 1000:g}k" if v >= 1000 else f"{v:g}"
    if unit == "s":
        return f"{v * 1000:g} ms" if v < 1 else f"{v:g} s"
    return f"{v:g} MiB"


def _panel(out, x0, title, unit, series, xs):
    vals = [v for pts in series.values() for _, v in pts if v > 0]
    ylo, yhi = min(vals), max(vals)
    ylo, yhi = 10 ** math.floor(math.log10(ylo)), 10 ** math.ceil(math.log10(yhi))
    xlo, xhi = min(xs) / 1.25, max(xs) * 1.25
    lx = lambda v: x0 + PANEL_W * (math.log10(v) - math.log10(xlo)) / (math.log10(xhi) - math.log10(xlo))
    ly = lambda v: TOP + PANEL_H - PANEL_H * (math.log10(v) - math.log10(ylo)) / (math.log10(yhi) - math.log10(ylo))
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP - 18}" text-anchor="middle" font-size="16" '
               f'font-weight="bold">{escape(title)}</text>')
    out.append(f'<rect x="{x0}" y="{TOP}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#333"/>')
    for v in _decades(ylo, yhi):
        y = ly(v)
        major = abs(math.log10(v) - round(math.log10(v))) < 1e-9
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + PANEL_W}" y2="{y:.1f}" stroke="#ddd"'
                   f'{"" if major else _dash("2,3")}/>')
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{_label(v, unit)}</text>')
    for v in xs:
        x = lx(v)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + PANEL_H}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + PANEL_H + 16}" text-anchor="middle" font-size="11">'
                   f'{_label(v, "members")}</text>')
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP + PANEL_H + 36}" text-anchor="middle" font-size="12">'
               f'members (log scale)</text>')
    ytitle = "median time (log scale)" if unit == "s" else "peak RSS (log scale)"
    yc = TOP + PANEL_H / 2
    out.append(f'<text x="{x0 - 62}" y="{yc}" text-anchor="middle" font-size="12" '
               f'transform="rotate(-90 {x0 - 62} {yc})">{ytitle}</text>')
    for tool, pts in series.items():
        colour, dash = STYLE.get(tool, ("#555", ""))
        path = " ".join(f"{lx(n):.1f},{ly(v):.1f}" for n, v in pts if v > 0)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"'
                   f'{_dash(dash)}/>')
        for n, v in pts:
            out.append(f'<circle cx="{lx(n):.1f}" cy="{ly(v):.1f}" r="3" fill="{colour}"/>')


def write_growth_svg(path, rows, subtitle):
    """rows: dicts with members, tool, seconds, rss_mib"""
    tools = [t for t in STYLE if any(r["tool"] == t for r in rows)]
    xs = sorted({r["members"] for r in rows})
    pick = lambda key: {t: sorted((r["members"], r[key]) for r in rows if r["tool"] == t) for t in tools}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           f'font-family="sans-serif">', f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="20" text-anchor="middle" font-size="13">{escape(subtitle)}</text>']
    _panel(out, LEFT[0], "time", "s", pick("seconds"), xs)
    _panel(out, LEFT[1], "peak RSS", "MiB", pick("rss_mib"), xs)
    legend_y = TOP + PANEL_H + 60
    for i, tool in enumerate(tools):
        colour, dash = STYLE[tool]
        x, y = 90 + (i % 4) * 225, legend_y + (i // 4) * 22
        out.append(f'<line x1="{x}" y1="{y}" x2="{x + 30}" y2="{y}" stroke="{colour}" stroke-width="2"'
                   f'{_dash(dash)}/>')
        out.append(f'<text x="{x + 38}" y="{y + 4}" font-size="12">{escape(tool)}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")

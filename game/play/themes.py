"""Colour themes. The colour-blind-safe palette (Okabe-Ito) also marks the discs with shapes."""

from __future__ import annotations

from dataclasses import dataclass

Color = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    key: str
    label: str
    background: Color
    panel: Color
    panel_border: Color
    text: Color
    text_dim: Color
    accent: Color
    board: Color
    board_shadow: Color
    hole: Color  # what shows through an empty hole
    discs: tuple[Color, Color]
    disc_names: tuple[str, str]
    button: Color
    button_hover: Color
    button_text: Color
    win_ring: Color
    heat_cool: Color
    heat_warm: Color
    heat_mid: Color  # the middle of the heat ramp (a saturated colour, never a grey)
    win_text: Color  # exact verdicts: a win for the mover
    loss_text: Color  # and a loss
    error: Color  # notices about something that went wrong
    marks: bool = False  # draw a ring / cross on the discs


THEMES: dict[str, Theme] = {
    t.key: t
    for t in (
        Theme(
            key="classic",
            label="Classic",
            background=(236, 240, 246),
            panel=(250, 251, 253),
            panel_border=(214, 220, 230),
            text=(34, 40, 52),
            text_dim=(110, 118, 134),
            accent=(36, 99, 235),
            board=(28, 78, 196),
            board_shadow=(18, 50, 130),
            hole=(226, 232, 242),
            discs=((226, 52, 60), (250, 204, 36)),
            disc_names=("Red", "Yellow"),
            button=(232, 236, 243),
            button_hover=(214, 222, 236),
            button_text=(34, 40, 52),
            win_ring=(255, 255, 255),
            heat_cool=(255, 238, 170),
            heat_warm=(255, 110, 30),
            heat_mid=(255, 196, 50),
            win_text=(21, 128, 61),
            loss_text=(200, 30, 30),
            error=(190, 24, 24),
        ),
        Theme(
            key="dark",
            label="Dark",
            background=(22, 25, 32),
            panel=(32, 36, 46),
            panel_border=(52, 58, 72),
            text=(228, 232, 240),
            text_dim=(146, 154, 172),
            accent=(96, 165, 250),
            board=(36, 70, 160),
            board_shadow=(20, 40, 100),
            hole=(18, 20, 27),
            discs=((239, 68, 68), (250, 204, 21)),
            disc_names=("Red", "Yellow"),
            button=(46, 52, 66),
            button_hover=(62, 70, 90),
            button_text=(228, 232, 240),
            win_ring=(255, 255, 255),
            heat_cool=(250, 230, 150),
            heat_warm=(255, 100, 40),
            heat_mid=(250, 190, 50),
            win_text=(74, 222, 128),
            loss_text=(248, 113, 113),
            error=(252, 129, 129),
        ),
        Theme(
            key="colorblind",
            label="Colour-blind",
            background=(240, 240, 236),
            panel=(252, 252, 250),
            panel_border=(210, 210, 204),
            text=(30, 30, 30),
            text_dim=(100, 100, 100),
            accent=(0, 114, 178),
            board=(60, 64, 72),
            board_shadow=(36, 38, 44),
            hole=(232, 232, 228),
            discs=((213, 94, 0), (86, 180, 233)),
            disc_names=("Orange", "Blue"),
            button=(230, 230, 226),
            button_hover=(212, 212, 206),
            button_text=(30, 30, 30),
            win_ring=(255, 255, 255),
            heat_cool=(240, 175, 215),
            heat_warm=(120, 40, 110),
            heat_mid=(204, 121, 167),
            win_text=(0, 114, 178),
            loss_text=(120, 40, 110),
            error=(120, 40, 110),
            marks=True,
        ),
    )
}
THEME_ORDER = tuple(THEMES)


def mix(a: Color, b: Color, t: float) -> Color:
    t = max(0.0, min(1.0, t))
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def shade(c: Color, factor: float) -> Color:
    """Darken (factor < 1) or lighten (factor > 1) a colour."""
    if factor < 1:
        return mix((0, 0, 0), c, factor)
    return mix(c, (255, 255, 255), factor - 1)


def heat_colour(theme: Theme, t: float) -> Color:
    """The heat ramp at ``t`` (0 faint .. 1 hot) through a saturated middle colour: one hue family, so no
    step of it turns grey on the board."""
    t = max(0.0, min(1.0, t))
    if t < 0.5:
        return mix(theme.heat_cool, theme.heat_mid, t * 2)
    return mix(theme.heat_mid, theme.heat_warm, (t - 0.5) * 2)

"""Renders a page in headless Chromium (Debian's package) and finds its parts in the
screenshot: the report is checked as a reader sees it, not as its HTML source reads."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CHROMIUM = ("chromium", "chromium-browser")


def chromium() -> str | None:
    for name in CHROMIUM:
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(page: Path, png: Path, width: int = 1280, height: int = 4000,
               timeout_s: float = 120) -> None:
    """A full-width screenshot of page (a local file) as png."""
    exe = chromium()
    if exe is None:
        raise RuntimeError("chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="mcast4ai-chromium-") as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--window-size={width},{height}",
               f"--screenshot={png}", page.resolve().as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    if proc.returncode != 0 or not png.is_file():
        raise RuntimeError(f"chromium failed ({proc.returncode}): {proc.stderr[-500:]}")


@dataclass(frozen=True)
class Box:
    top: int
    left: int
    bottom: int
    right: int

    @property
    def height(self) -> int:
        return self.bottom - self.top

    @property
    def width(self) -> int:
        return self.right - self.left


def read_rgb(png: Path) -> np.ndarray:
    import matplotlib.image

    img = matplotlib.image.imread(str(png))
    if img.dtype != np.uint8:
        img = (img * 255).round().astype(np.uint8)
    return img[:, :, :3]


def frames(rgb: np.ndarray, colour: str, tolerance: int = 24, min_side: int = 40) -> list[Box]:
    """The rectangles drawn with a border of colour ('#rrggbb'): runs of rows holding a long
    horizontal stretch of it, grouped into boxes from one top edge to the next bottom edge."""
    target = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.int16)
    mask = (np.abs(rgb.astype(np.int16) - target) <= tolerance).all(axis=2)
    boxes: list[Box] = []
    rows = np.where(mask.sum(axis=1) >= min_side)[0]
    if rows.size == 0:
        return boxes
    # An edge is a band of consecutive rows; a box is an edge, then the next edge below it.
    bands: list[tuple[int, int]] = []
    start = prev = int(rows[0])
    for r in rows[1:]:
        r = int(r)
        if r != prev + 1:
            bands.append((start, prev))
            start = r
        prev = r
    bands.append((start, prev))
    for (t0, _), (_, b1) in zip(bands[0::2], bands[1::2]):
        cols = np.where(mask[t0])[0]
        boxes.append(Box(t0, int(cols.min()), b1, int(cols.max())))
    return [b for b in boxes if b.height >= min_side and b.width >= min_side]


def inside(rgb: np.ndarray, box: Box, margin: int = 6) -> np.ndarray:
    return rgb[box.top + margin:box.bottom - margin, box.left + margin:box.right - margin]


def is_blank(region: np.ndarray) -> bool:
    """A region of one colour, give or take antialiasing: nothing was drawn there."""
    if region.size == 0:
        return True
    flat = region.reshape(-1, 3)
    distinct = np.unique(flat // 16, axis=0).shape[0]
    return distinct < 4 or float(flat.std()) < 3.0
